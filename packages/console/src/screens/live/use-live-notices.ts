/**
 * The live notice's data: the tourLeadCreated subscription while an agent is signed in, each live viewing lead or
 * visitor waiting at a lead gate made a notice with its tour's title (and the gate's room) read once, at most three
 * kept; Approve in place with its notice, or the reason beside it.
 */
import { formatDuration } from '@roomwalk/shared';
import { useEffect, useState } from 'react';
import { useClient, useMutation, useSubscription } from 'urql';
import { describeFailure, serverMessage } from '../../graphql/errors.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { LeadApproveMutation } from '../leads/leads-operations.js';
import { LiveLeadSubscription, LiveLeadTourQuery } from './live-operations.js';

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

/** The room a waiting visitor is held before (the gate's room), else the room they stopped in; '' when neither. */
function waitingWhere(gateRoom: string | null | undefined, stoppedAt: string | null | undefined): string {
  if (gateRoom) return `Waiting to see the ${gateRoom}`;
  return stoppedAt ? `Stopped in the ${stoppedAt}` : '';
}

export function useLiveNotices() {
  const client = useClient();
  const [notices, setNotices] = useState<LiveLeadNotice[]>([]);
  const [{ data }] = useSubscription({ query: LiveLeadSubscription });
  const [, approve] = useMutation(LeadApproveMutation);
  const notify = useSnackbar();
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

  return { notices, approving, dismiss, approve: approveInPlace };
}
