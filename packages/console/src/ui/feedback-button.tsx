/** The floating Feedback button on every screen; the dialog's code loads when it is first opened. */
import { lazy, Suspense, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';

const FeedbackDialog = lazy(() => import('./feedback-dialog.js'));

export function FeedbackButton() {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
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
