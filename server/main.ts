import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config';
import { startServer } from './start';

export { startServer } from './start';
export type { RunningServer, StartServerOptions } from './start';

const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * `tsx server/main.ts` and `npm start` (scripts/start.mjs, through the bundle dist-server/main.mjs): reads .env if present, starts, and
 * stops cleanly on SIGTERM / SIGINT. Exits the process on invalid settings.
 */
export async function main(): Promise<void> {
  // Variables already in the environment win over the file (loadEnvFile does not overwrite).
  if (existsSync('.env')) process.loadEnvFile('.env');
  let server;
  try {
    server = await startServer();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const running = server;
  const stop = (signal: NodeJS.Signals) => {
    running.app.log.info({ signal }, 'arresto in corso');
    const timer = setTimeout(() => {
      console.error('Arresto non completato in tempo: uscita forzata.');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const executedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (executedDirectly) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
