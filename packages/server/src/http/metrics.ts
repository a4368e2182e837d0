/**
 * /metrics in Prometheus' text format (core/metrics.ts holds the registry), on API and worker nodes alike. Not public:
 * without METRICS_TOKEN the route does not exist; with it, only `Authorization: Bearer <METRICS_TOKEN>` is answered
 * (docs/operations.md, Metrics). Also records every HTTP answer by route pattern (never the raw URL: no capabilities,
 * bounded label values), times every job handler, and counts the database notice channel's reconnections.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import {
  httpDuration,
  httpRequests,
  jobDuration,
  metricsRegistry,
  noticeReconnects,
  setMetricSources,
} from '../core/metrics.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Services } from '../services/services.js';
import { refuse } from './refuse.js';

const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Registers before the other routes: Fastify gives a hook only to routes registered after it. */
export async function registerMetrics(app: FastifyInstance, services: Services): Promise<void> {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  setMetricSources({
    queueDepth: () => services.queue.depth(),
    liveSockets: () => (app as { websocketServer?: { clients: Set<unknown> } }).websocketServer?.clients.size ?? 0,
    noticesUp: () => services.events.notices.up,
  });
  const unwatch = services.events.notices.onChange((up) => {
    if (up) noticeReconnects.inc();
  });
  app.addHook('onClose', async () => unwatch());
  const token = services.config.METRICS_TOKEN;
  if (!token) return;
  app.get('/metrics', async (req, reply) => {
    const header = req.headers.authorization ?? '';
    if (!sameSecret(header, `Bearer ${token}`))
      return refuse(
        reply.header('www-authenticate', 'Bearer'),
        ERROR_CODES.UNAUTHENTICATED,
        'A metrics token is required.',
      );
    return reply
      .type(metricsRegistry.contentType)
      .header('cache-control', 'no-store')
      .send(await metricsRegistry.metrics());
  });
}

/** Times every handler the queue runs into roomwalk_job_duration_seconds, by queue and outcome. */
export function instrumentQueue(queue: JobQueue): JobQueue {
  const work = queue.work.bind(queue);
  queue.work = (name, handler, options) =>
    work(
      name,
      async (job) => {
        const end = jobDuration.startTimer({ queue: name });
        try {
          await handler(job);
          end({ outcome: 'ok' });
        } catch (err) {
          end({ outcome: 'failed' });
          throw err;
        }
      },
      options,
    );
  return queue;
}
