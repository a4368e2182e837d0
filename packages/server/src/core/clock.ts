/**
 * The server's one clock for everything that expires: sessions, one-time tokens, links, grants and passes, licences,
 * and the sweeps of what expired are written and checked by it (docs/decisions.md, "Everything that expires reads the
 * server's one clock"; test/code-map.test.ts refuses an expiry on a clock of its own). Production reads the system
 * clock; a development server with the outbox mailer lets an end-to-end test move it forward (`POST /dev/clock`,
 * http/dev-clock.ts), so "the link expired" is seen through the real server without waiting a day; server tests call
 * `setClockOffset` (test/server-clock.test.ts).
 */
import type { Services } from '../services/services.js';

/** Now, by this server's clock. */
export function serverNow(services: Services): Date {
  return new Date(Date.now() + services.clockOffsetMs);
}

/** Moves this server's clock `ms` ahead of the system clock (0: back to it). Development servers only. */
export function setClockOffset(services: Services, ms: number): void {
  if (!services.config.isDev) throw new Error('The clock can only be moved on a development server.');
  services.clockOffsetMs = ms;
}
