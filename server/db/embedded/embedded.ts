/**
 * The embedded database (no DATABASE_URL): PGlite in a child process of the server
 * (pglite-server.mjs), reached through a `pg` Pool on a Unix socket in a private temporary
 * directory this process creates (mode 0700: only this user connects; there is no password).
 * PostgreSQL's work runs in that process, so the HTTP event loop is never blocked by it, and the
 * app uses the PostgreSQL code path. The child ends when the server does, even when the server is
 * killed (its IPC channel closes).
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface EmbeddedOptions {
  /** Data directory; undefined keeps the database in memory. */
  dataDir?: string;
  /** The path of a dump to start from (an uncompressed tar written by `dump`: tests' template). */
  loadDataDir?: string;
  /**
   * Called when the process ends while still in use (a crash, or it was killed): every query
   * fails from then on. Default: an error on stderr. The server (start.ts) exits instead, for its
   * supervisor to start it again.
   */
  onUnexpectedExit?: (reason: string) => void;
}

export interface EmbeddedDatabase {
  /** Directory of the Unix socket `.s.PGSQL.5432` (the `host` of a pg connection). */
  socketDir: string;
  /**
   * Settles when the database accepts connections (PGlite opened, socket listening), or rejects
   * with why it could not start (the process has ended then). Connect only after it.
   */
  ready: Promise<void>;
  /** The child process, for measurements. */
  pid: number | undefined;
  /** Writes a dump of the data directory (uncompressed tar) to `file`. */
  dump(file: string): Promise<void>;
  /** Closes client sockets, then PGlite (a clean shutdown), then the process. */
  close(): Promise<void>;
}

type FromChild =
  | { type: 'ready' }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; message: string }
  | { type: 'fatal'; message: string };

const serverFile = fileURLToPath(new URL('./pglite-server.mjs', import.meta.url));

export async function startEmbeddedDatabase(options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  // Private to this user: the socket has no password.
  const socketDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-db-'));
  const child = fork(serverFile, [], {
    // Plain JavaScript: none of the parent's loaders (tsx) or inspector flags.
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let isReady = false;
  let closing: Promise<void> | undefined;
  let nextId = 1;
  const calls = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const call of calls.values()) call.reject(error);
    calls.clear();
  };
  // Whatever ends the child, its socket directory goes (the child removes only the socket).
  void exited.then(() => rm(socketDir, { recursive: true, force: true }));

  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: FromChild) => {
      if (message.type === 'ready') {
        isReady = true;
        // Like the in-process PGlite before it, the child alone does not keep the server
        // running (process and channel are held only while an answer is awaited).
        child.unref();
        child.channel?.unref();
        resolve();
      } else if (message.type === 'fatal') {
        const error = new Error(`database process: ${message.message}`);
        reject(error);
        failAll(error);
        // An internal error of the session server: nothing sensible can continue.
        if (isReady && !closing) child.kill('SIGKILL');
      } else {
        const call = calls.get(message.id);
        calls.delete(message.id);
        if (message.type === 'error') call?.reject(new Error(`database process: ${message.message}`));
        else call?.resolve();
      }
    });
    child.once('error', (error: Error) => {
      reject(error);
      failAll(error);
    });
    child.once('exit', (code, signal) => {
      const reason = signal ?? `status ${code}`;
      const error = new Error(`database process exited (${reason})`);
      reject(error);
      failAll(error);
      if (isReady && !closing) {
        if (options.onUnexpectedExit) options.onUnexpectedExit(reason);
        else console.error(`database process ended unexpectedly (${reason})`);
      }
    });
    child.send({
      type: 'start',
      socketDir,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  });
  const started = ready.catch(async (error: unknown) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    throw error;
  });
  started.catch(() => undefined); // the caller awaits `ready`

  const call = async (message: { type: 'dump'; file: string } | { type: 'close' }) => {
    await started;
    child.channel?.ref();
    try {
      await new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        const id = nextId++;
        calls.set(id, { resolve, reject });
        child.send({ ...message, id });
      });
    } finally {
      child.channel?.unref();
    }
  };

  return {
    socketDir,
    ready: started,
    pid: child.pid,
    dump: (file) => call({ type: 'dump', file }),
    close: () =>
      (closing ??= (async () => {
        child.ref(); // held until the process has ended
        try {
          await started.catch(() => undefined);
          if (child.exitCode === null && child.signalCode === null) await call({ type: 'close' });
        } finally {
          if (child.connected) child.disconnect();
          await exited;
        }
      })()),
  };
}
