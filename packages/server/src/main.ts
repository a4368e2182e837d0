/** Process entry: build the app from the environment, start it, stop gracefully on SIGINT/SIGTERM. */
import { buildApp, type App } from './app.js';

export async function main(): Promise<void> {
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  let url: string;
  try {
    url = await app.start();
  } catch (err) {
    // The port, or the workers' queue, could not be opened: one sentence for the operator, no stack trace.
    console.error(err instanceof Error ? err.message : err);
    await app.stop().catch(() => undefined);
    process.exit(1);
  }
  app.app.log.info(
    `Roomwalk is running at ${app.config.publicUrl} (listening on ${url}, role ${app.config.ROLE}, database ${app.services.database.kind})`,
  );
  stopOnSignals(app);
}

/** SIGTERM/SIGINT: drain within SHUTDOWN_TIMEOUT_SECONDS (app.stop()), exit 0; a second signal exits at once. */
export function stopOnSignals(app: App): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second signal: the operator wants out now.
      app.app.log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    const graceSeconds = app.config.SHUTDOWN_TIMEOUT_SECONDS ?? 25;
    app.app.log.info(`${signal}: draining (up to ${graceSeconds} s)`);
    // Backstop: stop() is bounded by the same setting; this only catches a close that never returns.
    setTimeout(
      () => {
        app.app.log.error('shutdown did not finish in time: exiting');
        process.exit(1);
      },
      (graceSeconds + 10) * 1000,
    ).unref();
    try {
      await app.stop();
      process.exit(0);
    } catch (err) {
      app.app.log.error(err, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
