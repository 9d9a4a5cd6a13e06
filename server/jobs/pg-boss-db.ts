/**
 * pg-boss runs on the app's own database connection (stack notes: "it runs on the embedded
 * PGlite through a small adapter, and on PostgreSQL through the app's pool"). pg-boss asks only
 * for `executeSql(text, values)`; its maintenance and install scripts are several statements
 * without parameters, which PGlite runs through `exec` (its `query` takes one statement).
 *
 * PGlite is one session: a pg-boss call made while a PGlite transaction is open waits for it
 * (and deadlocks if the transaction waits for the call), so jobs are enqueued after commit.
 */
import type PgBoss from 'pg-boss';
import type { Database } from '../db/client';

interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows: unknown[] }[]>;
}
interface PoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

function isPglite(client: unknown): client is PgliteLike {
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof (client as PgliteLike).exec === 'function' &&
    typeof (client as PgliteLike).query === 'function'
  );
}

/** The database client under a drizzle instance: a PGlite, or a `pg` Pool. */
export function clientOf(db: Database): unknown {
  return (db as unknown as { $client?: unknown }).$client;
}

/** pg-boss's `db` option on the app's connection (PGlite or the pg pool). */
export function pgBossDb(db: Database): PgBoss.Db {
  const client = clientOf(db);
  if (isPglite(client)) {
    return {
      async executeSql(text, values) {
        if (values && values.length > 0) return client.query(text, values);
        const results = await client.exec(text);
        return { rows: results[results.length - 1]?.rows ?? [] };
      },
    };
  }
  if (client && typeof (client as PoolLike).query === 'function') {
    const pool = client as PoolLike;
    return {
      executeSql: (text, values) => pool.query(text, values && values.length > 0 ? values : undefined),
    };
  }
  throw new Error('job engine: unknown database client (expected PGlite or a pg Pool)');
}
