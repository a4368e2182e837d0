/**
 * The live notice: while an agent is signed in, the console subscribes to tourLeadCreated; a live
 * viewing lead shows "X wants a live viewing of <tour>" with Join, which opens the tour as host in the visitor's
 * viewing session (/agentplayer?tourId=…&liveViewing=true&session=…, the link the lead mail carries), where the call
 * starts by itself. A visitor waiting at a tour's lead gate shows "Waiting for your approval", "X is waiting for your
 * approval to see the rest of <tour>", the room they wait for, and Approve (in place: their page goes on at once).
 */
import { formatDuration } from '@roomwalk/shared';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useClient, useMutation, useSubscription } from 'urql';
import { describeFailure, serverMessage } from '../../graphql/errors.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { LeadApproveMutation } from '../leads/leads-operations.js';
import { LiveLeadSubscription, LiveLeadTourQuery } from './live-operations.js';
import './live-notice.css';

export interface LiveLeadNotice {
  id: string;
  who: string;
  title: string;
  tourId: string;
  /** The visitor's viewing session; null only from a server that does not name it (then the newest open one). */
  session: string | null;
  /** The rooms the visitor saw before asking, in order: "Kitchen 1 min 30 s, Master Bedroom 40 s". */
  rooms: string;
  /** A visitor waiting at the tour's lead gate for the agent's approval (Approve instead of Join). */
  waiting?: boolean;
  /** Where a waiting visitor stands: "Waiting to see the Kitchen" (room gate) or the room they stopped in. */
  where?: string;
}

/** "Kitchen 1 min 30 s, Master Bedroom 40 s" (the lead mail's wording); '' when no room was recorded. */
function roomPathText(path: ReadonlyArray<{ name: string; seconds: number }> | null | undefined): string {
  return (path ?? []).map((r) => `${r.name} ${formatDuration(r.seconds)}`).join(', ');
}

/** The agent's join link, the same the lead mail carries: the tour as host, in the visitor's session. */
export function joinLink(tourId: string, session: string | null): string {
  return `/agentplayer?${new URLSearchParams({ tourId, liveViewing: 'true', ...(session ? { session } : {}) }).toString()}`;
}

/** The room a waiting visitor is held before (the gate's room), else the room they stopped in; '' when neither. */
function waitingWhere(gateRoom: string | null | undefined, stoppedAt: string | null | undefined): string {
  if (gateRoom) return `Waiting to see the ${gateRoom}`;
  return stoppedAt ? `Stopped in the ${stoppedAt}` : '';
}

export function liveNoticeText(n: Pick<LiveLeadNotice, 'who' | 'title'> & { waiting?: boolean | undefined }): string {
  return n.waiting
    ? `${n.who} is waiting for your approval to see the rest of ${n.title}`
    : `${n.who} wants a live viewing of ${n.title}`;
}

export default function LiveNotice() {
  const client = useClient();
  const navigate = useNavigate();
  const [notices, setNotices] = useState<LiveLeadNotice[]>([]);
  const [{ data }] = useSubscription({ query: LiveLeadSubscription });
  const [, approve] = useMutation(LeadApproveMutation);
  const notify = useSnackbar();
  const joinRef = useRef<HTMLButtonElement>(null);
  /** Approvals under way ('') or refused (the reason), per notice. */
  const [approving, setApproving] = useState<Record<string, string>>({});

  useEffect(() => {
    const lead = data?.tourLeadCreated;
    const waiting = lead?.gate === 'WAITING';
    if (!lead || (lead.leadType !== 'LIVE_VIEWING' && !waiting)) return;
    let cancelled = false;
    const who = [lead.name, lead.surname].filter(Boolean).join(' ');
    void client
      .query(LiveLeadTourQuery, { tourID: lead.tourId }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((r) => {
        if (cancelled) return;
        const title = r.data?.tour?.title || 'your tour';
        const where = waiting ? waitingWhere(r.data?.tour?.leadGate?.roomName, lead.stoppedAt) : '';
        setNotices((all) =>
          all.some((n) => n.id === lead.id)
            ? all
            : [
                ...all.slice(-2),
                {
                  id: lead.id,
                  who,
                  title,
                  tourId: lead.tourId,
                  session: lead.viewingSessionId ?? null,
                  rooms: roomPathText(lead.roomPath),
                  waiting,
                  where,
                },
              ],
        );
      });
    return () => {
      cancelled = true;
    };
  }, [data, client]);

  useEffect(() => {
    if (notices.length) joinRef.current?.focus();
  }, [notices.length]);

  if (!notices.length) return null;
  const dismiss = (id: string) => setNotices((all) => all.filter((n) => n.id !== id));
  const approveInPlace = async (n: LiveLeadNotice) => {
    setApproving((all) => ({ ...all, [n.id]: '' }));
    const r = await approve({ id: n.id });
    if (r.error) {
      // The notice stays, with the reason beside Approve: the visitor still waits.
      setApproving((all) => ({ ...all, [n.id]: describeFailure(r.error!, serverMessage(r.error!)) }));
      return;
    }
    dismiss(n.id);
    notify('success', `${n.who} can continue now.`);
  };
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
