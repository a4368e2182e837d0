/**
 * One endpoint's delivery log: one row per attempt, newest first, "Load more" pages on, "Replay" per row
 * (the rows and their refreshing: useDeliveries).
 */
import { forwardRef, useImperativeHandle } from 'react';
import SlBadge from '@shoelace-style/shoelace/dist/react/badge/index.js';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { DEVELOPER_TEXTS, dateTime, deliveryStatusChip, eventLabel } from './developer-rules.js';
import { useDeliveries, type Delivery } from './use-deliveries.js';

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

export const DeliveryLog = forwardRef<DeliveryLogHandle, { endpointId: string; endpointUrl: string }>(
  function DeliveryLog({ endpointId, endpointUrl }, ref) {
    const log = useDeliveries(endpointId);
    useImperativeHandle(ref, () => ({ refresh: log.refresh }), [log.refresh]);

    const captionId = `log-${endpointId}`;
    return (
      <div className="delivery-log">
        <div className="section-title">
          <h3 id={captionId}>Delivery log</h3>
          <SlButton size="small" onClick={log.refresh}>
            <SlIcon slot="prefix" name="arrow-clockwise" />
            Refresh<span className="visually-hidden"> delivery log</span>
          </SlButton>
        </div>
        {log.failure ? (
          <p className="form-failure" role="alert">
            {log.failure}
          </p>
        ) : null}
        {log.loading ? (
          <p role="status">Loading deliveries…</p>
        ) : log.rows.length === 0 ? (
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
                {log.rows.map((d) => (
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
                      <SlButton size="small" loading={log.replaying === d.id} onClick={() => void log.replay(d)}>
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
        {log.hasMore ? (
          <SlButton className="load-more" onClick={() => void log.loadMore()}>
            Load more
          </SlButton>
        ) : null}
      </div>
    );
  },
);
