/** Process entry: build the app from the environment, start it, stop cleanly on SIGINT/SIGTERM. */
import { buildApp } from './app.js';

export async function main(): Promise<void> {
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  const url = await app.start();
  app.app.log.info(`Roomwalk is running at ${app.config.publicUrl} (listening on ${url}, role ${app.config.ROLE}, database ${app.services.database.kind})`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.app.log.info(`${signal}: shutting down`);
    await app.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
