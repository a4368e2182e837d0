/** The floating Feedback button on every screen; the dialog's code loads when it is first opened. */
import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';

const FeedbackDialog = lazy(() => import('./feedback-dialog.js'));

/** Embeds pass `disabledControls=feedback` (a comma list, any case) to hide the button (tours §2). */
export function feedbackDisabled(search: string): boolean {
  const list = new URLSearchParams(search).get('disabledControls') ?? '';
  return list.split(',').some((v) => v.trim().toLowerCase() === 'feedback');
}

export function FeedbackButton() {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const { search } = useLocation();
  if (feedbackDisabled(search)) return null;
  return (
    <>
      <SlButton
        className="feedback-button"
        variant="neutral"
        pill
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        <SlIcon slot="prefix" name="chat-left-text" />
        Feedback
      </SlButton>
      {loaded ? (
        <Suspense fallback={null}>
          <FeedbackDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
