/**
 * Leads: visitors waiting at a tour's lead gate first, with Approve (their page goes on at once), then the latest leads
 * the agent may see (a company admin: the company's; a member: their own tours'); each lead's details show the rooms
 * its visitor saw and where the gate stopped them, and Revoke pass for a lead through the gate.
 */
import { DataLoadError } from '../../ui/data-load-error.js';
import { Loading, Page } from '../../ui/page.js';
import { gateText, holdsPass, leadName, roomPathText } from './lead-rules.js';
import { useLeads } from './use-leads.js';
import './leads.css';

type Lead = ReturnType<typeof useLeads>['all'][number];

function LeadDetails({ lead }: { lead: Lead }) {
  const rooms = roomPathText(lead.roomPath);
  return (
    <dl className="lead-details">
      <dt>Email</dt>
      <dd>
        <a href={`mailto:${lead.email}`}>{lead.email}</a>
      </dd>
      {lead.contactNumber ? (
        <>
          <dt>Phone</dt>
          <dd>
            <a href={`tel:${lead.contactNumber.replace(/[^\d+]/g, '')}`}>{lead.contactNumber}</a>
          </dd>
        </>
      ) : null}
      <dt>Tour</dt>
      <dd>{lead.tourTitle ?? 'Untitled tour'}</dd>
      <dt>Rooms seen</dt>
      <dd data-testid="lead-room-path">{rooms || 'None recorded'}</dd>
      {lead.stoppedAt ? (
        <>
          <dt>Stopped at</dt>
          <dd data-testid="lead-stopped-at">{lead.stoppedAt}</dd>
        </>
      ) : null}
      {lead.createdAt ? (
        <>
          <dt>Left</dt>
          <dd>{new Date(lead.createdAt as string).toLocaleString()}</dd>
        </>
      ) : null}
    </dl>
  );
}

export default function LeadsPage() {
  const l = useLeads();
  return (
    <Page title="Leads" back="/">
      {l.error && !l.loaded ? (
        <DataLoadError error={l.error} onRetry={l.retry} />
      ) : !l.loaded ? (
        <Loading />
      ) : (
        <>
          <section aria-labelledby="leads-waiting" className="leads-section">
            <h2 id="leads-waiting">Waiting for your approval ({l.waiting.length})</h2>
            {l.waiting.length === 0 ? (
              <p className="page-note">
                Nobody is waiting. Visitors stopped by a lead gate that asks for your approval appear here.
              </p>
            ) : (
              <ul className="leads" data-testid="leads-waiting">
                {l.waiting.map((lead) => (
                  <li key={lead.id} className="card lead" data-testid="lead-waiting">
                    <h3>{leadName(lead)}</h3>
                    <LeadDetails lead={lead} />
                    <button
                      type="button"
                      className="lead-approve"
                      disabled={l.busy === lead.id}
                      onClick={() => void l.approve(lead.id)}
                    >
                      Approve {leadName(lead)}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="leads-all" className="leads-section">
            <h2 id="leads-all">Latest leads</h2>
            {l.all.length === 0 ? (
              <p className="page-note">No leads yet.</p>
            ) : (
              <ul className="leads" data-testid="leads-all">
                {l.all.map((lead) => (
                  <li key={lead.id} className="card lead">
                    <details>
                      <summary>
                        <strong>{leadName(lead)}</strong> · {lead.tourTitle ?? 'Untitled tour'}
                        {lead.gate ? <span className="lead-gate-state"> · {gateText(lead.gate)}</span> : null}
                      </summary>
                      <LeadDetails lead={lead} />
                      {holdsPass(lead.gate) ? (
                        <button
                          type="button"
                          className="lead-revoke"
                          disabled={l.busy === lead.id}
                          onClick={() => void l.revokePass(lead.id)}
                        >
                          Revoke {leadName(lead)}'s pass
                        </button>
                      ) : null}
                    </details>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </Page>
  );
}
