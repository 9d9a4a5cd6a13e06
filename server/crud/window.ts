import { asc, count, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import type { ListWindow } from './entity';

/** Applies a list window to an entity's dynamic select (`db.select(...).from(...).$dynamic()`). */
export function windowed<T extends PgSelect>(query: T, window: ListWindow): T {
  let q = query.where(window.where);
  // A dynamic select's orderBy replaces the natural order the entity declared.
  if (window.orderBy && window.orderBy.length > 0) q = q.orderBy(...window.orderBy);
  if (window.limit !== undefined) q = q.limit(window.limit);
  if (window.offset) q = q.offset(window.offset);
  return q;
}

/** Natural name order, stable across pages (ties broken by id); served by the name order index. */
export function byName(name: PgColumn, id: PgColumn): SQL[] {
  return [asc(sql`lower(${name})`), asc(id)];
}

/**
 * `count(*)` of a select's rows, stopping at `limit`: the select is the entity's joins and WHERE
 * (`db.select({ one: sql\`1\` }).from(...).where(where).$dynamic()`), wrapped as
 * `select count(*) from (… limit N)`, so a large tenant is never counted to the end.
 */
export async function countUpTo(db: Database, rows: PgSelect, limit: number): Promise<number> {
  // The generic select's type cannot prove it has a selection; every caller selects `one`.
  const counted = rows.limit(limit).as('counted') as unknown as Parameters<
    ReturnType<Database['select']>['from']
  >[0];
  const [row] = await db.select({ value: count() }).from(counted);
  return row?.value ?? 0;
}
