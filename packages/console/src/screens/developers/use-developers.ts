/**
 * APIs & Webhooks' data: who may use the page (the session's roles, the company's plan, company admin), then the keys
 * and endpoints. A PLAN_REQUIRED or FORBIDDEN answer (a company downgraded since the licence was read) is a gate,
 * like the one the access check gives.
 */
import { useQuery } from 'urql';
import { ERROR_CODES } from '@roomwalk/shared';
import { failureCode } from '../../graphql/errors.js';
import { useSession } from '../../session/session-context.js';
import { DevelopersAccessQuery, DevelopersQuery } from './developers-operations.js';
import { developerAccess, type Access } from './developer-rules.js';

export function useDevelopersAccess() {
  const { roles } = useSession();
  const [{ data, error }, refetch] = useQuery({ query: DevelopersAccessQuery, requestPolicy: 'cache-and-network' });
  return {
    error: data ? undefined : error,
    retry: () => refetch({ requestPolicy: 'network-only' }),
    /** Null until the access check has answered. */
    access: data
      ? developerAccess(roles, { isAdmin: data.me.user.isAdmin, planName: data.me.user.company?.license?.planName })
      : null,
  };
}

export function useDevelopers() {
  const [{ data, error }, refetch] = useQuery({ query: DevelopersQuery, requestPolicy: 'cache-and-network' });
  const code = data ? null : failureCode(error);
  const gate: Exclude<Access, 'allowed'> | null =
    code === ERROR_CODES.PLAN_REQUIRED ? 'plan' : code === ERROR_CODES.FORBIDDEN ? 'admin' : null;
  return {
    gate,
    error: data || gate ? undefined : error,
    reload: () => refetch({ requestPolicy: 'network-only' }),
    keys: data ? (data.me.user.company?.apiKeys ?? []) : null,
    endpoints: data?.webhookEndpoints ?? [],
  };
}
