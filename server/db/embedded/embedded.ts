/**
 * The embedded database (no DATABASE_URL): PGlite in a child process of the server
 * (pglite-server.mjs), reached through a `pg` Pool on a Unix socket in a private temporary
 * directory this process creates (mode 0700: only this user connects; there is no password).
 * PostgreSQL's work runs in that process, so the HTTP event loop is never blocked by it, and the
 * app uses the PostgreSQL code path. The child ends when the server does, even when the server is
 * killed (its IPC channel closes).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
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
   * Called when the process ends while the database is open (a crash, or it was killed): every
   * query fails from then on. Default: an error on stderr. The server (start.ts) exits instead,
   * for its supervisor to start it again.
   */
  onUnexpectedExit?: (reason: string) => void;
  /**
   * Serve this database from the one shared process of this parent, which stays (idle, not
   * holding the parent open) after its databases close and serves the next one: V8 compiles
   * PGlite's WebAssembly once per process (tests: a database per test file). Default: a process
   * of its own, ended with the database (its memory goes back to the system).
   */
  sharedProcess?: boolean;
  /**
   * Serve this database from the process of `alongside` (tenant databases: one process serves the
   * control database and every tenant's; V8 compiles PGlite once). Closing it leaves that process.
   */
  alongside?: EmbeddedDatabase;
}

export interface EmbeddedDatabase {
  /** Directory of the Unix socket `.s.PGSQL.5432` (the `host` of a pg connection). */
  socketDir: string;
  /**
   * Settles when the database accepts connections (PGlite opened, socket listening), or rejects
   * with why it could not start. Connect only after it.
   */
  ready: Promise<void>;
  /** The process serving it, for measurements. */
  pid: number | undefined;
  /** Writes a dump of the data directory (uncompressed tar) to `file`. */
  dump(file: string): Promise<void>;
  /** Closes client sockets, then PGlite (a clean shutdown), then, unless shared, the process. */
  close(): Promise<void>;
}

type FromChild =
  | { type: 'started' }
  | { type: 'done'; req: number }
  | { type: 'error'; req: number; message: string }
  | { type: 'fatal'; message: string };

type Request =
  | { type: 'open'; db: number; socketDir: string; dataDir?: string; loadDataDir?: string }
  | { type: 'dump'; db: number; file: string }
  | { type: 'close'; db: number };

const serverFile = fileURLToPath(new URL('./pglite-server.mjs', import.meta.url));

/** A process serving databases, and the requests it has not answered yet. */
interface Host {
  child: ChildProcess;
  request(message: Request): Promise<void>;
  /** Databases open in it: told when it ends unexpectedly. */
  open: Map<number, (reason: string) => void>;
  exited: Promise<void>;
  /** Set once it has ended or is being ended: no new database goes to it. */
  ended: boolean;
}

/** A process started early by `npm start` (prestart.mjs), waiting to be adopted. */
interface Prestarted {
  child: ChildProcess;
  dataDir: string;
  socketDir: string;
  opened: Promise<void>;
}
const PRESTARTED = Symbol.for('rinnova.prestartedDatabase');

/** Takes the process prestart.mjs started, if any (once). */
function takePrestarted(): Prestarted | undefined {
  const global = globalThis as unknown as Record<symbol, Prestarted | undefined>;
  const found = global[PRESTARTED];
  delete global[PRESTARTED];
  return found;
}

function startHost(adopted?: ChildProcess): Host {
  const child =
    adopted ??
    fork(serverFile, [], {
      // Plain JavaScript: none of the parent's loaders (tsx) or inspector flags. --expose-gc: the
      // process gives a closed database's memory back (pglite-server.mjs, 'Memory at rest').
      execArgv: ['--expose-gc'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  // Like the in-process PGlite before it, the child alone does not keep the server running:
  // process and channel are held only while an answer is awaited.
  child.unref();
  child.channel?.unref();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const calls = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let nextReq = 1;
  let failure: Error | undefined;
  const host: Host = {
    child,
    open: new Map(),
    exited,
    ended: false,
    request(message) {
      return new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        const req = nextReq++;
        if (calls.size === 0) child.channel?.ref();
        calls.set(req, { resolve, reject });
        child.send({ ...message, req });
      });
    },
  };
  const settle = (req: number, error?: Error) => {
    const call = calls.get(req);
    calls.delete(req);
    if (calls.size === 0) child.channel?.unref();
    if (error) call?.reject(error);
    else call?.resolve();
  };
  const failAll = (error: Error) => {
    failure ??= error;
    host.ended = true;
    for (const req of [...calls.keys()]) settle(req, error);
  };
  child.on('message', (message: FromChild) => {
    if (message.type === 'done') settle(message.req);
    else if (message.type === 'error') settle(message.req, new Error(`database process: ${message.message}`));
    else if (message.type === 'fatal') {
      // An internal error of the session server: nothing sensible can continue.
      console.error(`database process: ${message.message}`);
      failAll(new Error(`database process: ${message.message}`));
      child.kill('SIGKILL');
    }
  });
  child.once('error', (error: Error) => failAll(error));
  child.once('exit', (code, signal) => {
    const reason = signal ?? `status ${code}`;
    failAll(new Error(`database process exited (${reason})`));
    for (const onExit of host.open.values()) onExit(reason);
    host.open.clear();
    if (shared === host) shared = undefined;
  });
  return host;
}

/** The shared process of this parent (see EmbeddedOptions.sharedProcess). */
let shared: Host | undefined;
/** The process serving each database (EmbeddedOptions.alongside). */
const hostOf = new WeakMap<EmbeddedDatabase, Host>();
let nextDb = 1;

export async function startEmbeddedDatabase(options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const beside = options.alongside ? hostOf.get(options.alongside) : undefined;
  if (options.alongside && (!beside || beside.ended))
    throw new Error('database process: the process to open beside has ended');
  const prestarted = beside ? undefined : takePrestarted();
  const adopt =
    prestarted && !options.sharedProcess && !options.loadDataDir && prestarted.dataDir === options.dataDir;
  if (prestarted && !adopt) {
    // A wrong guess: that process closes its database and ends; its socket directory goes.
    const { child, socketDir } = prestarted;
    if (child.exitCode !== null || child.signalCode !== null)
      void rm(socketDir, { recursive: true, force: true });
    else child.once('exit', () => void rm(socketDir, { recursive: true, force: true }));
    if (child.connected) child.disconnect();
  }
  // Private to this user: the socket has no password.
  const socketDir = adopt ? prestarted.socketDir : await mkdtemp(path.join(os.tmpdir(), 'rinnova-db-'));
  const keepsHost = options.sharedProcess === true || beside !== undefined;
  const host = beside
    ? beside
    : adopt
      ? startHost(prestarted.child)
      : options.sharedProcess
        ? shared && !shared.ended
          ? shared
          : (shared = startHost())
        : startHost();
  const db = adopt ? 0 : nextDb++;
  let closing: Promise<void> | undefined;
  const onExit = (reason: string) => {
    if (closing) return;
    if (options.onUnexpectedExit) options.onUnexpectedExit(reason);
    else console.error(`database process ended unexpectedly (${reason})`);
  };
  const ready = (
    adopt
      ? heldUntil(host.child, prestarted.opened) // request 0, sent by prestart.mjs
      : host.request({
          type: 'open',
          db,
          socketDir,
          ...(options.dataDir ? { dataDir: options.dataDir } : {}),
          ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
        })
  ).then(() => void host.open.set(db, onExit));
  const opened = ready.catch(async (error: unknown) => {
    await rm(socketDir, { recursive: true, force: true });
    if (!keepsHost) await endHost(host);
    throw error;
  });
  opened.catch(() => undefined); // the caller awaits `ready`

  const database: EmbeddedDatabase = {
    socketDir,
    ready: opened,
    pid: host.child.pid,
    dump: async (file) => {
      await opened;
      await host.request({ type: 'dump', db, file });
    },
    close: () =>
      (closing ??= (async () => {
        try {
          if (
            await opened.then(
              () => true,
              () => false,
            )
          ) {
            host.open.delete(db);
            if (!host.ended) await host.request({ type: 'close', db });
          }
        } finally {
          await rm(socketDir, { recursive: true, force: true });
          if (!keepsHost) await endHost(host);
        }
      })()),
  };
  hostOf.set(database, host);
  return database;
}

/** Keeps this process alive (the child's channel referenced) until `promise` settles. */
function heldUntil(child: ChildProcess, promise: Promise<void>): Promise<void> {
  child.channel?.ref();
  return promise.finally(() => child.channel?.unref());
}

/** Ends a process of one database: its channel closes, it closes what is open and exits. */
async function endHost(host: Host): Promise<void> {
  host.ended = true;
  host.child.ref(); // held until the process has ended
  if (host.child.connected) host.child.disconnect();
  await host.exited;
}
