/** `npm start` prints no framework deprecation warning: a new user's first screen has nothing to puzzle over. */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('starting the app', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.stop();
  });

  it('emits no deprecation warning from Fastify or its plugins', async () => {
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    let calls: unknown[][];
    try {
      t = await startTestApp('pglite');
      await t.gql('{ __typename }');
    } finally {
      calls = [...emitWarning.mock.calls];
      emitWarning.mockRestore();
    }
    const deprecations = calls
      .map(([warning, type]) => ({
        text: String(warning instanceof Error ? warning.message : warning),
        name:
          warning instanceof Error ? warning.name : typeof type === 'string' ? type : (type as { type?: string })?.type,
      }))
      .filter((w) => /Deprecation/i.test(w.name ?? ''));
    expect(deprecations).toEqual([]);
  }, 180_000);
});
