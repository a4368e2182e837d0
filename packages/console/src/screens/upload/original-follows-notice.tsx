/**
 * On every screen while the original follows a converted tour (original-follows-state.ts): what is going up, how far,
 * to keep the tab open and what closing it costs; then that it arrived (for a few seconds) or that it did not (until
 * dismissed). A polite status region, above the page and its dialogs.
 */
import { useEffect, useSyncExternalStore } from 'react';
import SlProgressBar from '@shoelace-style/shoelace/dist/react/progress-bar/index.js';
import { ORIGINAL_FOLLOWS_TEXTS as T, originalFollows } from './original-follows-state.js';
import './original-follows-notice.css';

/** How long "the original is sent" stays up. */
const DONE_SHOWN_MS = 8000;

export function OriginalFollowsNotice() {
  const state = useSyncExternalStore(originalFollows.subscribe, originalFollows.get);
  useEffect(() => {
    if (state?.phase !== 'done') return;
    const t = setTimeout(() => originalFollows.get()?.phase === 'done' && originalFollows.set(null), DONE_SHOWN_MS);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <div className="original-follows" role="status" aria-live="polite" data-testid="original-follows">
      {state?.phase === 'waiting' ? (
        <div className="original-follows-card">
          <p>{T.waiting}</p>
          <p className="original-follows-loss">{T.loss}</p>
          <button type="button" className="original-follows-dismiss" onClick={() => originalFollows.sendNow()}>
            {T.sendNow}
          </button>
        </div>
      ) : state?.phase === 'sending' ? (
        <div className="original-follows-card">
          <p>{T.sending(state.percent)}</p>
          <SlProgressBar value={state.percent} label={T.label} />
          <p className="original-follows-loss">{T.loss}</p>
        </div>
      ) : state ? (
        <div className="original-follows-card">
          <p>{state.phase === 'done' ? T.done : T.failed}</p>
          {state.phase === 'failed' ? (
            <button type="button" className="original-follows-dismiss" onClick={() => originalFollows.set(null)}>
              {T.dismiss}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
