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

/** pg-boss's `db` option on the app's pool, with what it has under way (see `settled`). */
export interface TrackedPgBossDb extends PgBoss.Db {
  /**
   * The calls under way. pg-boss records a job's outcome without awaiting it, and a worker's
   * fetch can still hand it a job after `stop()` resolves: the pool must stay open until they
   * are done (engine.stop waits with `settledAll`).
   */
  readonly underWay: ReadonlySet<Promise<unknown>>;
}

export function pgBossDb(db: Database): TrackedPgBossDb {
  const client = clientOf(db);
  if (client && typeof (client as PoolLike).query === 'function') {
    const pool = client as PoolLike;
    const underWay = new Set<Promise<unknown>>();
    return {
      executeSql: (text, values) =>
        tracked(underWay, pool.query(text, values && values.length > 0 ? values : undefined)),
      underWay,
    };
  }
  throw new Error('job engine: unknown database client (expected a pg Pool)');
}

/** `promise`, kept in `underWay` until it settles (see `settledAll`). */
export function tracked<T>(underWay: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> {
  underWay.add(promise);
  const forget = () => underWay.delete(promise);
  promise.then(forget, forget);
  return promise;
}

/**
 * Waits until `underWay` stays empty across a turn of the event loop: what a settled promise's
 * handlers start (pg-boss marking a job, a worker's handler after its fetch) runs in the
 * microtasks before `setImmediate`, so it is in the set when the set is looked at again.
 */
export async function settledAll(...sets: ReadonlySet<Promise<unknown>>[]): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    const pending = sets.flatMap((set) => [...set]);
    if (pending.length === 0) return;
    await Promise.allSettled(pending);
  }
}
