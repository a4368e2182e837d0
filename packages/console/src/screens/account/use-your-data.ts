/** Your data's queries and mutations: the export (asked for, then read again until done) and the account deletion. */
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { describeFailure, fieldErrors, failureCode } from '../../graphql/errors.js';
import {
  AccountDeletionPreviewQuery,
  AccountDeletionRequestMutation,
  DataExportCreateMutation,
  DataExportQuery,
} from './account-operations.js';
import { exportRunning, exportView } from './your-data-rules.js';

const POLL_MS = 1000;

export function useDataExport() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: DataExportQuery, requestPolicy: 'cache-and-network' });
  const [{ fetching: starting }, create] = useMutation(DataExportCreateMutation);
  const [failure, setFailure] = useState<string | null>(null);
  const current = data?.dataExport ?? null;

  // The job writes its progress to the export's row: read it again a second after each answer until it is done.
  useEffect(() => {
    if (!exportRunning(current)) return;
    const timer = setTimeout(() => refetch({ requestPolicy: 'network-only' }), POLL_MS);
    return () => clearTimeout(timer);
  }, [current, refetch]);

  const start = async () => {
    setFailure(null);
    const r = await create({});
    if (r.error) setFailure(describeFailure(r.error));
    refetch({ requestPolicy: 'network-only' });
  };

  return {
    view: exportView(current),
    deletionCancelledAt: data?.me?.deletionCancelledAt ?? null,
    loadError: error && !data ? describeFailure(error) : null,
    fetching,
    starting,
    failure,
    start,
  };
}

export type DeletionStep = { name: 'form' } | { name: 'scheduled'; deleteAfter: string } | { name: 'mailed' };

/** The delete dialog's data: what would go (read when it opens), and the request with the password. */
export function useAccountDeletion(open: boolean) {
  const [{ data, error, fetching }, refetch] = useQuery({
    query: AccountDeletionPreviewQuery,
    pause: !open,
    requestPolicy: 'network-only',
  });
  const [{ fetching: submitting }, request] = useMutation(AccountDeletionRequestMutation);
  const [step, setStep] = useState<DeletionStep>({ name: 'form' });
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!open) {
      setStep({ name: 'form' });
      setPasswordError(null);
      setFailure(null);
    }
  }, [open]);

  const submit = async (password: string | null) => {
    setPasswordError(null);
    setFailure(null);
    const r = await request({ password });
    if (r.error) {
      const field = fieldErrors(r.error).password;
      if (field) setPasswordError(field);
      else setFailure(describeFailure(r.error));
      // A refusal that arrived meanwhile (someone changed roles): read the preview again.
      if (failureCode(r.error) === 'CONFLICT') refetch({ requestPolicy: 'network-only' });
      return;
    }
    const outcome = r.data?.accountDeletionRequest;
    if (outcome?.status === 'SCHEDULED' && outcome.deleteAfter)
      setStep({ name: 'scheduled', deleteAfter: String(outcome.deleteAfter) });
    else if (outcome?.status === 'CONFIRMATION_SENT') setStep({ name: 'mailed' });
  };

  return {
    preview: data?.accountDeletionPreview ?? null,
    loadError: error && !data ? describeFailure(error) : null,
    loading: fetching && !data,
    submitting,
    step,
    passwordError,
    failure,
    submit,
  };
}
