/**
 * Instant Reels' data: the tour's reels (read fresh each time the dialog opens), "Generate Reel" within the limit of
 * REELS_MAX reels that have not failed, and one reel's progress from reelProgressUpdated, with one reload
 * TIMINGS_MS.reelCompletionDelay after it completes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { NOTICES, REEL_STATUS, REELS_MAX, TIMINGS_MS, VALIDATION } from '@roomwalk/shared';
import { readFragment, type ResultOf } from '../../graphql/graphql.js';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { ReelFields, ReelProgressSubscription, TourGenerateReelMutation, TourReelsQuery } from './tour-operations.js';

export type Reel = ResultOf<typeof ReelFields>;

/** Reels that count towards the limit: every one that has not failed. */
export const activeReelCount = (reels: readonly { status: { status: string } }[]): number =>
  reels.filter((r) => r.status.status !== REEL_STATUS.FAILED).length;

export function useReels(tourId: string, open: boolean) {
  const [{ data, error, fetching }, refetch] = useQuery({
    query: TourReelsQuery,
    variables: { tourID: tourId },
    pause: !open,
    requestPolicy: 'network-only',
  });
  const [{ fetching: generating }, generate] = useMutation(TourGenerateReelMutation);
  const notify = useSnackbar();
  const [failure, setFailure] = useState<string | null>(null);
  const reels = (data?.tour.reels ?? []).map((r) => readFragment(ReelFields, r));
  const reload = useCallback(() => refetch({ requestPolicy: 'network-only' }), [refetch]);

  const onGenerate = async () => {
    setFailure(null);
    if (activeReelCount(reels) >= REELS_MAX) {
      notify('warning', VALIDATION.reelsMax);
      return;
    }
    const r = await generate({ tourId });
    if (r.error) {
      if (isNotAvailableYet(r.error)) setFailure(describeFailure(r.error));
      else
        notify(
          'error',
          r.error.graphQLErrors[0]?.extensions?.code === 'REELS_LIMIT'
            ? VALIDATION.reelsMax
            : NOTICES.couldNotGenerateReel,
        );
      return;
    }
    reload();
  };

  return {
    reels,
    /** The list could not be read (nothing read before). */
    loadError: error && !data ? describeFailure(error) : null,
    loading: !data && fetching,
    generating,
    failure,
    generate: onGenerate,
    reload,
  };
}

/** A processing reel's progress; `onReload` once, a moment after it reaches 100 % or stops processing. */
export function useReelProgress(reel: Reel, onReload: () => void): number {
  const status = reel.status.status;
  const [progress, setProgress] = useState(reel.progress);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  // One reload per completion: the event stays in `data` after the reload, and re-renders must not schedule another.
  const reloadScheduled = useRef(false);
  const reloadRef = useRef(onReload);
  reloadRef.current = onReload;
  const [{ data }] = useSubscription({
    query: ReelProgressSubscription,
    variables: { reelId: reel.id },
    pause: status !== REEL_STATUS.PROCESSING,
  });

  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  useEffect(() => {
    const ev = data?.reelProgressUpdated;
    if (!ev) return;
    setProgress(ev.progress);
    if ((ev.progress >= 100 || ev.status !== REEL_STATUS.PROCESSING) && !reloadScheduled.current) {
      reloadScheduled.current = true;
      timers.current.push(setTimeout(() => reloadRef.current(), TIMINGS_MS.reelCompletionDelay));
    }
  }, [data]);
  return progress;
}
