/**
 * The Professional Photos screen's data: the tour's shots, the generate / enhance / stage calls, and the refreshes
 * (1 s and 2 s after a call; every 5 s while a shot is processing or the tour's generation is queued or running).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, type CombinedError } from 'urql';
import { SHOT_STATUS, TIMINGS_MS } from '@roomwalk/shared';
import { readFragment } from '../../graphql/graphql.js';
import { describeFailure } from '../../graphql/errors.js';
import { useSnackbar } from '../../ui/snackbar.js';
import {
  GenerateStagedShotMutation,
  GenerateTourShotsMutation,
  RegenerateShotMutation,
  ShotFields,
  TourShotsQuery,
} from './shot-operations.js';
import { anyProcessing } from './shot-rules.js';

export function useShots(tourId: string) {
  const [{ data, error, fetching }, refetch] = useQuery({
    query: TourShotsQuery,
    variables: { tourID: tourId },
    requestPolicy: 'cache-and-network',
  });
  const [, generate] = useMutation(GenerateTourShotsMutation);
  const [, enhance] = useMutation(RegenerateShotMutation);
  const [, stage] = useMutation(GenerateStagedShotMutation);
  const notify = useSnackbar();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const reload = useCallback(() => refetch({ requestPolicy: 'network-only' }), [refetch]);
  // A generation call counts as running from the moment it is made until data fetched after its answer says otherwise.
  const [requested, setRequested] = useState(false);
  const latestData = useRef(data);
  latestData.current = data;
  const dataAtAnswer = useRef<typeof data | null>(null);
  useEffect(() => {
    if (requested && dataAtAnswer.current !== null && data !== dataAtAnswer.current) {
      dataAtAnswer.current = null;
      setRequested(false);
    }
  }, [data, requested]);

  const shots = (data?.tour.shots ?? []).map((s) => readFragment(ShotFields, s));
  const generating = requested || !!data?.tour.shotsGenerating;
  const processing = generating || anyProcessing(shots);
  useEffect(() => {
    if (!processing) return;
    const t = setInterval(reload, TIMINGS_MS.shotsRefreshWhileProcessing);
    return () => clearInterval(t);
  }, [processing, reload]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const call = async (key: string, fn: () => Promise<{ error?: CombinedError }>) => {
    setFailure(null);
    setBusy(key);
    const r = await fn();
    setBusy(null);
    if (r.error) {
      const m = describeFailure(r.error);
      setFailure(m);
      notify('error', m);
    }
    for (const ms of TIMINGS_MS.shotsRefreshAfterCall) timers.current.push(setTimeout(reload, ms));
    return r;
  };

  return {
    data,
    error,
    fetching,
    reload,
    shots,
    generating,
    processingShots: shots.filter((s) => s.shotStatus === SHOT_STATUS.PROCESSING).length,
    failure,
    busy,
    generate: async () => {
      setRequested(true);
      const r = await call('generate', () => generate({ tourId }));
      if (r.error) setRequested(false);
      else dataAtAnswer.current = latestData.current ?? null;
    },
    enhance: (shotId: string) => void call(`e${shotId}`, () => enhance({ shotId })),
    stage: (shotId: string) => void call(`s${shotId}`, () => stage({ shotId })),
  };
}
