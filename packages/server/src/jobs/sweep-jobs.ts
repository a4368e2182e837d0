/** Scheduled housekeeping without a domain job module of its own (schedules: jobs/workers.ts SCHEDULES). */
import { defineJob } from './queue.js';

/** Forgets uploads that were never submitted (services/uploads.ts sweepAbandonedUploads). */
export const uploadsSweepQueue = defineJob<object>('uploads-sweep');

/** Whole days of visits into daily aggregates (services/reports/room-rollup.ts). */
export const roomAnalyticsRollupQueue = defineJob<object>('room-analytics-rollup');
