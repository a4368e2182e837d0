/** A port already taken stops `npm start` with a sentence naming the port and the setting, not a stack trace. */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';

describe('starting on a port another program holds', () => {
  const holder = net.createServer();
  let app: App | undefined;
  afterAll(async () => {
    await app?.stop();
    await new Promise((resolve) => holder.close(resolve));
  });

  it('refuses with the port, what to do and where the setting is', async () => {
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    const config = loadConfig(
      { NODE_ENV: 'test' },
      {
        PORT: port,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        JWT_SECRET: randomBytes(24).toString('hex'),
        ROLE: 'api',
      },
    );
    config.DATA_DIR = 'memory://';
    app = await buildApp({ config });
    const failure = await app.start().then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect(failure?.message).toBe(
      `Roomwalk cannot listen on port ${port} on 127.0.0.1: another program is using it. Stop that program, or choose another port with PORT in .env (see .env.example).`,
    );
  }, 180_000);
});
