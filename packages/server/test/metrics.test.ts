/**
 * Operator metrics: /metrics in Prometheus' format, only for the METRICS_TOKEN bearer; requests by route
 * pattern (never a raw URL), GraphQL errors by code, queue depth and job durations by queue, live sockets, webhook
 * deliveries and processing speed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const TOKEN = 'metrics-token-0123456789';

describe('/metrics', () => {
  let t: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    // One registry per process, read from the app started last (as in production: one app per process).
    plain = await startTestApp('pglite', { ROLE: 'api' });
    t = await startTestApp('pglite', { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await t?.stop();
    await plain?.stop();
  });

  const scrape = async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('is not there without METRICS_TOKEN, and answers only the bearer of the token', async () => {
    const none = await fetch(`${plain.url}/metrics`);
    expect(none.status).toBe(404);
    expect(await none.text()).not.toContain('roomwalk_');
    expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
    ).toBe(401);
  });

  it('counts requests by route pattern and GraphQL errors by code, with no capability in a label', async () => {
    await t.gql('{ me { user { id } } }');
    await fetch(`${t.url}/upload/uploads/x.mp4?contentType=video%2Fmp4&max=10&expires=1&sig=capability-secret`, {
      method: 'PUT',
      body: 'x',
    });
    const text = await scrape();
    expect(text).toMatch(/roomwalk_http_requests_total\{method="POST",route="\/query",status="200"\} \d+/);
    expect(text).toMatch(
      /roomwalk_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/query"\} \d+/,
    );
    expect(text).toMatch(/roomwalk_graphql_errors_total\{code="UNAUTHENTICATED"\} [1-9]/);
    expect(text).toMatch(/route="\/upload\/\*"/);
    expect(text).not.toContain('capability-secret');
  });

  it('shows queue depth and job durations by queue, live sockets, webhook deliveries and processing speed', async () => {
    const { queue } = t.app.services;
    await queue.send('metrics-probe-waiting', { n: 1 });
    await queue.work<{ n: number }>('metrics-probe-work', async () => undefined);
    await queue.send('metrics-probe-work', { n: 2 });
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/query`, 'graphql-transport-ws');
    await new Promise((resolve) => ws.once('open', resolve));
    try {
      const text = await vi.waitFor(
        async () => {
          const s = await scrape();
          expect(s).toMatch(/roomwalk_job_duration_seconds_count\{queue="metrics-probe-work",outcome="ok"\} 1/);
          return s;
        },
        { timeout: 20_000, interval: 200 },
      );
      expect(text).toMatch(/roomwalk_queue_jobs\{queue="metrics-probe-waiting",state="created"\} 1/);
      expect(text).toMatch(/roomwalk_live_sockets [1-9]/);
      expect(text).toContain('# TYPE roomwalk_webhook_deliveries_total counter');
      expect(text).toContain('# TYPE roomwalk_processing_seconds_per_video_second histogram');
    } finally {
      ws.close();
    }
  });
});
