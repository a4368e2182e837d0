/**
 * Outside production, requests must name this server by a name that cannot be rebound: an IP address, `localhost`
 * (or a `*.localhost` name, which browsers keep on loopback), HOST, or PUBLIC_URL's host. A DNS-rebinding page
 * (attacker.example resolving to 127.0.0.1) sends its own name in Host and is refused, so it cannot read the
 * development outbox (/dev/outbox.json: activation and reset links) or anything else a developer's server answers.
 * Production sits behind its own proxy and domain, and keeps no outbox.
 */
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import { refuse } from './refuse.js';
import type { Services } from '../services/services.js';

const REFUSED_TEXT =
  'This development server answers only to localhost, an IP address, HOST or the host of PUBLIC_URL.';

/** The name part of a Host header (`[::1]:4000` → `::1`), lower-cased. */
function hostname(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') === -1 ? undefined : h.indexOf(']'));
  return h.replace(/:\d*$/, '').replace(/\.$/, '');
}

/** Whether a development server may answer a request carrying this Host header. */
function isDevelopmentHostAllowed(host: string | undefined, own: readonly string[]): boolean {
  if (!host) return false;
  const name = hostname(host);
  return isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || own.includes(name);
}

export async function registerDevHostCheck(app: FastifyInstance, services: Services): Promise<void> {
  const { config } = services;
  if (!config.isDev) return;
  const own = [hostname(config.HOST), hostname(new URL(config.publicUrl).host)];
  app.addHook('onRequest', async (req, reply) => {
    if (isDevelopmentHostAllowed(req.headers.host, own)) return;
    return refuse(reply, ERROR_CODES.FORBIDDEN, REFUSED_TEXT);
  });
}
