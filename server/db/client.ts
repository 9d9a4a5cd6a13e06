import { fileURLToPath } from 'node:url';
import type { Logger } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { startEmbeddedDatabase } from './embedded/embedded';
import type { EmbeddedDatabase } from './embedded/embedded';
import * as schema from './schema';

export type Schema = typeof schema;
/** What repositories see: the same query API on PGlite and on PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction: the same query API as the database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Where a query can run: the database, or a transaction on it. */
export type Executor = Database | Transaction;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /**
   * `dataDir` undefined keeps the database in memory; `loadDataDir` is the path of a dump (an
   * uncompressed tar from `dumpDataDir`) to start from (tests' template).
   */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: string };

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseTarget['kind'];
  /** Applies the versioned migrations in server/db/migrations (or `folder`) that have not run yet. */
  migrate(folder?: string): Promise<void>;
  close(): Promise<void>;
  /** Settles when the database accepts connections (see DatabaseOptions.deferReady). */
  ready: Promise<void>;
  /** Writes a dump of the embedded database to `file` (a test template); undefined on PostgreSQL. */
  dumpDataDir?: (file: string) => Promise<void>;
  /** The embedded database's process id (measurements, tests); undefined on PostgreSQL. */
  embeddedPid?: number | undefined;
  /** The embedded database (tenant databases open beside it, in its process); undefined on PostgreSQL. */
  embedded?: EmbeddedDatabase;
  /** The pool behind `db` (the tenant directory routes a tenant still in this database to it). */
  pool: pg.Pool;
  /** PostgreSQL: the connection string; undefined on the embedded database. */
  url?: string;
}

const embeddedPools = new WeakSet<object>();

/**
 * Whether `db` runs on the embedded PGlite (a `pg` Pool too, but one session shared by its
 * connections: no session settings per connection, no point in a second pool).
 */
export function isEmbedded(db: Database): boolean {
  const client = (db as unknown as { $client?: unknown }).$client;
  return typeof client === 'object' && client !== null && embeddedPools.has(client);
}

/** Marks a pool-like client as running on the embedded database (see isEmbedded). */
export function markEmbedded(client: object): void {
  embeddedPools.add(client);
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface DatabaseOptions {
  /** Sees every query with its parameters (tests: the EXPLAIN check of the list queries). */
  logger?: Logger;
  /** The embedded database's process ended while in use (see EmbeddedOptions). */
  onEmbeddedExit?: (reason: string) => void;
  /**
   * Answer as soon as the embedded database's process is started, without waiting for it to
   * accept connections: the caller awaits `handle.ready` before the first query (the server
   * builds its app meanwhile). Default: openDatabase waits.
   */
  deferReady?: boolean;
  /**
   * The embedded database in this process's one shared database process, which stays for the
   * next database (tests: a database per test file; see EmbeddedOptions.sharedProcess).
   */
  sharedEmbeddedProcess?: boolean;
}

/**
 * One code path for both databases: a `pg` Pool and drizzle's node-postgres driver, on
 * PostgreSQL (DATABASE_URL) or on the embedded PGlite, which runs in a child process and speaks
 * the wire protocol on a private Unix socket (server/db/embedded). PGlite is one session: its
 * connections take turns per query outside a transaction and per transaction inside one, so, as
 * with the in-process PGlite before, a transaction must not wait for another connection's query.
 */
export async function openDatabase(
  target: DatabaseTarget,
  options: DatabaseOptions = {},
): Promise<DatabaseHandle> {
  const logger = options.logger ? { logger: options.logger } : {};
  let embedded: EmbeddedDatabase | undefined;
  let pool: pg.Pool;
  if (target.kind === 'pglite') {
    embedded = await startEmbeddedDatabase({
      ...(target.dataDir ? { dataDir: target.dataDir } : {}),
      ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
      ...(options.onEmbeddedExit ? { onUnexpectedExit: options.onEmbeddedExit } : {}),
      ...(options.sharedEmbeddedProcess ? { sharedProcess: true } : {}),
    });
    pool = new pg.Pool({
      host: embedded.socketDir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
      max: 10,
    });
    embeddedPools.add(pool);
    if (!options.deferReady) await embedded.ready;
  } else pool = new pg.Pool({ connectionString: target.url, max: 10 });
  // An idle connection the server ends (a restart, an administrator, a dropped test database)
  // is reported here and removed from the pool; without a listener it would crash the process.
  // The next query opens a new connection.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema, ...logger });
  const child = embedded;
  let closing: Promise<void> | undefined;
  return {
    db,
    pool,
    ...(target.kind === 'postgres' ? { url: target.url } : {}),
    kind: target.kind,
    ready: child ? child.ready : Promise.resolve(),
    migrate: (folder = migrationsFolder) => migratePg(db, { migrationsFolder: folder }),
    close: () =>
      (closing ??= (async () => {
        try {
          await child?.ready.catch(() => undefined);
          await pool.end();
        } finally {
          await child?.close();
        }
      })()),
    ...(child
      ? { dumpDataDir: (file: string) => child.dump(file), embeddedPid: child.pid, embedded: child }
      : {}),
  };
}
