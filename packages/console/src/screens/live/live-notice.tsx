/**
 * The live notice: while an agent is signed in, the console subscribes to tourLeadCreated; a live
 * viewing lead shows "X wants a live viewing of <tour>" with Join, which opens the tour as host in the visitor's
 * viewing session (/agentplayer?tourId=…&liveViewing=true&session=…, the link the lead mail carries), where the call
 * starts by itself. A visitor waiting at a tour's lead gate shows "Waiting for your approval", "X is waiting for your
 * approval to see the rest of <tour>", the room they wait for, and Approve (in place: their page goes on at once).
 */
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLiveNotices, type LiveLeadNotice } from './use-live-notices.js';
import './live-notice.css';

/** The agent's join link, the same the lead mail carries: the tour as host, in the visitor's session. */
export function joinLink(tourId: string, session: string | null): string {
  return `/agentplayer?${new URLSearchParams({ tourId, liveViewing: 'true', ...(session ? { session } : {}) }).toString()}`;
}

export function liveNoticeText(n: Pick<LiveLeadNotice, 'who' | 'title'> & { waiting?: boolean | undefined }): string {
  return n.waiting
    ? `${n.who} is waiting for your approval to see the rest of ${n.title}`
    : `${n.who} wants a live viewing of ${n.title}`;
}

export default function LiveNotice() {
  const navigate = useNavigate();
  const { notices, approving, dismiss, approve: approveInPlace } = useLiveNotices();
  const joinRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (notices.length) joinRef.current?.focus();
  }, [notices.length]);

  if (!notices.length) return null;
  return (
    <div className="live-notices">
      {notices.map((n, i) => (
        <div
          key={n.id}
          className={n.waiting ? 'live-notice live-notice-waiting' : 'live-notice'}
          role="alertdialog"
          aria-labelledby={`live-notice-${n.id}`}
          aria-describedby={n.where ? `live-notice-where-${n.id}` : undefined}
        >
          {n.waiting ? <p className="live-notice-kind">Waiting for your approval</p> : null}
          <p id={`live-notice-${n.id}`}>{liveNoticeText(n)}</p>
          {n.where ? (
            <p className="live-notice-rooms" id={`live-notice-where-${n.id}`}>
              {n.where}
            </p>
          ) : null}
          {n.rooms ? (
            <p className="live-notice-rooms" data-testid="live-notice-rooms">
              Saw: {n.rooms}
            </p>
          ) : null}
          {approving[n.id] ? (
            <p className="live-notice-rooms" role="alert">
              {approving[n.id]}
            </p>
          ) : null}
          <div className="live-notice-actions">
            <button type="button" className="live-notice-dismiss" onClick={() => dismiss(n.id)}>
              Dismiss
            </button>
            {n.waiting ? (
              <button
                type="button"
                className="live-notice-join"
                ref={i === notices.length - 1 ? joinRef : undefined}
                disabled={approving[n.id] === ''}
                onClick={() => void approveInPlace(n)}
              >
                Approve
              </button>
            ) : (
              <button
                type="button"
                className="live-notice-join"
                ref={i === notices.length - 1 ? joinRef : undefined}
                onClick={() => {
                  dismiss(n.id);
                  navigate(joinLink(n.tourId, n.session));
                }}
              >
                Join
              </button>
            )}
          </div>
        </div>
      ))}
    </div>
  );
}
