/**
 * pg-boss runs on the app's own connection pool: the `pg` Pool of PostgreSQL, or the same kind
 * of Pool on the embedded PGlite, which speaks the wire protocol from its own process
 * (server/db/embedded). pg-boss asks only for `executeSql(text, values)`; its maintenance and
 * install scripts are several statements without parameters, which go as one simple query.
 *
 * The embedded database is one session shared by turns: a pg-boss call made while a transaction
 * of another connection is open waits for it (and deadlocks if the transaction waits for the
 * call), so jobs are enqueued after commit.
 */
import type PgBoss from 'pg-boss';
import type { Database } from '../db/client';

interface PoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The database client under a drizzle instance: the `pg` Pool. */
export function clientOf(db: Database): unknown {
  return (db as unknown as { $client?: unknown }).$client;
}

/** pg-boss's `db` option on the app's pool. */
export function pgBossDb(db: Database): PgBoss.Db {
  const client = clientOf(db);
  if (client && typeof (client as PoolLike).query === 'function') {
    const pool = client as PoolLike;
    return {
      executeSql: (text, values) => pool.query(text, values && values.length > 0 ? values : undefined),
    };
  }
  throw new Error('job engine: unknown database client (expected a pg Pool)');
}
