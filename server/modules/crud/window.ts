import { asc, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
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
