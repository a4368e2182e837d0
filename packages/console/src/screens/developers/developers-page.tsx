/**
 * APIs & Webhooks, /account/developers: API keys and webhook endpoints for the admins of a Pro (or Offline
 * License) company. Others see the plan gate with Upgrade, like Teams, or the admins-only note; a PLAN_REQUIRED or
 * FORBIDDEN answer (a company downgraded since the licence was read) shows the same.
 */
import { DataLoadError } from '../../ui/data-load-error.js';
import { PlanGate } from '../../ui/plan-gate.js';
import { Loading, Page } from '../../ui/page.js';
import { ApiKeysSection } from './api-keys-section.js';
import { DEVELOPER_TEXTS, type Access } from './developer-rules.js';
import { useDevelopers, useDevelopersAccess } from './use-developers.js';
import { WebhooksSection } from './webhooks-section.js';
import './developers.css';

function Gate({ access }: { access: Exclude<Access, 'allowed'> }) {
  return (
    <PlanGate
      title={DEVELOPER_TEXTS.title}
      back="/account"
      className="developers"
      upgrade={access === 'plan'}
      text={access === 'plan' ? DEVELOPER_TEXTS.planRequired : DEVELOPER_TEXTS.adminOnly}
      testId="developers-gate"
    />
  );
}

function DevelopersScreens() {
  const { gate, error, reload, keys, endpoints } = useDevelopers();
  if (gate) return <Gate access={gate} />;
  if (error)
    return (
      <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
        <DataLoadError error={error} onRetry={reload} />
      </Page>
    );
  if (!keys)
    return (
      <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
        <Loading />
      </Page>
    );
  return (
    <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
      <ApiKeysSection keys={keys} onChanged={reload} />
      <WebhooksSection endpoints={endpoints} onChanged={reload} />
    </Page>
  );
}

export default function DevelopersPage() {
  const { error, retry, access } = useDevelopersAccess();
  if (error)
    return (
      <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
        <DataLoadError error={error} onRetry={retry} />
      </Page>
    );
  if (!access)
    return (
      <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
        <Loading />
      </Page>
    );
  if (access !== 'allowed') return <Gate access={access} />;
  return <DevelopersScreens />;
}
