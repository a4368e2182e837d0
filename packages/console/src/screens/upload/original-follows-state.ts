/**
 * What the user is told while the original follows a converted tour (original-follows.ts): the state of that
 * background upload, read by the notice shown on every screen (original-follows-notice.tsx), and the tab's
 * `beforeunload` guard while it is going up: closing the tab then loses the full-resolution photos. Kept apart from
 * original-follows.ts (which loads the upload code) so the console's shell can show the notice without loading it.
 */
export type OriginalFollowsState =
  | { phase: 'waiting' }
  | { phase: 'sending'; percent: number }
  | { phase: 'done' }
  | { phase: 'failed'; reason: string }
  | null;

export const ORIGINAL_FOLLOWS_TEXTS = {
  label: 'Sending the original video',
  /** The status line: the percentage moves in steps of 5, so a screen reader is not told every percent. */
  sending: (percent: number) =>
    `Sending the original for full-quality photos… ${Math.floor(percent / 5) * 5}%. Keep this tab open.`,
  loss: 'Your tour is ready. If you close this tab before this ends, the tour stays as it is but its photos are made from the smaller copy made on your device instead of your full-resolution video.',
  /** On mobile data (or Data Saver): the original waits for Wi-Fi, unless the agent sends it now. */
  waiting:
    'The original video for full-quality photos will be sent when you are on Wi-Fi (you are on mobile data). Keep this tab open.',
  sendNow: 'Send it now',
  done: 'The original is sent: the photos use its full quality.',
  failed: 'The original could not be sent: the photos are made from the smaller copy made on your device.',
  dismiss: 'Dismiss',
  /** Browsers show their own words for the leave-page question; this is for those that still show the page's. */
  leave: 'The original video is still being sent for full-quality photos. Leave anyway?',
} as const;

let state: OriginalFollowsState = null;
const listeners = new Set<() => void>();
const sendNowListeners = new Set<() => void>();

function guardUnload(e: BeforeUnloadEvent): string {
  e.preventDefault();
  // Older browsers ask for the text in returnValue.
  e.returnValue = ORIGINAL_FOLLOWS_TEXTS.leave;
  return ORIGINAL_FOLLOWS_TEXTS.leave;
}

export const originalFollows = {
  get: (): OriginalFollowsState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** The agent chose to send a waiting original over mobile data. */
  sendNow(): void {
    for (const l of sendNowListeners) l();
  },
  onSendNow(listener: () => void): () => void {
    sendNowListeners.add(listener);
    return () => {
      sendNowListeners.delete(listener);
    };
  },
  set(next: OriginalFollowsState): void {
    const wasSending = state?.phase === 'sending' || state?.phase === 'waiting';
    state = next;
    const sending = next?.phase === 'sending' || next?.phase === 'waiting';
    if (sending && !wasSending) window.addEventListener('beforeunload', guardUnload);
    if (!sending && wasSending) window.removeEventListener('beforeunload', guardUnload);
    for (const l of listeners) l();
  },
};
