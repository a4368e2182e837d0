/**
 * A lead form asks the visit report (visit-report.ts) for the visit so far before it sends the lead, so the agent's
 * lead shows the rooms its visitor saw: it dispatches this event (bubbling, composed); the report of the
 * same tour fills in the visitor id and the promise of sending the visit at once.
 */
export const VISIT_FLUSH_EVENT = 'tour-visit-flush';
export interface VisitFlushDetail {
  visitorId?: string;
  done?: Promise<unknown>;
}

/** The longest a lead waits for its visit to be sent. */
const FLUSH_WAIT_MS = 2000;

/** Sends the visit so far (when a visit report listens) and answers its visitor id. */
export async function flushVisit(from: EventTarget): Promise<VisitFlushDetail> {
  const detail: VisitFlushDetail = {};
  from.dispatchEvent(new CustomEvent(VISIT_FLUSH_EVENT, { detail, bubbles: true, composed: true }));
  if (detail.done) await Promise.race([detail.done, new Promise((r) => setTimeout(r, FLUSH_WAIT_MS))]);
  return detail;
}
