/**
 * The Leads screen's data: the latest leads, those waiting for approval, Approve and Revoke pass (refreshed as leads
 * arrive).
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { describeFailure, serverMessage } from '../../graphql/errors.js';
import { readFragment } from '../../graphql/graphql.js';
import { useSnackbar } from '../../ui/snackbar.js';
import {
  LeadApproveMutation,
  LeadArrivedSubscription,
  LeadFields,
  LeadRevokePassMutation,
  LeadsQuery,
} from './leads-operations.js';
import { leadName } from './lead-rules.js';

export function useLeads() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: LeadsQuery, requestPolicy: 'cache-and-network' });
  const [, approve] = useMutation(LeadApproveMutation);
  const [, revoke] = useMutation(LeadRevokePassMutation);
  const [arrived] = useSubscription({ query: LeadArrivedSubscription });
  const notify = useSnackbar();
  const [busy, setBusy] = useState<string | null>(null);
  const retry = () => refetch({ requestPolicy: 'network-only' });

  const arrivedId = arrived.data?.tourLeadCreated.id;
  useEffect(() => {
    if (arrivedId) refetch({ requestPolicy: 'network-only' });
  }, [arrivedId, refetch]);

  const waiting = readFragment(LeadFields, data?.waiting ?? []);
  const all = readFragment(LeadFields, data?.all ?? []);

  const approveLead = async (id: string) => {
    const lead = waiting.find((l) => l.id === id);
    setBusy(id);
    const r = await approve({ id });
    setBusy(null);
    if (r.error) return notify('error', describeFailure(r.error, serverMessage(r.error)));
    notify('success', `${lead ? leadName(lead) : 'The visitor'} can continue now.`);
    retry();
  };

  const revokePass = async (id: string) => {
    const lead = all.find((l) => l.id === id);
    setBusy(id);
    const r = await revoke({ id });
    setBusy(null);
    if (r.error) return notify('error', describeFailure(r.error, serverMessage(r.error)));
    notify(
      'success',
      `${lead ? leadName(lead) : 'The visitor'}'s pass is taken back: the tour stops at the form for them.`,
    );
    retry();
  };

  return { loaded: !!data, fetching, error, retry, waiting, all, busy, approve: approveLead, revokePass };
}
