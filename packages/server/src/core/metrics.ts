/**
 * What an operator sees of the product, in Prometheus' format (prom-client): one registry per process, and the
 * metrics every floor records into. HTTP requests and GraphQL errors are recorded by the API (http/metrics.ts,
 * graphql/errors.ts); job durations by the queue's handlers (instrumentQueue below); processing speed when a tour is
 * processed; webhook deliveries by their outcome; queue depth and live sockets are read when scraped. Served on
 * /metrics only with METRICS_TOKEN (docs/operations.md, Metrics).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequests = new Counter({
  name: 'roomwalk_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'roomwalk_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route pattern.',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const graphqlErrors = new Counter({
  name: 'roomwalk_graphql_errors_total',
  help: 'Errors answered to GraphQL operations (HTTP and WebSocket), by code.',
  labelNames: ['code'] as const,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'roomwalk_job_duration_seconds',
  help: 'Time a job handler ran, by queue and outcome (ok or failed).',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.01, 0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800],
  registers: [metricsRegistry],
});

export const processingSecondsPerVideoSecond = new Histogram({
  name: 'roomwalk_processing_seconds_per_video_second',
  help: 'Seconds from a tour being queued for processing to PROCESSED, per second of its video.',
  buckets: [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30],
  registers: [metricsRegistry],
});

export const webhookDeliveries = new Counter({
  name: 'roomwalk_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome (succeeded or failed).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/** Read when scraped: the sources are set by the app that owns them (the latest app of this process). */
const sources: {
  queueDepth?: () => Promise<Array<{ queue: string; state: string; count: number }>>;
  liveSockets?: () => number;
  noticesUp?: () => boolean;
} = {};
export function setMetricSources(next: typeof sources): void {
  Object.assign(sources, next);
}

new Gauge({
  name: 'roomwalk_queue_jobs',
  help: 'Jobs waiting (created, retry) or running (active), by queue and state.',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const row of (await sources.queueDepth?.().catch(() => [])) ?? [])
      this.set({ queue: row.queue, state: row.state }, row.count);
  },
});

new Gauge({
  name: 'roomwalk_live_sockets',
  help: 'Open WebSockets on this node (GraphQL subscriptions and live viewing).',
  registers: [metricsRegistry],
  collect() {
    this.set(sources.liveSockets?.() ?? 0);
  },
});

new Gauge({
  name: 'roomwalk_notice_listener_up',
  help: "1 while this node hears the database's notices (its LISTEN connection is up), 0 while it reconnects.",
  registers: [metricsRegistry],
  collect() {
    this.set(sources.noticesUp?.() === false ? 0 : 1);
  },
});

export const noticeReconnects = new Counter({
  name: 'roomwalk_notice_listener_reconnects_total',
  help: "Times this node's LISTEN connection was lost and listened again.",
  registers: [metricsRegistry],
});
