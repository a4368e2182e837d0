/**
 * APIs & Webhooks (issue 20), /account/developers: API keys and webhook endpoints for the admins of a Pro (or Offline
 * License) company. Others see the plan gate with Upgrade, like Teams, or the admins-only note; a PLAN_REQUIRED or
 * FORBIDDEN answer (a company downgraded since the licence was read) shows the same.
 */
import { useQuery } from 'urql';
import { ERROR_CODES } from '@roomwalk/shared';
import { failureCode } from '../../graphql/errors.js';
import { useSession } from '../../session/session-context.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { PlanGate } from '../../ui/plan-gate.js';
import { Loading, Page } from '../../ui/page.js';
import { ApiKeysSection } from './api-keys-section.js';
import { DevelopersAccessQuery, DevelopersQuery } from './developers-operations.js';
import { DEVELOPER_TEXTS, developerAccess, type Access } from './developer-rules.js';
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
  const [{ data, error }, refetch] = useQuery({ query: DevelopersQuery, requestPolicy: 'cache-and-network' });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const code = failureCode(error);
  if (!data && code === ERROR_CODES.PLAN_REQUIRED) return <Gate access="plan" />;
  if (!data && code === ERROR_CODES.FORBIDDEN) return <Gate access="admin" />;
  if (error && !data)
    return (
      <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
        <DataLoadError error={error} onRetry={reload} />
      </Page>
    );
  if (!data)
    return (
      <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
        <Loading />
      </Page>
    );
  return (
    <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
      <ApiKeysSection keys={data.me.user.company?.apiKeys ?? []} onChanged={reload} />
      <WebhooksSection endpoints={data.webhookEndpoints} onChanged={reload} />
    </Page>
  );
}

export default function DevelopersPage() {
  const { roles } = useSession();
  const [{ data, error }, refetch] = useQuery({ query: DevelopersAccessQuery, requestPolicy: 'cache-and-network' });
  if (error && !data)
    return (
      <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
        <DataLoadError error={error} onRetry={() => refetch({ requestPolicy: 'network-only' })} />
      </Page>
    );
  if (!data)
    return (
      <Page title={DEVELOPER_TEXTS.title} back="/account" className="developers">
        <Loading />
      </Page>
    );
  const access = developerAccess(roles, { isAdmin: data.me.user.isAdmin, planName: data.me.user.company?.license?.planName });
  if (access !== 'allowed') return <Gate access={access} />;
  return <DevelopersScreens />;
}
