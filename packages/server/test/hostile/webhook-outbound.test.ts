/**
 * Webhook deliveries refuse the product's own network at connection time with the same classifier as at saving
 *: IPv4-compatible (::7f00:1), IPv4-mapped (::ffff:7f00:1), IPv4-translated and NAT64 (64:ff9b::/96) forms
 * of loopback and private addresses, written in the URL or answered by the name's lookup when the delivery is sent,
 * never reach a socket; the connection goes to the addresses judged, not to a second lookup (DNS rebinding).
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  checkWebhookUrl,
  isAllowedAddress,
  postWebhook,
  type ResolveHost,
} from '../../src/services/developer/outbound.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const production = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
const development = (allowLoopback: boolean) =>
  loadConfig({ NODE_ENV: 'development' }, { WEBHOOK_ALLOW_LOOPBACK: allowLoopback, WEBHOOK_TIMEOUT_SECONDS: 5 });

/** A resolver that answers `answers` in turn (the last one again after that) and counts the lookups. */
function hostileResolver(...answers: string[][]): ResolveHost & { calls: number } {
  const resolve = async (_host: string): Promise<LookupAddress[]> => {
    const addresses = answers[Math.min(resolve.calls, answers.length - 1)]!;
    resolve.calls += 1;
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  resolve.calls = 0;
  return resolve;
}

/** Loopback, private, link-local and metadata addresses in the IPv6 forms that embed an IPv4 address. */
const HOSTILE_IPV6 = [
  '::7f00:1', // IPv4-compatible 127.0.0.1, as `new URL` writes [::127.0.0.1]
  '::a00:1', // IPv4-compatible 10.0.0.1
  '::ffff:7f00:1', // IPv4-mapped 127.0.0.1
  '::ffff:a9fe:a9fe', // IPv4-mapped 169.254.169.254 (cloud metadata)
  '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1
  '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
  '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
  '64:ff9b:1::a00:1', // local-use NAT64 of 10.0.0.1
  '2002:7f00:1::1', // 6to4 of 127.0.0.1
  '::1:0:0:1', // ::/8, reserved
];

describe('webhook deliveries: one address classifier at saving and at connection', () => {
  let r: Receiver;
  let port: number;
  beforeAll(async () => {
    r = await startReceiver();
    port = Number(new URL(r.url).port);
  });
  afterAll(() => r?.close());

  it('refuses every embedded-IPv4 form of a loopback or private address, in production and in development', () => {
    for (const address of HOSTILE_IPV6) {
      expect(isAllowedAddress(production, address), address).toBe(false);
      expect(isAllowedAddress(development(false), address), address).toBe(false);
    }
    expect(isAllowedAddress(production, '2606:4700:4700::1111')).toBe(true);
    expect(isAllowedAddress(production, '93.184.216.34')).toBe(true);
    expect(isAllowedAddress(production, '::ffff:5db8:d822')).toBe(true); // mapped 93.184.216.34: judged as that address
  });

  it('refuses such a literal in the URL when the delivery is sent, though the endpoint was saved before the rule', async () => {
    for (const host of [
      '[::7f00:1]',
      '[::127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[::ffff:0:7f00:1]',
    ]) {
      const result = await postWebhook(development(false), `http://${host}:${port}/hooks`, {}, '{}');
      expect(result, host).toMatchObject({
        statusCode: null,
        error: 'Refused: the URL resolves to a private or local network address.',
      });
      await expect(checkWebhookUrl(production, `https://${host}/hook`), host).rejects.toThrow(
        /private or local network/,
      );
    }
    expect(r.received).toHaveLength(0);
  });

  it('refuses a name that resolves to such an address at delivery time, whichever of its addresses it is', async () => {
    for (const address of [...HOSTILE_IPV6, '127.0.0.1', '10.1.2.3']) {
      const resolve = hostileResolver(['93.184.216.34', address]);
      const result = await postWebhook(development(false), `http://hooks.example.com:${port}/hooks`, {}, '{}', resolve);
      expect(result.error, address).toBe('Refused: the URL resolves to a private or local network address.');
    }
    expect(r.received).toHaveLength(0);
  });

  it('connects to the addresses it judged: a name that answers differently on a second lookup is never looked up again', async () => {
    // Allowed (loopback in development) when judged, then a private address: the delivery reaches the judged one.
    const rebinding = hostileResolver(['127.0.0.1'], ['10.0.0.1']);
    const result = await postWebhook(
      development(true),
      `http://rebind.example.com:${port}/hooks`,
      { 'webhook-id': 'msg_1' },
      '{"type":"webhook.test"}',
      rebinding,
    );
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(rebinding.calls).toBe(1);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.headers['webhook-id']).toBe('msg_1');
    // And one judged private first is refused even if a later lookup would have answered a public address.
    const reverse = hostileResolver(['::ffff:10.0.0.1'], ['93.184.216.34']);
    expect(
      (await postWebhook(development(true), `http://rebind.example.com:${port}/hooks`, {}, '{}', reverse)).error,
    ).toMatch(/^Refused/);
    expect(r.received).toHaveLength(1);
  });

  it('says the host could not be found when the name resolves to nothing', async () => {
    const nothing: ResolveHost = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect((await postWebhook(development(false), 'https://no-such-host.example/hook', {}, '{}', nothing)).error).toBe(
      'The host could not be found.',
    );
    await expect(checkWebhookUrl(development(false), 'https://no-such-host.example/hook', nothing)).rejects.toThrow(
      /could not be found/,
    );
  });
});
