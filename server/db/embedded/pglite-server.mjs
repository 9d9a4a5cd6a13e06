// The embedded database off the HTTP event loop (issue 8): PGlite in a child process of the
// server, served over the PostgreSQL wire protocol on a Unix socket, so the server talks to it
// through the same `pg` Pool and drizzle node-postgres driver as to PostgreSQL
// (server/db/client.ts, embedded.ts). A process rather than a worker thread: its memory goes
// back to the system when it ends (a worker thread's does not, fully), and the first start
// restarts it after the ISTAT seed.
//
// One process can serve several databases, each on its own socket (tests: one process per test
// worker, a database per test file): V8 compiles PGlite's 9 MB of WebAssembly once per process and
// reuses the compiled code for every instance, which a new process per database would redo
// (about 1.4 s of CPU, and slow queries until the code is optimised).
//
// Plain JavaScript on purpose: it starts without the TypeScript loader of its parent (tsx,
// vitest, or none under `npm start`), and this file must load everywhere the server does.
//
// Messages (IPC, advanced serialization), each request with its number `req`, answered by
// { type: 'done', req } or { type: 'error', req, message }: { type: 'open', req, db, socketDir,
// dataDir?, loadDataDir? } (loadDataDir: the path of a dump to start from), { type: 'dump', req,
// db, file }, { type: 'close', req, db }; and { type: 'fatal', message } for an internal error.
// When the parent goes away (stopped, crashed, even SIGKILL) the IPC channel closes and this
// process closes its databases cleanly and exits. SIGINT and SIGTERM (a terminal's Ctrl-C, or a
// supervisor signalling the whole process group) leave the shutdown to the parent, which closes
// the databases after its last request; only if it has not within 20 s does this process close
// them and end on its own.
//
// PGlite is one PostgreSQL session. Several client connections share it one at a time: a
// connection that sends a message owns the session until the session answers ReadyForQuery with
// status 'I' (idle): after a simple query or a Sync outside a transaction, or after COMMIT /
// ROLLBACK. Messages of other connections wait meanwhile, in arrival order, so an extended-protocol
// query (Parse, Bind, Execute, Sync) or a transaction is never interleaved with another
// connection's. (`@electric-sql/pglite-socket` 0.2.17 releases the session between the messages of
// an extended query outside a transaction, and pins its peer dependency to PGlite 0.5.14.)
import { Buffer } from 'node:buffer';
import { openAsBlob } from 'node:fs';
import { mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import process from 'node:process';
import { setImmediate, setInterval, setTimeout } from 'node:timers';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSS_REQUEST = 80877104;
const PROTOCOL_3 = 196608;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const SIGNAL_GRACE_MS = 20_000;
/** Connections get distinct prefixes for their statement names (see `rename`). */
let connectionCount = 0;

// Memory at rest (issue 25). A closed PGlite's WebAssembly memory (tens of MB each) goes back to
// the system only when V8 collects it, and a process with no allocations does not collect: a
// tenant database closed by the idle sweeper kept its memory, as did a busy burst's garbage. The
// parent starts this process with --expose-gc; it collects once after a database closes and once
// when the process has served nothing for COMPACT_IDLE_MS. (Absent the flag, nothing is done.)
const COMPACT_IDLE_MS = 10_000;
/** Batches served: the idle check compares it with the last one it saw. */
let activity = 0;
let seenActivity = 0;
let compacted = true;
const collect = () => {
  /** @type {(() => void) | undefined} */ (/** @type {{ gc?: () => void }} */ (globalThis).gc)?.();
};
setInterval(() => {
  if (activity !== seenActivity) {
    seenActivity = activity;
    compacted = false;
  } else if (!compacted) {
    compacted = true;
    collect();
  }
}, COMPACT_IDLE_MS).unref();

/** @param {unknown} message */
const send = (message) => {
  // The parent may be gone meanwhile ('disconnect' ends this process): nothing to report to.
  if (process.connected) process.send?.(message, undefined, {}, () => undefined);
};

/** @param {unknown} error */
const describe = (error) => String(error instanceof Error ? (error.stack ?? error.message) : error);

// The database's files and socket are the owner's only, whatever umask the parent had when it
// started this process (npm start does so before the server sets its own: server/lib/data-dir.ts).
process.umask(0o077);

// PGlite's module loads while the parent's first request arrives.
const [{ PGlite }, { pg_trgm }] = await Promise.all([
  import('@electric-sql/pglite'),
  import('@electric-sql/pglite/contrib/pg_trgm'),
]);

/**
 * @typedef {{ type: 'open', req: number, db: number, socketDir: string, dataDir?: string,
 *   loadDataDir?: string }} OpenRequest
 * @typedef {{ dump(file: string): Promise<void>, close(): Promise<void> }} Served
 */

/** Databases open or opening, by the parent's number. @type {Map<number, Promise<Served>>} */
const databases = new Map();

/**
 * Opens a PGlite and serves it on `socketDir`/.s.PGSQL.5432 (the directory is the parent's: a
 * private 0700 temporary directory it created).
 * @param {OpenRequest} options
 * @returns {Promise<Served>}
 */
async function serve(options) {
  const lock = options.dataDir ? await lockDataDir(options.dataDir) : undefined;
  /** @type {import('@electric-sql/pglite').PGlite} */
  let db;
  try {
    db = await openPglite(options);
  } catch (error) {
    await lock?.release();
    throw error;
  }
  try {
    return await listen(options, db, lock);
  } catch (error) {
    await db.close().catch(() => undefined);
    await lock?.release();
    throw error;
  }
}

/**
 * One process at a time on a data directory: `<dataDir>.lock` holds the owner's process id. A
 * server restarted at once (Ctrl-C and start again, a supervisor) finds the previous database
 * process still closing PGlite: this one waits for it to end (two PGlite on one directory abort
 * or worse). A lock left by a process that no longer exists (a crash) is taken over.
 * @param {string} dataDir
 */
async function lockDataDir(dataDir) {
  const file = `${dataDir}.lock`;
  await mkdir(path.dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return { release: () => unlink(file).catch(() => undefined) };
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    }
    const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (!alive(owner)) {
      await unlink(file).catch(() => undefined);
      continue;
    }
    if (attempt >= 600) throw new Error(`${dataDir} è in uso dal processo ${owner}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** @param {number} pid */
function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/** @param {OpenRequest} options */
async function openPglite(options) {
  return PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: await openAsBlob(options.loadDataDir) } : {}),
    extensions: { pg_trgm },
    // Memory: PostgreSQL's defaults (128 MB of shared buffers, 64 MB for maintenance) are sized
    // for a server of its own; here the data files stay in the OS page cache anyway, and
    // WebAssembly memory never shrinks once grown. 16 MB of buffers cut the resident size by
    // about 140 MB.
    postgresqlconf: ['shared_buffers=16MB', 'maintenance_work_mem=16MB', 'wal_buffers=1MB'],
  });
}

/**
 * Serves an open PGlite on the socket.
 * @param {OpenRequest} options
 * @param {import('@electric-sql/pglite').PGlite} db
 * @param {{ release(): Promise<void> } | undefined} lock
 * @returns {Promise<Served>}
 */
async function listen(options, db, lock) {
  /**
   * @typedef {{ socket: import('node:net').Socket, buffer: Buffer, started: boolean,
   *   pending: Buffer[], closed: boolean, prefix: string, statements: Set<string> }} Connection
   */

  /** The connection owning the session (inside a transaction or an extended query), or null. */
  let owner = /** @type {Connection | null} */ (null);
  /** Connections with complete messages waiting for the session, in arrival order. */
  const waiting = /** @type {Connection[]} */ ([]);
  let running = false;
  /** Set by close(): the session is ending. */
  /** @type {Promise<void> | undefined} */
  let closing;
  let dbClosed = false;
  /** @type {Set<Connection>} */
  const connections = new Set();

  /** @param {Connection} conn */
  const hasWork = (conn) => conn.pending.length > 0 || (conn.closed && conn.statements.size > 0);

  /**
   * Runs what can run now: the owner's pending messages, else the next waiting connection's.
   * One connection's batch of complete messages goes to PGlite in one call.
   */
  async function pump() {
    if (running || dbClosed) return;
    running = true;
    try {
      for (;;) {
        let conn = owner;
        if (conn === null) {
          while (waiting.length > 0 && !hasWork(/** @type {Connection} */ (waiting[0]))) waiting.shift();
          conn = waiting.shift() ?? null;
        } else if (conn.pending.length === 0 && !conn.closed) {
          break; // the owner's next message calls pump again
        }
        if (conn === null) break;
        if (conn.closed) {
          if (owner === conn) await release(conn);
          if (conn.statements.size > 0) await forget(conn);
          continue;
        }
        const batch =
          conn.pending.length === 1 ? /** @type {Buffer} */ (conn.pending[0]) : Buffer.concat(conn.pending);
        conn.pending = [];
        activity++;
        const target = conn;
        let tail = Buffer.alloc(0);
        await db.runExclusive(() =>
          db.execProtocolRawStream(batch, {
            onRawData(data) {
              if (data.length === 0) return;
              const chunk = Buffer.from(data); // PGlite reuses its buffer: the socket gets a copy
              tail = chunk.length >= 6 ? chunk.subarray(-6) : Buffer.concat([tail, chunk]).subarray(-6);
              if (!target.closed) target.socket.write(chunk);
            },
          }),
        );
        // ReadyForQuery: 'Z', length 5, transaction status ('I' idle, 'T' in a block, 'E' failed).
        const idle = tail.length === 6 && tail[0] === 0x5a && tail.readInt32BE(1) === 5 && tail[5] === 0x49;
        // eslint-disable-next-line require-atomic-updates -- the connection that owns the session decides, from the reply just relayed, whether it gives it up
        owner = idle ? null : target;
        if (idle && target.pending.length > 0) waiting.push(target);
      }
    } finally {
      running = false;
    }
  }

  /**
   * A connection that closed while owning the session: end its extended query and its transaction.
   * @param {Connection} conn
   */
  async function release(conn) {
    await db.runExclusive(() => db.execProtocolRawStream(SYNC, { onRawData() {} }));
    if (db.isInTransaction()) await db.exec('ROLLBACK');
    if (owner === conn) owner = null;
  }

  /**
   * A closed connection's prepared statements go with it, as its backend's would on PostgreSQL.
   * @param {Connection} conn
   */
  async function forget(conn) {
    if (closing) return void conn.statements.clear(); // the session ends with them
    const closes = [...conn.statements].map((name) => {
      const bytes = Buffer.from(`S${name}\0`);
      const message = Buffer.alloc(5 + bytes.length);
      message[0] = 0x43; // Close
      message.writeInt32BE(4 + bytes.length, 1);
      bytes.copy(message, 5);
      return message;
    });
    conn.statements.clear();
    await db.runExclusive(() =>
      db.execProtocolRawStream(Buffer.concat([...closes, SYNC]), { onRawData() {} }),
    );
  }

  /**
   * Where a message names a prepared statement, the offset of that name (a C string), else -1:
   * Parse ('P': the name first), Bind ('B': after the portal's name), Describe and Close of a
   * statement ('D' / 'C' with 'S').
   * @param {Buffer} message
   */
  function statementNameAt(message) {
    switch (message[0]) {
      case 0x50: // Parse
        return 5;
      case 0x42: // Bind
        return message.indexOf(0, 5) + 1;
      case 0x44: // Describe
      case 0x43: // Close
        return message[5] === 0x53 ? 6 : -1;
      default:
        return -1;
    }
  }

  /**
   * PostgreSQL keeps prepared statements per connection (node-postgres prepares a named statement
   * once per connection), but here every connection shares one session: each connection's
   * statement names get its own prefix, so two connections preparing "x" do not collide.
   * @param {Connection} conn
   * @param {Buffer} message
   */
  function rename(conn, message) {
    const at = statementNameAt(message);
    if (at < 5 || message[at] === 0) return message; // not a statement's name, or the unnamed one
    const end = message.indexOf(0, at);
    const name = conn.prefix + message.toString('utf8', at, end);
    if (message[0] === 0x50) conn.statements.add(name);
    else if (message[0] === 0x43) conn.statements.delete(name);
    const renamed = Buffer.concat([message.subarray(0, at), Buffer.from(name), message.subarray(end)]);
    renamed.writeInt32BE(renamed.length - 1, 1);
    return renamed;
  }

  /**
   * Splits the socket's bytes into messages; answers SSL/GSS requests with 'N'.
   * @param {Connection} conn
   * @param {Buffer} chunk
   */
  function receive(conn, chunk) {
    conn.buffer = conn.buffer.length === 0 ? chunk : Buffer.concat([conn.buffer, chunk]);
    let offset = 0;
    /** @type {Buffer[]} */
    const messages = [];
    for (;;) {
      const rest = conn.buffer.subarray(offset);
      if (!conn.started) {
        if (rest.length < 8) break;
        const length = rest.readInt32BE(0);
        const code = rest.readInt32BE(4);
        if (rest.length < length) break;
        offset += length;
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          conn.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) {
          conn.socket.end(); // nothing to cancel: one session, queries run to completion
          conn.buffer = Buffer.alloc(0);
          return;
        }
        if (code !== PROTOCOL_3) {
          conn.socket.destroy();
          return;
        }
        conn.started = true;
        messages.push(rest.subarray(0, length)); // PGlite answers the startup itself
        continue;
      }
      if (rest.length < 5) break;
      const length = 1 + rest.readInt32BE(1);
      if (rest.length < length) break;
      offset += length;
      const message = rest.subarray(0, length);
      // Terminate ('X'): the client is leaving; the session is not, so it never reaches PGlite.
      if (message[0] !== 0x58) messages.push(rename(conn, message));
    }
    // What is left (a partial message) is copied, so the chunk it came from can be freed.
    conn.buffer = offset === 0 ? conn.buffer : Buffer.from(conn.buffer.subarray(offset));
    if (messages.length === 0) return;
    conn.pending.push(messages.length === 1 ? /** @type {Buffer} */ (messages[0]) : Buffer.concat(messages));
    if (owner !== conn && !waiting.includes(conn)) waiting.push(conn);
    void pump().catch(fail);
  }

  const socketPath = path.join(options.socketDir, '.s.PGSQL.5432');
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    /** @type {Connection} */
    const conn = {
      socket,
      buffer: Buffer.alloc(0),
      started: false,
      pending: [],
      closed: false,
      prefix: `c${++connectionCount}.`,
      statements: new Set(),
    };
    connections.add(conn);
    socket.on('data', (chunk) => receive(conn, chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      conn.closed = true;
      connections.delete(conn);
      conn.pending = [];
      if (owner === conn || conn.statements.size > 0) {
        if (owner !== conn && !waiting.includes(conn)) waiting.push(conn);
        void pump().catch(fail);
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(undefined));
  });

  return {
    async dump(file) {
      const blob = await db.dumpDataDir('none');
      await writeFile(file, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 });
    },
    /** Ends client connections, waits for the session to be free, closes PGlite (cleanly). */
    close() {
      closing ??= (async () => {
        server.close();
        for (const conn of connections) conn.socket.destroy();
        while (running || owner) await new Promise((resolve) => setImmediate(resolve));
        dbClosed = true;
        await db.close();
        await lock?.release();
        // The directory is this database's alone: gone with it, also when the parent was killed.
        await rm(options.socketDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/**
 * An internal error of the session server: reported to the parent, which ends this process.
 * @param {unknown} error
 */
function fail(error) {
  send({ type: 'fatal', message: describe(error) });
}

/** Closes every database (each cleanly) and ends the process. */
let ending = false;
function end() {
  if (ending) return;
  ending = true;
  // One still opening is closed once open (its socket directory goes with it).
  void Promise.allSettled([...databases.values()].map(async (d) => (await d).close())).finally(() =>
    process.exit(0),
  );
}

/**
 * @typedef {OpenRequest | { type: 'dump', req: number, db: number, file: string }
 *   | { type: 'close', req: number, db: number }} Request
 */
process.on('message', (/** @type {Request} */ message) => {
  void (async () => {
    if (message.type === 'open') {
      const opening = serve(message);
      databases.set(message.db, opening);
      try {
        await opening;
      } catch (error) {
        databases.delete(message.db);
        await rm(message.socketDir, { recursive: true, force: true });
        throw error;
      }
    } else {
      const served = await databases.get(message.db);
      if (!served) throw new Error(`database ${message.db} is not open`);
      if (message.type === 'dump') await served.dump(message.file);
      else {
        await served.close();
        databases.delete(message.db);
        collect();
      }
    }
    send({ type: 'done', req: message.req });
  })().catch((error) => send({ type: 'error', req: message.req, message: describe(error) }));
});
// The server is gone (stopped, crashed or killed): close cleanly and end.
process.on('disconnect', end);
/** A signal to the whole process group: the parent closes the databases; end alone only if it does not. */
const onSignal = () => {
  setTimeout(end, SIGNAL_GRACE_MS).unref();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
send({ type: 'started' });
