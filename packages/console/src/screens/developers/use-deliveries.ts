/**
 * One endpoint's deliveries, newest first: the newest pages read again on refresh (so "Load more" stays loaded), and
 * again every POLL_MS while a delivery is in flight after a send or a replay (shouldPoll), one timer at a time.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient, useMutation } from 'urql';
import { describeFailure } from '../../graphql/errors.js';
import type { ResultOf } from '../../graphql/graphql.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { WebhookDeliveriesQuery, WebhookDeliveryReplayMutation } from './developers-operations.js';
import { DEVELOPER_TEXTS, POLL_MS, shouldPoll } from './developer-rules.js';

export type Delivery = ResultOf<typeof WebhookDeliveriesQuery>['webhookDeliveries']['edges'][number]['node'];
const DELIVERIES_PAGE = 10;

export function useDeliveries(endpointId: string) {
  const client = useClient();
  const notify = useSnackbar();
  const [, replay] = useMutation(WebhookDeliveryReplayMutation);
  const [rows, setRows] = useState<Delivery[]>([]);
  const [cursor, setCursor] = useState<{ hasNextPage: boolean; endCursor?: string | null }>({ hasNextPage: false });
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [replaying, setReplaying] = useState<string | null>(null);
  const lastAction = useRef(Date.now());
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pages = useRef(1);
  const alive = useRef(true);

  /** The newest `pages` pages again (so "Load more" stays loaded across refreshes). */
  const load = useCallback(async () => {
    clearTimeout(timer.current);
    const r = await client
      .query(
        WebhookDeliveriesQuery,
        { endpointId, first: DELIVERIES_PAGE * pages.current },
        { requestPolicy: 'network-only' },
      )
      .toPromise();
    if (!alive.current) return;
    setLoading(false);
    if (r.error || !r.data) {
      setFailure(describeFailure(r.error));
      return;
    }
    setFailure(null);
    const next = r.data.webhookDeliveries.edges.map((e) => e.node);
    setRows(next);
    setCursor(r.data.webhookDeliveries.pageInfo);
    if (shouldPoll(next, Date.now(), lastAction.current)) timer.current = setTimeout(() => void load(), POLL_MS);
  }, [client, endpointId]);

  const refresh = useCallback(() => {
    lastAction.current = Date.now();
    void load();
  }, [load]);

  useEffect(() => {
    alive.current = true;
    void load();
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, [load]);

  const loadMore = async () => {
    if (!cursor.endCursor) return;
    const r = await client
      .query(
        WebhookDeliveriesQuery,
        { endpointId, first: DELIVERIES_PAGE, after: cursor.endCursor },
        { requestPolicy: 'network-only' },
      )
      .toPromise();
    if (r.error || !r.data) return setFailure(describeFailure(r.error));
    pages.current += 1;
    setRows((old) => [
      ...old,
      ...r.data!.webhookDeliveries.edges.map((e) => e.node).filter((n) => !old.some((o) => o.id === n.id)),
    ]);
    setCursor(r.data.webhookDeliveries.pageInfo);
  };

  const onReplay = async (d: Delivery) => {
    setReplaying(d.id);
    const r = await replay({ id: d.id });
    setReplaying(null);
    if (r.error) return notify('error', describeFailure(r.error));
    notify('success', DEVELOPER_TEXTS.replaySent);
    refresh();
  };

  return { rows, loading, failure, replaying, hasMore: cursor.hasNextPage, refresh, loadMore, replay: onReplay };
}
