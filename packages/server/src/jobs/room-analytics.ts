/** The hourly room analytics rollup (issue 21): whole days of visits into daily aggregates (services/reports/room-rollup.ts). */
import type { Services } from '../services/services.js';
import { rollupRoomAnalytics } from '../services/reports/room-rollup.js';

const ROOM_ANALYTICS_QUEUE = 'room-analytics-rollup';

export async function registerRoomAnalyticsWorker(services: Services): Promise<void> {
  await services.queue.work<object>(ROOM_ANALYTICS_QUEUE, async () => {
    const done = await rollupRoomAnalytics(services.db);
    if (done) services.log.info(done, 'room analytics rolled up');
  });
  await services.queue.boss.schedule(ROOM_ANALYTICS_QUEUE, services.config.ROOM_ANALYTICS_ROLLUP_CRON, {});
}
