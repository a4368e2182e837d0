/**
 * The user's tours, page by page: the first page comes with the home query; 'Load more tours...' asks for
 * the next 10 after the last cursor. While any tour is unprocessed every loaded page is refreshed every 10 s.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useClient, useQuery } from 'urql';
import { TIMINGS_MS, TOURS_PAGE_SIZE } from '@roomwalk/shared';
import { ToursHomeQuery, ToursPageQuery } from './tour-operations.js';
import { readTour, type TourCardData } from './tour-card.js';
import { tourPhase } from './tour-status.js';

interface Page {
  after: string | null;
  tours: TourCardData[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export function useTourPages() {
  const client = useClient();
  const [home, reexecute] = useQuery({
    query: ToursHomeQuery,
    variables: { first: TOURS_PAGE_SIZE },
    requestPolicy: 'cache-and-network',
  });
  const [more, setMore] = useState<Page[]>([]);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<Error | null>(null);
  const moreRef = useRef(more);
  moreRef.current = more;

  const first: Page | null = useMemo(() => {
    const t = home.data?.tours;
    if (!t) return null;
    return {
      after: null,
      tours: t.edges.map((e) => readTour(e.node)),
      endCursor: t.pageInfo.endCursor ?? null,
      hasNextPage: t.pageInfo.hasNextPage,
    };
  }, [home.data]);

  const fetchPage = useCallback(
    async (after: string | null): Promise<Page> => {
      const r = await client
        .query(ToursPageQuery, { first: TOURS_PAGE_SIZE, after }, { requestPolicy: 'network-only' })
        .toPromise();
      if (r.error || !r.data) throw r.error ?? new Error('No data');
      const t = r.data.tours;
      return {
        after,
        tours: t.edges.map((e) => readTour(e.node)),
        endCursor: t.pageInfo.endCursor ?? null,
        hasNextPage: t.pageInfo.hasNextPage,
      };
    },
    [client],
  );

  const last = more.length ? more[more.length - 1]! : first;
  const loadMore = useCallback(async () => {
    if (!last?.hasNextPage || loadingMore) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      const page = await fetchPage(last.endCursor);
      setMore((m) => [...m, page]);
    } catch (e) {
      setMoreError(e as Error);
    } finally {
      setLoadingMore(false);
    }
  }, [last, loadingMore, fetchPage]);

  const refresh = useCallback(async () => {
    reexecute({ requestPolicy: 'network-only' });
    const pages = moreRef.current;
    if (!pages.length) return;
    const next = await Promise.all(pages.map((p) => fetchPage(p.after).catch(() => p)));
    setMore(next);
  }, [reexecute, fetchPage]);

  // Tours deleted or added shift the pages; dedupe by id so a card never shows twice.
  const tours = useMemo(() => {
    const seen = new Set<string>();
    const all: TourCardData[] = [];
    for (const p of [first, ...more]) for (const t of p?.tours ?? []) if (!seen.has(t.id)) seen.add(t.id), all.push(t);
    return all;
  }, [first, more]);

  const anyUnprocessed = tours.some((t) => tourPhase(t.status.status) === 'processing');
  useEffect(() => {
    if (!anyUnprocessed) return;
    const timer = setInterval(() => void refresh(), TIMINGS_MS.homeRefreshWhileProcessing);
    return () => clearInterval(timer);
  }, [anyUnprocessed, refresh]);

  return { home, tours, hasNextPage: !!last?.hasNextPage, loadMore, loadingMore, moreError, refresh };
}
