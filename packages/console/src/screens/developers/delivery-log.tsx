/**
 * One endpoint's delivery log (issue 20): one row per attempt, newest first, "Load more" pages on, "Replay" per row.
 * After a send or a replay the log looks again every POLL_MS while a delivery is in flight (shouldPoll), one timer at a time.
 */
import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useClient, useMutation } from 'urql';
import SlBadge from '@shoelace-style/shoelace/dist/react/badge/index.js';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { describeFailure } from '../../graphql/errors.js';
import type { ResultOf } from '../../graphql/graphql.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { WebhookDeliveriesQuery, WebhookDeliveryReplayMutation } from './developers-operations.js';
import { DEVELOPER_TEXTS, POLL_MS, dateTime, deliveryStatusChip, eventLabel, shouldPoll } from './developer-rules.js';

type Delivery = ResultOf<typeof WebhookDeliveriesQuery>['webhookDeliveries']['edges'][number]['node'];
const DELIVERIES_PAGE = 10;

export interface DeliveryLogHandle {
  /** Reads the newest page again and polls while a delivery is in flight (after "Send test event"). */
  refresh(): void;
}

function StatusChip({ status, nextRetryAt }: { status: Delivery['status']; nextRetryAt?: string | null }) {
  const chip = deliveryStatusChip(status, nextRetryAt);
  return (
    <SlBadge variant={chip.variant} pill data-testid="delivery-status">
      <SlIcon name={chip.icon} aria-hidden="true" className="chip-icon" />
      {chip.text}
    </SlBadge>
  );
}

export const DeliveryLog = forwardRef<DeliveryLogHandle, { endpointId: string; endpointUrl: string }>(function DeliveryLog({ endpointId, endpointUrl }, ref) {
  const client = useClient();
  const notify = useSnackbar();
  const [, replay] = useMutation(WebhookDeliveryReplayMutation);
  const [rows, setRows] = useState<Delivery[]>([]);
  const [cursor, setCursor] = useState<{ hasNextPage: boolean; endCursor?: string | null }>({ hasNextPage: false });
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [replaying, setReplaying] = useState<string | null>(null);
  const lastAction = useRef(Date.now());
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pages = useRef(1);
  const alive = useRef(true);

  /** The newest `pages` pages again (so "Load more" stays loaded across refreshes). */
  const load = useCallback(async () => {
    clearTimeout(timer.current);
    const r = await client.query(WebhookDeliveriesQuery, { endpointId, first: DELIVERIES_PAGE * pages.current }, { requestPolicy: 'network-only' }).toPromise();
    if (!alive.current) return;
    setLoading(false);
    if (r.error || !r.data) {
      setFailure(describeFailure(r.error));
      return;
    }
    setFailure(null);
    const next = r.data.webhookDeliveries.edges.map((e) => e.node);
    setRows(next);
    setCursor(r.data.webhookDeliveries.pageInfo);
    if (shouldPoll(next, Date.now(), lastAction.current)) timer.current = setTimeout(() => void load(), POLL_MS);
  }, [client, endpointId]);

  const refresh = useCallback(() => {
    lastAction.current = Date.now();
    void load();
  }, [load]);
  useImperativeHandle(ref, () => ({ refresh }), [refresh]);

  useEffect(() => {
    alive.current = true;
    void load();
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, [load]);

  const loadMore = async () => {
    if (!cursor.endCursor) return;
    const r = await client.query(WebhookDeliveriesQuery, { endpointId, first: DELIVERIES_PAGE, after: cursor.endCursor }, { requestPolicy: 'network-only' }).toPromise();
    if (r.error || !r.data) return setFailure(describeFailure(r.error));
    pages.current += 1;
    setRows((old) => [...old, ...r.data!.webhookDeliveries.edges.map((e) => e.node).filter((n) => !old.some((o) => o.id === n.id))]);
    setCursor(r.data.webhookDeliveries.pageInfo);
  };

  const onReplay = async (d: Delivery) => {
    setReplaying(d.id);
    const r = await replay({ id: d.id });
    setReplaying(null);
    if (r.error) return notify('error', describeFailure(r.error));
    notify('success', DEVELOPER_TEXTS.replaySent);
    refresh();
  };

  const captionId = `log-${endpointId}`;
  return (
    <div className="delivery-log">
      <div className="section-title">
        <h3 id={captionId}>Delivery log</h3>
        <SlButton size="small" onClick={refresh}>
          <SlIcon slot="prefix" name="arrow-clockwise" />
          Refresh<span className="visually-hidden"> delivery log</span>
        </SlButton>
      </div>
      {failure ? (
        <p className="form-failure" role="alert">
          {failure}
        </p>
      ) : null}
      {loading ? (
        <p role="status">Loading deliveries…</p>
      ) : rows.length === 0 ? (
        <p>{DEVELOPER_TEXTS.noDeliveries}</p>
      ) : (
        // biome-ignore lint/a11y/useSemanticElements lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus so keyboard users can scroll it (WCAG 2.1.1); <section> would add a landmark per table
        <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
          <table className="delivery-table" aria-label={`Deliveries to ${endpointUrl}`}>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Status</th>
                <th scope="col">HTTP</th>
                <th scope="col">Duration</th>
                <th scope="col">Next retry</th>
                <th scope="col">Details</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-testid="delivery-row" data-event-id={d.eventId}>
                  <td>{dateTime(d.createdAt)}</td>
                  <td>
                    {eventLabel(d.eventType)}
                    <div className="field-hint">
                      <code>{d.eventType}</code>
                    </div>
                  </td>
                  <td>{d.attempt}</td>
                  <td>
                    <StatusChip status={d.status} nextRetryAt={d.nextRetryAt} />
                  </td>
                  <td>{d.statusCode ?? '—'}</td>
                  <td>{d.durationMs != null ? `${d.durationMs} ms` : '—'}</td>
                  <td>{d.nextRetryAt ? dateTime(d.nextRetryAt) : '—'}</td>
                  <td>
                    {d.error || d.responseExcerpt ? (
                      <details className="delivery-details">
                        <summary>{d.error ? 'Error' : 'Response'}</summary>
                        {d.error ? <p className="delivery-error">{d.error}</p> : null}
                        {d.responseExcerpt ? <pre className="delivery-excerpt">{d.responseExcerpt}</pre> : null}
                      </details>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>
                    <SlButton size="small" loading={replaying === d.id} onClick={() => void onReplay(d)}>
                      Replay
                      <span className="visually-hidden">
                        {' '}
                        {eventLabel(d.eventType)}, attempt {d.attempt}
                      </span>
                    </SlButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor.hasNextPage ? (
        <SlButton className="load-more" onClick={() => void loadMore()}>
          Load more
        </SlButton>
      ) : null}
    </div>
  );
});
