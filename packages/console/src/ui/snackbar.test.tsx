/**
 * Snackbars stay clear of an open dialog's buttons: they show inside the dialog's body, and back at the screen's edge
 * once it closes.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
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
  it('shows a snackbar in the open dialog body, outside its footer; after it closes, at the screen edge', () => {
    render(
      <SnackbarProvider>
        <Screen />
      </SnackbarProvider>,
    );
    fireEvent.click(screen.getByText('notify'));
    const toast = screen.getByText('Failed to save profile');
    const dialog = document.querySelector('sl-dialog')!;
    expect(dialog.contains(toast)).toBe(true);
    expect(toast.closest('.dialog-toasts')).not.toBeNull();
    expect(toast.closest('[slot="footer"]')).toBeNull();

    act(() => fireEvent.click(screen.getByText('close')));
    fireEvent.click(screen.getByText('notify'));
    const outside = screen.getAllByText('Failed to save profile').find((el) => !dialog.contains(el));
    expect(outside?.closest('.snackbar-region:not(.snackbar-in-dialog)')).not.toBeNull();
  });
});
