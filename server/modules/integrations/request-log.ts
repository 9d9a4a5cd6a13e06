/**
 * The request log of tenant-key calls, written before the answer leaves (the tenant-key plugin
 * awaits `write` in its onSend hook): a call the caller saw answered is a committed row, even if
 * the process dies right after. One statement per call inserts the line and moves the key's
 * `last_used_at`, at most once a minute per key (the update only touches a row whose last use is
 * older than a minute, so it is throttled in every server process alike).
 * `flush()` waits for the writes under way (the log screen reads after it; the app flushes on
 * close).
 *
 * The line goes to the database of the key's tenant (its own database, where its key row is; the
 * control database for a tenant still there). The 30-day purge sweeps every database.
 */
import { lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { isEmbedded } from '../../db/client';
import type { Database } from '../../db/client';
import { apiRequestLogs } from '../../db/schema';
import { forEveryDatabase } from '../../db/tenancy/every-database';

export interface RequestLogRow {
  tenantId: number;
  apiKeyId: number;
  at: Date;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  ip: string | null;
}

export interface RequestLogWriter {
  /** Writes the line (resolves once committed; a failure is logged, never thrown). */
  write(row: RequestLogRow): Promise<void>;
  /** Waits for every write under way. */
  flush(): Promise<void>;
  /** Waits for the writes under way and releases the writer's own connections. */
  close(): Promise<void>;
}

export const REQUEST_LOG_DAYS = 30;
/** `last_used_at` moves at most this often per key. */
export const LAST_USE_EVERY_MS = 60_000;

/** pg.Pool and PGlite alike: a parameterised query. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * The tenant's own database, or null while its rows are in the control database (`db`).
 * Absent: every tenant in the control database.
 */
export type OwnDatabaseOf = (tenantId: number) => Promise<Database | null>;

export function createRequestLogWriter(
  db: Database,
  log: FastifyBaseLogger,
  ownDatabaseOf?: OwnDatabaseOf,
): RequestLogWriter {
  const pending = new Set<Promise<void>>();
  const client = (db as unknown as { $client?: unknown }).$client;
  // On PostgreSQL the lines go through two connections of their own that commit without waiting
  // for the WAL flush (synchronous_commit off): once the insert has answered, the line is in the
  // database server and survives this process; only a crash of the database server itself within
  // its WAL writer's delay (a fraction of a second) could lose the newest lines.
  const own =
    client instanceof pg.Pool && !isEmbedded(db)
      ? new pg.Pool({ ...client.options, max: 2, options: '-c synchronous_commit=off' })
      : null;
  own?.on('error', () => {});

  /** One statement: the line, and the key's last use when older than a minute. */
  const LOG_SQL = `
    with logged as (
      insert into api_request_logs (tenant_id, api_key_id, at, method, path, status, duration_ms, ip)
      values ($1, $2, $3::timestamptz, $4, $5, $6, $7, $8)
    ), used as (
      update api_keys set last_used_at = $3::timestamptz
      where id = $2 and tenant_id = $1 and (last_used_at is null or last_used_at < $9::timestamptz)
    )
    select 1`;

  async function insert(r: RequestLogRow): Promise<void> {
    const values = [
      r.tenantId,
      r.apiKeyId,
      r.at.toISOString(),
      r.method,
      r.path,
      r.status,
      r.durationMs,
      r.ip,
      new Date(r.at.getTime() - LAST_USE_EVERY_MS).toISOString(),
    ];
    try {
      // A tenant with its own database: through its pool (a named statement, parsed once per
      // connection, embedded or not).
      const tenantDb = ownDatabaseOf ? await ownDatabaseOf(r.tenantId) : null;
      if (tenantDb)
        await ((tenantDb as unknown as { $client: pg.Pool }).$client as pg.Pool).query({
          name: 'api_request_log_write',
          text: LOG_SQL,
          values,
        });
      // A named statement on PostgreSQL (parsed and planned once per connection); the embedded
      // engine takes the same text with its parameters.
      else if (own) await own.query({ name: 'api_request_log_write', text: LOG_SQL, values });
      else await (client as Queryable).query(LOG_SQL, values);
    } catch (error) {
      log.warn({ err: error }, 'registro delle chiamate API: scrittura non riuscita');
    }
  }

  return {
    write(row) {
      const p = insert(row).finally(() => pending.delete(p));
      pending.add(p);
      return p;
    },
    async flush() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close() {
      while (pending.size > 0) await Promise.all([...pending]);
      await own?.end();
    },
  };
}

/**
 * Deletes log rows older than 30 days (the recurring purge job) in the control database and, when
 * given, every tenant's own database (eight at a time; one that cannot be reached is logged and
 * left to the next night); answers how many.
 */
export async function purgeRequestLog(
  db: Database,
  now: Date,
  options: { tenantDatabases?: () => Promise<Database[]>; log?: FastifyBaseLogger } = {},
): Promise<number> {
  const cutoff = new Date(now.getTime() - REQUEST_LOG_DAYS * 86_400_000);
  let removed = 0;
  await forEveryDatabase(
    db,
    async (database) => {
      const rows = await database
        .delete(apiRequestLogs)
        .where(lt(apiRequestLogs.at, cutoff))
        .returning({ id: apiRequestLogs.id });
      removed += rows.length;
    },
    {
      tenantDatabases: options.tenantDatabases,
      onError: (error) =>
        options.log?.warn({ err: error }, 'registro delle chiamate API: pulizia di un database non riuscita'),
    },
  );
  return removed;
}
