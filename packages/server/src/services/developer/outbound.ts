/**
 * Outbound webhook requests that cannot reach the product's own network. A URL is checked when an
 * endpoint is saved (clear errors in the admin's words) and again at every delivery, by the same classifier
 * (`isAllowedAddress`): the host is resolved, every address it names is judged, and the connection goes to the
 * addresses judged, never to a second lookup (so a name that later resolves elsewhere, DNS rebinding, changes nothing).
 * WEBHOOK_ALLOW_LOOPBACK lets loopback through (development and tests); nothing else private ever is. Production takes
 * https only. Redirects are not followed (a 3xx is a failed delivery), the whole delivery (lookup included) has
 * WEBHOOK_TIMEOUT_SECONDS, and at most RESPONSE_EXCERPT_BYTES of the answer are read.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.js';

const RESPONSE_EXCERPT_BYTES = 1024;
const PRIVATE_ADDRESS =
  'This URL points to a private or local network address. Webhooks can only be sent to addresses on the public internet.';

export class UnsafeUrlError extends Error {}

/** How a host name becomes addresses: the system resolver, or a stand-in in tests. */
export type ResolveHost = (host: string) => Promise<LookupAddress[]>;
const systemResolve: ResolveHost = (host) => lookup(host, { all: true, verbatim: true });

/** Refuses a webhook URL nobody outside could be meant to receive; answers the normalised URL. */
export async function checkWebhookUrl(
  config: Config,
  raw: string,
  resolve: ResolveHost = systemResolve,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(String(raw ?? '').trim());
  } catch {
    throw new UnsafeUrlError('Enter the full URL of your endpoint, starting with https://.');
  }
  const production = config.NODE_ENV === 'production';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !production))
    throw new UnsafeUrlError('The endpoint URL must start with https://.');
  if (url.username || url.password)
    throw new UnsafeUrlError('Put credentials in your endpoint’s own check of the signature, not in the URL.');
  if (url.href.length > 2000) throw new UnsafeUrlError('The endpoint URL is too long.');
  await allowedAddresses(config, url, resolve);
  return url.href;
}

/** The addresses the URL's host names (the host itself when it is an address), each allowed; UnsafeUrlError if not. */
async function allowedAddresses(config: Config, url: URL, resolve: ResolveHost): Promise<LookupAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : await resolve(host);
  } catch {
    throw new UnsafeUrlError(`The host ${host} could not be found. Check the spelling of the URL.`);
  }
  if (addresses.length === 0)
    throw new UnsafeUrlError(`The host ${host} could not be found. Check the spelling of the URL.`);
  for (const a of addresses) if (!isAllowedAddress(config, a.address)) throw new UnsafeUrlError(PRIVATE_ADDRESS);
  return addresses;
}

/**
 * An address on the public internet (or loopback when WEBHOOK_ALLOW_LOOPBACK). IPv4-mapped forms (::ffff:a.b.c.d,
 * however written) are judged as their IPv4 address. Other IPv6 addresses must be global unicast (2000::/3) and none
 * of the ranges inside it that carry or reach other networks (6to4, Teredo, documentation): that refuses the
 * IPv4-compatible forms (::a.b.c.d, `new URL` writes `[::127.0.0.1]` as `[::7f00:1]`, which ipaddr.js calls unicast),
 * the NAT64 prefixes (64:ff9b::/96, 64:ff9b:1::/48), the IPv4-translated ::ffff:0:a.b.c.d, and all of ::/8.
 */
export function isAllowedAddress(config: Config, address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'loopback') return config.WEBHOOK_ALLOW_LOOPBACK === true;
  if (range !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST);
}
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

export interface OutboundResult {
  statusCode: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

/**
 * POSTs one signed delivery to the addresses `isAllowedAddress` let through (the connection looks nothing up again);
 * never throws (a refusal, timeout or network error is the result's `error`).
 */
export async function postWebhook(
  config: Config,
  target: string,
  headers: Record<string, string>,
  body: string,
  resolve: ResolveHost = systemResolve,
): Promise<OutboundResult> {
  const started = performance.now();
  const done = (r: Omit<OutboundResult, 'durationMs'>): OutboundResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  const failed = (error: string) => done({ statusCode: null, excerpt: null, error });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return failed('The endpoint URL is not valid.');
  }
  const secure = url.protocol === 'https:';
  if (!secure && config.NODE_ENV === 'production') return failed('The endpoint URL must start with https://.');
  if (!secure && url.protocol !== 'http:') return failed('The endpoint URL must start with https://.');
  const signal = AbortSignal.timeout(config.WEBHOOK_TIMEOUT_SECONDS * 1000);
  const timedOut = `No answer within ${config.WEBHOOK_TIMEOUT_SECONDS} s.`;
  let addresses: LookupAddress[];
  try {
    addresses = await Promise.race([
      allowedAddresses(config, url, resolve),
      new Promise<never>((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
  } catch (err) {
    if (!(err instanceof UnsafeUrlError)) return failed(timedOut);
    return failed(
      err.message === PRIVATE_ADDRESS
        ? 'Refused: the URL resolves to a private or local network address.'
        : 'The host could not be found.',
    );
  }
  // The connection takes the addresses judged above: Node asks this instead of the resolver (an address host asks
  // nothing).
  const pinned = ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options.all) cb(null, addresses);
    else cb(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
  return new Promise((resolveResult) => {
    const req = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: pinned,
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Roomwalk-Webhooks/1',
          'content-length': Buffer.byteLength(body).toString(),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(c.subarray(0, RESPONSE_EXCERPT_BYTES - size));
          size += c.length;
          if (size >= RESPONSE_EXCERPT_BYTES) res.destroy();
        });
        const finish = () =>
          resolveResult(
            done({
              statusCode: res.statusCode ?? null,
              excerpt: Buffer.concat(chunks).toString('utf8') || null,
              error: null,
            }),
          );
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    req.on('error', (err: Error & { code?: string }) => {
      const error =
        err.name === 'AbortError' || err.name === 'TimeoutError' || err.code === 'ABORT_ERR'
          ? timedOut
          : err.code === 'ECONNREFUSED'
            ? 'Connection refused.'
            : `Network error (${err.code ?? err.message}).`;
      resolveResult(failed(error));
    });
    req.end(body);
  });
}
