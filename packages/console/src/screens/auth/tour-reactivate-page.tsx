/** /tour/reactivate?tourId=: reactivates a tour on load (accounts §2). */
import { useSearchParams } from 'react-router-dom';
import { useMutation } from 'urql';
import { ERROR_TEXTS, TIMINGS_MS } from '@roomwalk/shared';
import { TourReactivateMutation } from './auth-operations.js';
import { RunOnceStatus } from './run-once-status.js';

export default function TourReactivatePage() {
  const [search] = useSearchParams();
  const [, reactivate] = useMutation(TourReactivateMutation);
  const tourId = search.get('tourId') ?? '';
  return (
    <RunOnceStatus
      title="Tour re-activation"
      waiting="Please wait while we re-activate your tour."
      success={{ title: ERROR_TEXTS.reactivationSuccess }}
      failure={{ title: ERROR_TEXTS.reactivationFailedTitle, text: ERROR_TEXTS.reactivationFailed }}
      redirectMs={TIMINGS_MS.reactivationRedirect}
      run={async () => {
        if (!tourId) return false;
        const r = await reactivate({ id: tourId });
        if (r.error) console.error('Re-activation failed', r.error);
        return !r.error && !!r.data?.tourReactivate.id;
      }}
    />
  );
}
