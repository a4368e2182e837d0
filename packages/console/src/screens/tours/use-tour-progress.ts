/** Live processing percentage of one tour from tourProgressUpdated. */
import { useEffect, useRef, useState } from 'react';
import { useSubscription } from 'urql';
import { TourProgressSubscription } from './tour-operations.js';
import { tourPhase } from './tour-status.js';

export interface LiveProgress {
  progress: number;
  status: string | null;
}

/** Subscribes while `active`; calls onSettled once when the tour reaches PROCESSED or FAILED. */
export function useTourProgress(
  tourId: string,
  initial: number,
  active: boolean,
  onSettled?: () => void,
): LiveProgress {
  const [live, setLive] = useState<LiveProgress>({ progress: initial, status: null });
  const settled = useRef(false);
  const [{ data }] = useSubscription({ query: TourProgressSubscription, variables: { tourId }, pause: !active });

  useEffect(() => {
    setLive((l) => (initial > l.progress ? { ...l, progress: initial } : l));
  }, [initial]);

  useEffect(() => {
    const ev = data?.tourProgressUpdated;
    if (!ev) return;
    setLive({ progress: ev.progress, status: ev.status });
    if (tourPhase(ev.status) !== 'processing' && !settled.current) {
      settled.current = true;
      onSettled?.();
    }
  }, [data, onSettled]);
  return live;
}
