/**
 * Outbound webhook requests that cannot reach the product's own network (issue 20). A URL is checked when an endpoint
 * is saved (clear errors in the admin's words) and again at every connection: request-filtering-agent refuses, after
 * DNS resolution and so also for a name that later resolves elsewhere (DNS rebinding), loopback, private, link-local,
 * reserved and metadata addresses. WEBHOOK_ALLOW_LOOPBACK lets 127.0.0.1/::1 through (development and tests); nothing
 * else private ever is. Production takes https only. Redirects are not followed (a 3xx is a failed delivery), the
 * whole request has WEBHOOK_TIMEOUT_SECONDS, and at most RESPONSE_EXCERPT_BYTES of the answer are read.
 */
import http from 'node:http';
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { Config } from '../../config.js';

const RESPONSE_EXCERPT_BYTES = 1024;
const LOOPBACK = ['127.0.0.1', '::1'];

export class UnsafeUrlError extends Error {}

/** Refuses a webhook URL nobody outside could be meant to receive; answers the normalised URL. */
export async function checkWebhookUrl(config: Config, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(String(raw ?? '').trim());
  } catch {
    throw new UnsafeUrlError('Enter the full URL of your endpoint, starting with https://.');
  }
  const production = config.NODE_ENV === 'production';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !production)) throw new UnsafeUrlError('The endpoint URL must start with https://.');
  if (url.username || url.password) throw new UnsafeUrlError('Put credentials in your endpoint’s own check of the signature, not in the URL.');
  if (url.href.length > 2000) throw new UnsafeUrlError('The endpoint URL is too long.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new UnsafeUrlError(`The host ${host} could not be found. Check the spelling of the URL.`);
  }
  for (const a of addresses) {
    if (!isAllowedAddress(config, a)) throw new UnsafeUrlError('This URL points to a private or local network address. Webhooks can only be sent to addresses on the public internet.');
  }
  return url.href;
}

/**
 * IPv4-mapped forms (::ffff:a.b.c.d) are judged as their IPv4 address (`ipaddr.process`). IPv4-compatible ones
 * (::a.b.c.d, deprecated since RFC 4291; `new URL` writes `[::127.0.0.1]` as `[::7f00:1]`) count as "unicast" to
 * ipaddr.js whatever they embed, loopback included: no public endpoint uses them, so they are refused outright.
 */
function isAllowedAddress(config: Config, address: string): boolean {
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return range === 'loopback' && config.WEBHOOK_ALLOW_LOOPBACK === true;
  if (range === 'unicast') return true;
  return range === 'loopback' && config.WEBHOOK_ALLOW_LOOPBACK === true;
}

export interface OutboundResult {
  statusCode: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

/** POSTs one signed delivery; never throws (a refusal, timeout or network error is the result's `error`). */
export function postWebhook(config: Config, target: string, headers: Record<string, string>, body: string): Promise<OutboundResult> {
  const started = performance.now();
  const done = (r: Omit<OutboundResult, 'durationMs'>): OutboundResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return resolve(done({ statusCode: null, excerpt: null, error: 'The endpoint URL is not valid.' }));
    }
    const filtering = { allowIPAddressList: config.WEBHOOK_ALLOW_LOOPBACK === true ? LOOPBACK : [], allowPrivateIPAddress: false, allowMetaIPAddress: false, keepAlive: false };
    const secure = url.protocol === 'https:';
    if (!secure && config.NODE_ENV === 'production') return resolve(done({ statusCode: null, excerpt: null, error: 'The endpoint URL must start with https://.' }));
    const agent = secure ? new RequestFilteringHttpsAgent(filtering) : new RequestFilteringHttpAgent(filtering);
    const signal = AbortSignal.timeout(config.WEBHOOK_TIMEOUT_SECONDS * 1000);
    const req = (secure ? https : http).request(
      url,
      { method: 'POST', agent, signal, headers: { 'content-type': 'application/json', 'user-agent': 'Roomwalk-Webhooks/1', 'content-length': Buffer.byteLength(body).toString(), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(c.subarray(0, RESPONSE_EXCERPT_BYTES - size));
          size += c.length;
          if (size >= RESPONSE_EXCERPT_BYTES) res.destroy();
        });
        const finish = () => resolve(done({ statusCode: res.statusCode ?? null, excerpt: Buffer.concat(chunks).toString('utf8') || null, error: null }));
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    req.on('error', (err: Error & { code?: string }) => {
      const error =
        err.name === 'AbortError' || err.name === 'TimeoutError' || err.code === 'ABORT_ERR'
          ? `No answer within ${config.WEBHOOK_TIMEOUT_SECONDS} s.`
          : /is not allowed/.test(err.message)
            ? 'Refused: the URL resolves to a private or local network address.'
            : err.code === 'ECONNREFUSED'
              ? 'Connection refused.'
              : err.code === 'ENOTFOUND'
                ? 'The host could not be found.'
                : `Network error (${err.code ?? err.message}).`;
      resolve(done({ statusCode: null, excerpt: null, error }));
      agent.destroy();
    });
    req.on('close', () => agent.destroy());
    req.end(body);
  });
}
