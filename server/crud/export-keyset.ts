/**
 * Keyset batches of a generic list for exports (issue 14): the list's own select (`def.list`,
 * with its joins, scope, search and filters) called batch after batch with the list's order and
 * a seek condition after the last row sent, `(key, id) > (last key, last id)`, never an OFFSET:
 * batch 100 costs what batch 1 costs, on the same (lower(name), id) indexes the pages use.
 *
 * The order is the list's: the asked `sort` (sort.ts: the key, NULLs last, ties by id in the same
 * direction) or the entity's natural order (`naturalOrder`, what `list` orders by unasked). The
 * last row's key is read back by its id from the list's table (joined through its foreign key
 * when the key is a column of another table, e.g. municipalities by province name). Rows whose
 * key is NULL come last: the batches walk the keyed rows first, then the NULL ones by id.
 */
import { and, asc, desc, eq, is, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { getTableConfig, PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { keyOrder } from './sort';
import type { SortSpec } from './sort';

export interface SeekOrder {
  /** The ORDER BY (the same as sort.ts builds for this key and direction). */
  orderBy: SQL[];
  /** The key of the row `id` (NULL when it has none); `restrict` narrows the row (its tenant). */
  keyOf(db: Database, id: number, restrict: SQL | undefined): Promise<{ value: unknown } | undefined>;
  /** The rows after (key, id) among the keyed ones. */
  after(key: unknown, id: number): SQL;
  /** The rows without a key, after `id` when given. */
  nullsAfter(id: number | undefined): SQL;
}

/**
 * How a list ordered by `spec` seeks, or null when it cannot (a computed key, or a column of a
 * table the list's table has no single foreign key to): those lists export in OFFSET batches.
 */
export function seekOrder(
  table: PgTable,
  id: PgColumn,
  spec: SortSpec,
  descending: boolean,
): SeekOrder | null {
  const column = spec.column;
  if (!is(column, PgColumn)) return null;
  const key = spec.text ? sql`lower(${column})` : sql`${column}`;
  // Read back mapped by the column (a timestamp as a Date…), to go back in through its encoder.
  const read = spec.text ? key : column;
  let lookup: (db: Database, where: SQL | undefined) => Promise<{ value: unknown }[]>;
  if (column.table === table) {
    lookup = (db, where) => db.select({ value: read }).from(table).where(where).limit(1);
  } else {
    // Exactly one foreign key to that table, so the join is the list's (two would be ambiguous).
    const fks = getTableConfig(table)
      .foreignKeys.map((f) => f.reference())
      .filter((r) => r.foreignTable === column.table);
    const fk = fks.length === 1 ? fks[0] : undefined;
    if (!fk) return null;
    const on = and(...fk.columns.map((c, i) => eq(fk.foreignColumns[i] as PgColumn, c)));
    lookup = (db, where) =>
      db.select({ value: read }).from(table).leftJoin(column.table, on).where(where).limit(1);
  }
  const direction = descending ? desc : asc;
  const beyond = descending ? sql.raw('<') : sql.raw('>');
  return {
    orderBy: [keyOrder(column, key, descending, table), direction(id)],
    async keyOf(db, rowId, restrict) {
      const [row] = await lookup(db, and(eq(id, rowId), restrict));
      return row;
    },
    after: (value, rowId) =>
      sql`(${key}, ${id}) ${beyond} (${spec.text ? sql`${value}::text` : sql.param(value, column)}, ${rowId})`,
    nullsAfter: (rowId) =>
      rowId === undefined ? sql`${key} is null` : sql`${key} is null and ${id} ${beyond} ${rowId}`,
  };
}

/**
 * The list's rows in keyset batches of `size`: `page(seek, limit)` is the list's select under its
 * WHERE and `seek` (undefined: from the first row), in `order.orderBy`.
 */
export async function* seekBatches<T>(options: {
  db: Database;
  order: SeekOrder;
  restrict: SQL | undefined;
  page: (seek: SQL | undefined, limit: number) => Promise<T[]>;
  idOf: (row: T) => number;
  size: number;
}): AsyncGenerator<T[]> {
  const { db, order, restrict, page, idOf, size } = options;
  let seek: SQL | undefined;
  let phase: 'start' | 'keyed' | 'nulls' = 'start';
  for (;;) {
    const rows = await page(seek, size);
    if (rows.length > 0) yield rows;
    const last = rows[rows.length - 1];
    if (rows.length < size || last === undefined) {
      // The keyed rows ran out: the rows without a key follow, if any.
      if (phase !== 'keyed') return;
      phase = 'nulls';
      seek = order.nullsAfter(undefined);
      continue;
    }
    const lastId = idOf(last);
    if (phase !== 'nulls') {
      const key = await order.keyOf(db, lastId, restrict);
      if (key === undefined) throw new Error('esportazione: riga scomparsa durante la lettura');
      if (key.value !== null && key.value !== undefined) {
        phase = 'keyed';
        seek = order.after(key.value, lastId);
        continue;
      }
      phase = 'nulls';
    }
    seek = order.nullsAfter(lastId);
  }
}

/**
 * The order an export of the list walks: the asked `sort` (already checked by sort.ts's
 * `sortOrder`, keys case-insensitive, `-` descending) or the natural order; null when unknown.
 */
export function exportOrder(
  def: { sortable?: Readonly<Record<string, SortSpec>>; naturalOrder?: SortSpec },
  raw: string | undefined,
): { spec: SortSpec; descending: boolean } | null {
  const value = raw?.trim() ?? '';
  if (value === '') return def.naturalOrder ? { spec: def.naturalOrder, descending: false } : null;
  const descending = value.startsWith('-');
  const key = (descending ? value.slice(1) : value).toLowerCase();
  const spec = Object.entries(def.sortable ?? {}).find(([k]) => k.toLowerCase() === key)?.[1];
  return spec ? { spec, descending } : null;
}
