// @ts-check
// `npm start` (scripts/start.mjs) calls `prestartEmbeddedDatabase` before it loads the server's
// bundle: the embedded database's process opens PGlite on the data directory (about a second)
// while this process loads and builds the app, instead of after. It is a guess from DATA_DIR and
// DATABASE_URL; the server (embedded.ts) adopts the process only when it asks for that same data
// directory, else closes it and starts its own, so a wrong guess costs time, never correctness.
// Only an existing data directory is opened early: a first start creates it after the server has
// set its permissions (start.ts).
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { URL, fileURLToPath } from 'node:url';

/** Where the adopting side (embedded.ts) finds the process started early. */
export const PRESTARTED = Symbol.for('rinnova.prestartedDatabase');

/**
 * @typedef {{ child: import('node:child_process').ChildProcess, dataDir: string,
 *   socketDir: string, opened: Promise<void> }} Prestarted
 */

/**
 * Starts the database process and asks it to open `<DATA_DIR>/pglite` (request 0, database 0),
 * when the settings name an embedded database whose directory exists.
 * @param {NodeJS.ProcessEnv} env
 */
export function prestartEmbeddedDatabase(env) {
  if (env.DATABASE_URL) return;
  const rawDataDir = env.DATA_DIR || './data';
  if (rawDataDir === ':memory:') return;
  const dataDir = path.join(path.resolve(rawDataDir), 'pglite');
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  // Private to this user: the socket has no password.
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'rinnova-db-'));
  const child = fork(fileURLToPath(new URL('./pglite-server.mjs', import.meta.url)), [], {
    // As embedded.ts starts it: it gives a closed database's memory back (pglite-server.mjs).
    execArgv: ['--expose-gc'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Never holds this process open (nor does it once adopted, see embedded.ts).
  child.unref();
  child.channel?.unref();
  /** @type {Promise<void>} */
  const opened = new Promise((resolve, reject) => {
    /** @param {{ type: string, req?: number, message?: string }} message */
    const onMessage = (message) => {
      if (message.req !== 0 && message.type !== 'fatal') return;
      child.off('message', onMessage);
      if (message.type === 'done') resolve();
      else reject(new Error(`database process: ${message.message}`));
    };
    child.on('message', onMessage);
    child.once('exit', (code, signal) => reject(new Error(`database process exited (${signal ?? code})`)));
  });
  opened.catch(() => undefined); // the adopter awaits it
  child.send({ type: 'open', req: 0, db: 0, socketDir, dataDir });
  /** @type {Record<symbol, Prestarted>} */ (/** @type {unknown} */ (globalThis))[PRESTARTED] = {
    child,
    dataDir,
    socketDir,
    opened,
  };
}
