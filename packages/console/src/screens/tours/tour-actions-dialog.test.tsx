/**
 * The tour dialog's header Copy link keeps its words in a span of their own, the one a phone hides (icon only under
 * 600 px, so the title keeps the header's width: e2e/console-phone.spec.ts measures it at 390x844); "Copied" goes there
 * too, so the button's name follows it for screen readers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { NOTICES } from '@roomwalk/shared';
import { renderRoute } from '../../test/helpers.js';
import { TourActionsDialog } from './tour-actions-dialog.js';
import type { TourCardData } from './tour-card.js';

afterEach(() => vi.unstubAllGlobals());

describe('tour dialog Copy link', () => {
  it('keeps its words in the span a phone hides, Copy link then the copied notice', async () => {
    const writes: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void writes.push(t) } });
    const tour = { id: 'tour_1', title: '14 Jacaranda Avenue, Garden Cottage' } as TourCardData;
    renderRoute(<TourActionsDialog open tour={tour} onClose={() => undefined} onAction={() => undefined} />, {
      path: '/',
      route: '/',
    });
    const words = screen.getByText('Copy link');
    expect(words.className).toBe('copy-link-text');
    const copy = words.closest('sl-button')!;
    fireEvent.click(copy);
    await waitFor(() => expect(writes).toHaveLength(1));
    await waitFor(() => expect(copy.querySelector('.copy-link-text')?.textContent).toBe(NOTICES.copied));
  });
});
