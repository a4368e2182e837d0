/**
 * The notice shown on every screen while the original of a converted tour goes up: a polite status with the
 * progress in words (steps of 5), a labelled bar and what closing the tab costs; a failure stays until dismissed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { OriginalFollowsNotice } from './original-follows-notice.js';
import { originalFollows } from './original-follows-state.js';

afterEach(() => act(() => originalFollows.set(null)));

describe('OriginalFollowsNotice', () => {
  it('says nothing until the original follows, then its progress and what closing the tab costs', () => {
    render(<OriginalFollowsNotice />);
    const status = screen.getByRole('status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toBeEmptyDOMElement();
    act(() => originalFollows.set({ phase: 'sending', percent: 43 }));
    expect(status).toHaveTextContent('Sending the original for full-quality photos… 40%. Keep this tab open.');
    expect(status).toHaveTextContent('its photos are made from the smaller copy made on your device');
    // Its bar's accessible name is checked in the browser (e2e/upload-conversion.spec.ts).
    expect(status.querySelector('sl-progress-bar')).not.toBeNull();
    act(() => originalFollows.set({ phase: 'done' }));
    expect(status).toHaveTextContent('The original is sent: the photos use its full quality.');
  });

  it('keeps a failure up until it is dismissed', () => {
    render(<OriginalFollowsNotice />);
    act(() => originalFollows.set({ phase: 'failed', reason: 'The connection was lost during the upload.' }));
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(
      'The original could not be sent: the photos are made from the smaller copy made on your device.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(status).toBeEmptyDOMElement();
  });
});
