/**
 * Webhook endpoints: each with its events, state, secret (revealed on request, rotated with a confirmation),
 * "Send test event", enable/disable, edit, delete and its delivery log.
 */
import { useRef, useState } from 'react';
import SlBadge from '@shoelace-style/shoelace/dist/react/badge/index.js';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { FormFailure } from '../../ui/form-dialog.js';
import { DEVELOPER_TEXTS, eventLabel } from './developer-rules.js';
import { DeliveryLog, type DeliveryLogHandle } from './delivery-log.js';
import { EndpointDialog } from './endpoint-dialog.js';
import { SecretField, SecretOnceDialog } from './secret-field.js';
import { ConfirmRemovalDialog } from './confirm-removal.js';
import { useDeleteEndpoint, useEndpointActions, useRotateSecret, type Endpoint } from './use-webhook-endpoints.js';

function RotateDialog({ endpoint, onClose }: { endpoint: Endpoint | null; onClose: () => void }) {
  const { secret, busy, failure, clear, confirm } = useRotateSecret(endpoint);
  const close = () => {
    clear();
    onClose();
  };
  return (
    <SecretOnceDialog
      open={!!endpoint}
      label={{ before: 'Rotate signing secret', after: 'New signing secret' }}
      secret={secret}
      secretLabel="Signing secret"
      secretNote={DEVELOPER_TEXTS.secretShownOnce}
      busy={busy}
      action={{ label: 'Rotate', variant: 'warning', run: () => void confirm() }}
      onClose={close}
    >
      <p>
        Make a new signing secret for {endpoint?.url}? Deliveries are signed with the new secret from now on; update
        your receiver before the next event.
      </p>
      <FormFailure failure={failure} />
    </SecretOnceDialog>
  );
}

function EndpointCard({
  endpoint,
  onEdit,
  onRotate,
  onDelete,
  onChanged,
}: {
  endpoint: Endpoint;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
  onChanged: () => void;
}) {
  const log = useRef<DeliveryLogHandle>(null);
  const { secret, hide, busy, reveal, test, toggle } = useEndpointActions(endpoint, onChanged, () =>
    log.current?.refresh(),
  );
  const headingId = `endpoint-${endpoint.id}`;

  return (
    <li className="card endpoint-card" data-testid="webhook-endpoint">
      <div className="endpoint-head">
        <h3 id={headingId} className="endpoint-url">
          {endpoint.url}
        </h3>
        {endpoint.enabled ? (
          <SlBadge variant="success" pill data-testid="endpoint-state">
            Enabled
          </SlBadge>
        ) : (
          <SlBadge variant="neutral" pill data-testid="endpoint-state">
            Disabled
          </SlBadge>
        )}
      </div>
      {endpoint.description ? <p className="endpoint-description">{endpoint.description}</p> : null}
      {!endpoint.enabled && endpoint.disabledReason ? (
        <p className="page-note" data-testid="disabled-reason">
          <SlIcon name="exclamation-triangle" aria-hidden="true" /> Disabled: {endpoint.disabledReason}
        </p>
      ) : null}
      <ul className="event-chips" aria-label="Events">
        {endpoint.events.map((e) => (
          <li key={e} className="event-chip">
            {eventLabel(e)}
          </li>
        ))}
      </ul>
      {secret ? (
        <div className="row nowrap revealed-secret">
          <SecretField label="Signing secret" value={secret} />
          <SlButton onClick={hide}>Hide</SlButton>
        </div>
      ) : null}
      <div className="endpoint-actions">
        <SlButton variant="primary" loading={busy === 'test'} disabled={!endpoint.enabled} onClick={() => void test()}>
          <SlIcon slot="prefix" name="send" />
          Send test event
        </SlButton>
        {secret ? null : (
          <SlButton loading={busy === 'reveal'} onClick={() => void reveal()}>
            <SlIcon slot="prefix" name="eye" />
            Reveal secret
          </SlButton>
        )}
        <SlButton onClick={onRotate}>
          <SlIcon slot="prefix" name="arrow-repeat" />
          Rotate secret
        </SlButton>
        <SlButton loading={busy === 'toggle'} onClick={() => void toggle()}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </SlButton>
        <SlButton onClick={onEdit}>
          <SlIcon slot="prefix" name="pencil" />
          Edit
        </SlButton>
        <SlButton variant="danger" outline onClick={onDelete}>
          <SlIcon slot="prefix" name="trash" />
          Delete
        </SlButton>
      </div>
      <DeliveryLog ref={log} endpointId={endpoint.id} endpointUrl={endpoint.url} />
    </li>
  );
}

export function WebhooksSection({ endpoints, onChanged }: { endpoints: readonly Endpoint[]; onChanged: () => void }) {
  const [editing, setEditing] = useState<{ endpoint: Endpoint | null } | null>(null);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const deleting = useDeleteEndpoint(endpoints, heading, onChanged);

  return (
    <section className="card section" aria-labelledby="webhook-endpoints">
      <div className="section-title">
        <h2 id="webhook-endpoints" ref={heading} tabIndex={-1}>
          Webhook endpoints
        </h2>
        <SlButton variant="primary" onClick={() => setEditing({ endpoint: null })}>
          <SlIcon slot="prefix" name="plus-lg" />
          Add endpoint
        </SlButton>
      </div>
      <p className="field-hint">{DEVELOPER_TEXTS.endpointsIntro}</p>
      {endpoints.length === 0 ? (
        <p>{DEVELOPER_TEXTS.noEndpoints}</p>
      ) : (
        <ul className="developer-list endpoints">
          {endpoints.map((e) => (
            <EndpointCard
              key={e.id}
              endpoint={e}
              onChanged={onChanged}
              onEdit={() => setEditing({ endpoint: e })}
              onRotate={() => setRotating(e)}
              onDelete={() => deleting.ask(e)}
            />
          ))}
        </ul>
      )}
      <EndpointDialog
        open={!!editing}
        endpoint={editing?.endpoint ?? null}
        onClose={() => setEditing(null)}
        onSaved={onChanged}
      />
      <RotateDialog endpoint={rotating} onClose={() => setRotating(null)} />
      <ConfirmRemovalDialog removal={deleting} label="Delete endpoint" action="Delete">
        <p>
          Delete the endpoint {deleting.target?.url}? Roomwalk stops sending it events and its delivery log is deleted
          with it.
        </p>
      </ConfirmRemovalDialog>
    </section>
  );
}
