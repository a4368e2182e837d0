/** The floating Feedback button on every screen; the dialog's code loads when it is first opened. */
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';

const FeedbackDialog = lazy(() => import('./feedback-dialog.js'));

/**
 * Embeds pass `disabledControls=feedback` (a comma list, any case) to hide the button; an unbranded (MLS)
 * tour never shows it (nothing inside it leads out to Roomwalk).
 */
export function feedbackDisabled(search: string): boolean {
  const q = new URLSearchParams(search);
  const list = q.get('disabledControls') ?? '';
  return (
    q.get('unbranded')?.trim().toLowerCase() === 'true' ||
    list.split(',').some((v) => v.trim().toLowerCase() === 'feedback')
  );
}

/**
 * Pages built on <Page> show the button in their own flow (a footer row), where it covers nothing; the floating one in
 * the bottom dock is only for screens without it (the full-screen players). Counted, so overlapping mounts agree.
 */
let inFlowCount = 0;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const setInFlow = (delta: number) => {
  inFlowCount += delta;
  for (const l of listeners) l();
};

export function FeedbackButton({ placement = 'floating' }: { placement?: 'floating' | 'in-flow' }) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const { search } = useLocation();
  const inFlowShown = useSyncExternalStore(
    subscribe,
    () => inFlowCount > 0,
    () => false,
  );
  useEffect(() => {
    if (placement !== 'in-flow') return;
    setInFlow(1);
    return () => setInFlow(-1);
  }, [placement]);
  if (feedbackDisabled(search)) return null;
  if (placement === 'floating' && inFlowShown) return null;
  return (
    <>
      <SlButton
        className={placement === 'in-flow' ? 'feedback-button feedback-in-flow' : 'feedback-button'}
        variant="neutral"
        pill
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        <SlIcon slot="prefix" name="chat-left-text" />
        <span className="feedback-label">Feedback</span>
      </SlButton>
      {loaded ? (
        <Suspense fallback={null}>
          <FeedbackDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
