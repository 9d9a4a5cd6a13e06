import { sql } from 'drizzle-orm';
import type { Database } from '../../../server/db/client';

/**
 * Counters of calls (rate limits, on PostgreSQL): a refused call is still counted, by design, so
 * they are no data a call writes.
 */
const CALL_COUNTERS = new Set(['rate_counters', 'api_rate_limits']);

/**
 * A digest of every row of every table of the public schema (order-independent), so a test can
 * prove that a batch of refused calls wrote nothing at all, in any table but the call counters.
 */
export async function databaseFingerprint(db: Database): Promise<Record<string, string>> {
  const tables = (await db.execute(
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as { rows: { name: string }[] };
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    if (CALL_COUNTERS.has(name)) continue;
    const result = (await db.execute(
      sql.raw(
        `select count(*)::text || ':' || coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as f from "${name}" t`,
      ),
    )) as unknown as { rows: { f: string }[] };
    out[name] = result.rows[0]?.f ?? '';
  }
  return out;
}
