/**
 * Snackbars stay clear of an open dialog's text and buttons: they show in the dialog's footer above its buttons, outside
 * the body that scrolls (sticky at the body's top they lay over the text scrolled under them on a phone), and back at
 * the screen's edge once it closes.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { Dialog } from './dialog.js';
import { SnackbarProvider, useSnackbar } from './snackbar.js';

function Screen() {
  const notify = useSnackbar();
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => notify('error', 'Failed to save profile')}>
        notify
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        close
      </button>
      <Dialog
        open={open}
        label="Edit company details"
        onClose={() => setOpen(false)}
        footer={<button type="button">Save</button>}
      >
        <p>fields</p>
      </Dialog>
    </>
  );
}

describe('snackbars and dialogs', () => {
  it('shows a snackbar in the open dialog footer above its buttons, outside the scrolling body; after it closes, at the screen edge', () => {
    render(
      <SnackbarProvider>
        <Screen />
      </SnackbarProvider>,
    );
    fireEvent.click(screen.getByText('notify'));
    const toast = screen.getByText('Failed to save profile');
    const dialog = document.querySelector('sl-dialog')!;
    expect(dialog.contains(toast)).toBe(true);
    const region = toast.closest('.dialog-toasts')!;
    expect(region).not.toBeNull();
    // Slotted into the footer (which does not scroll with the body), not into the body beside the dialog's text...
    const footer = toast.closest('[slot="footer"]')!;
    expect(footer?.parentElement).toBe(dialog);
    expect(within(dialog).getByText('fields').closest('[slot="footer"]')).toBeNull();
    // ...and above the buttons, in the flow: not within them, and before them.
    const buttons = footer.querySelector('.dialog-footer')!;
    expect(buttons.contains(toast)).toBe(false);
    expect(region.compareDocumentPosition(buttons) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    act(() => fireEvent.click(screen.getByText('close')));
    fireEvent.click(screen.getByText('notify'));
    const outside = screen.getAllByText('Failed to save profile').find((el) => !dialog.contains(el));
    expect(outside?.closest('.snackbar-region:not(.snackbar-in-dialog)')).not.toBeNull();
  });
});
