/** /tour/reactivate?tourId=: reactivates a tour on load. */
import { useSearchParams } from 'react-router-dom';
import { ERROR_TEXTS, TIMINGS_MS } from '@roomwalk/shared';
import { RunOnceStatus } from './run-once-status.js';
import { useTourReactivate } from './use-tour-reactivate.js';

export default function TourReactivatePage() {
  const [search] = useSearchParams();
  const reactivate = useTourReactivate(search.get('tourId') ?? '');
  return (
    <RunOnceStatus
      title="Tour re-activation"
      waiting="Please wait while we re-activate your tour."
      success={{ title: ERROR_TEXTS.reactivationSuccess }}
      failure={{ title: ERROR_TEXTS.reactivationFailedTitle, text: ERROR_TEXTS.reactivationFailed }}
      redirectMs={TIMINGS_MS.reactivationRedirect}
      run={reactivate}
    />
  );
}
