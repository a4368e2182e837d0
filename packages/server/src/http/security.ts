/**
 * Security headers (@fastify/helmet). The console gets a strict Content-Security-Policy and may not be framed
 * (`frame-ancestors 'none'`); the player pages and bundle (/playerext, /agentplayer, /embedded_example*, /player/*)
 * are embeddable by any listing site, as designed (`frame-ancestors *`, no X-Frame-Options). HSTS only on requests
 * that arrived over TLS (X-Forwarded-Proto https behind the trusted proxy), so a plain-HTTP development or loopback
 * deployment never pins itself to HTTPS. Media origins (a CDN or the bucket) are allowed for images, video and fetch.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/services.js';
import { agoraConfigured } from '../services/live/agora.js';
import { registerCors } from './cors.js';

/** Paths a listing site may put in an iframe (the console's player routes and the player bundle). */
const EMBEDDABLE = [/^\/playerext(?:[/?#]|$)/, /^\/agentplayer(?:[/?#]|$)/, /^\/embedded_example/, /^\/player\//];

export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

export function isEmbeddable(url: string): boolean {
  return EMBEDDABLE.some((re) => re.test(url));
}

/** Origins other than our own that serve clips and images: the CDN, or the bucket's public URL. */
export function mediaOrigins(services: Services): string[] {
  const origins = new Set<string>();
  const add = (u: string | undefined) => {
    if (!u) return;
    try {
      origins.add(new URL(u).origin);
    } catch {
      // not a URL: nothing to allow
    }
  };
  add(services.config.CDN_BASE_URL);
  if (services.storage.kind === 's3') add(services.storage.publicUrl('probe'));
  return [...origins];
}

/**
 * Where the Agora Web SDK connects when the server issues Agora tokens (docs/live-viewing.md): its access points and
 * statistics over HTTPS, its edge gateways over WebSocket on their own ports (`wss://1-2-3-4.edge.agora.io:4705`),
 * under agora.io and sd-rtn.com. The SDK itself comes from our /player/ folder (script-src 'self'); media flows over
 * WebRTC, which the policy does not govern.
 */
export const AGORA_CONNECT_SOURCES = [
  'https://*.agora.io:*',
  'wss://*.agora.io:*',
  'https://*.sd-rtn.com:*',
  'wss://*.sd-rtn.com:*',
];

/** The policy's directives; `frameAncestors` varies by path. */
export function cspDirectives(services: Services, opts: { frameAncestors: string }): Record<string, string[]> {
  const media = mediaOrigins(services);
  const publicUrl = new URL(services.config.publicUrl);
  const socket = `${publicUrl.protocol === 'https:' ? 'wss:' : 'ws:'}//${publicUrl.host}`;
  const turnstile = services.config.TURNSTILE_SITE_KEY ? ['https://challenges.cloudflare.com'] : [];
  const agora = agoraConfigured(services.config) ? AGORA_CONNECT_SOURCES : [];
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': [opts.frameAncestors],
    'form-action': ["'self'"],
    'script-src': ["'self'", ...turnstile],
    // Inline styles: the player (lit templates) and Shoelace set style attributes, the checkout pages carry a <style>.
    // Scripts stay strict; that is where the protection lies.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...media],
    'media-src': ["'self'", 'data:', 'blob:', ...media],
    'font-src': ["'self'", 'data:'],
    // data: — Shoelace fetches its inline SVG icons.
    'connect-src': ["'self'", socket, 'data:', ...media, ...agora],
    'worker-src': ["'self'", 'blob:'],
    'frame-src': ["'self'", ...turnstile],
  };
}

const serialize = (d: Record<string, string[]>) =>
  Object.entries(d)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');

export async function registerSecurity(app: FastifyInstance, services: Services): Promise<void> {
  const consolePolicy = serialize(cspDirectives(services, { frameAncestors: "'none'" }));
  const embeddablePolicy = serialize(cspDirectives(services, { frameAncestors: '*' }));

  await app.register(helmet, {
    // Set below per path; helmet's own would be one policy for everything.
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    // Media and the player bundle set Cross-Origin-Resource-Policy: cross-origin themselves.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // The OpenID Connect sign-in and the payment pages are redirects, never popups we talk to.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url;
    const res = reply.raw;
    if (isEmbeddable(url)) {
      res.removeHeader('X-Frame-Options');
      res.setHeader('Content-Security-Policy', embeddablePolicy);
      // A listing site's page opens the player; the player must not sever that link.
      res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
    } else {
      res.setHeader('Content-Security-Policy', consolePolicy);
    }
    if (req.protocol === 'https') res.setHeader('Strict-Transport-Security', HSTS_VALUE);
  });

  // The public player operations answer any origin, without credentials; the rest stays same-origin (cors.ts).
  await registerCors(app);
}
