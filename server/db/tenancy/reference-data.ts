/**
 * The control database's reference data a tenant database keeps a copy of (issue 25): Italian
 * geography, which the tenant's billing addresses and addresses reference by id (foreign keys hold
 * in every database), so its lists and invoices join it where its rows are. The control database
 * stays the one place it is edited; a change there is copied to every tenant database (the
 * `geography` signal of the unit that made it: server/app.ts).
 */
import { asc, getTableColumns, getTableName, gt, inArray, notInArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../client';
import { municipalities, provinces, regions } from '../schema';

/** The unit signal that names a change of geography (copied after commit). */
export const GEOGRAPHY_SIGNAL = 'geography';

const BATCH = 2_000;

type GeoTable = typeof regions | typeof provinces | typeof municipalities;

/** Parents first: a province references its region, a municipality its province. */
const ORDER: GeoTable[] = [regions, provinces, municipalities];

/** Every row of `table` in `from` written into `to` (same ids; changed ones updated), in batches by id. */
async function copyTable(from: Executor, to: Executor, table: GeoTable): Promise<Set<number>> {
  const columns = getTableColumns(table);
  const id = columns.id;
  const seen = new Set<number>();
  let after = 0;
  for (;;) {
    const rows = (await from
      .select()
      .from(table as PgTable)
      .where(gt(id, after))
      .orderBy(asc(id))
      .limit(BATCH)) as Array<{ id: number } & Record<string, unknown>>;
    if (rows.length === 0) break;
    const set = Object.fromEntries(
      Object.entries(columns)
        .filter(([key]) => key !== 'id')
        .map(([key, column]) => [key, sql.raw(`excluded.${column.name}`)]),
    );
    await to
      .insert(table as PgTable)
      .values(rows)
      .onConflictDoUpdate({ target: id, set });
    for (const row of rows) seen.add(row.id);
    after = rows[rows.length - 1]?.id ?? after;
    if (rows.length < BATCH) break;
  }
  return seen;
}

/**
 * Makes `to`'s geography the same as `from`'s: inserts and updates in parent-first order, then
 * removes, children first, what `from` no longer has and nothing in `to` references (a row still
 * referenced by the tenant's data stays: its addresses keep their municipality).
 */
export async function copyGeography(from: Executor, to: Executor): Promise<void> {
  const kept = new Map<GeoTable, Set<number>>();
  for (const table of ORDER) kept.set(table, await copyTable(from, to, table));
  for (const table of [...ORDER].reverse()) {
    const ids = [...(kept.get(table) ?? [])];
    const id = getTableColumns(table).id;
    const stale = await to
      .select({ id })
      .from(table as PgTable)
      .where(ids.length > 0 ? notInArray(id, ids) : undefined);
    for (const row of stale) {
      // One at a time, each in its own savepoint: a referenced row fails alone and stays.
      await to
        .transaction((tx) => tx.delete(table as PgTable).where(inArray(id, [row.id])))
        .catch(() => undefined);
    }
  }
  // Ids given by the control database: the tenant's sequences never hand one out.
  for (const table of ORDER) {
    const name = getTableName(table);
    await to.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${name}', 'id'), greatest((select max(id) from ${name}), 1))`,
      ),
    );
  }
}
