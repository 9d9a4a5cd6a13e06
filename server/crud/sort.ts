import { asc, desc, is, sql } from 'drizzle-orm';
import type { SQL, Table } from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import { serverMessages } from '../../contract/messages';
import { validationMessages } from '../../contract/validation/italian';
import { HttpError } from '../lib/http-error';

/**
 * A column a list may be sorted by (`sort=name`, `sort=-name`): text columns sort
 * case-insensitively (`lower(...)`), others by value.
 */
export interface SortSpec {
  column: PgColumn | SQL;
  text?: boolean;
}

/** A text column sorted as people read it (case-insensitive). */
export const textSort = (column: PgColumn): SortSpec => ({ column, text: true });

/**
 * The ORDER BY of `sort` (api-contract: an allow-listed field, `-` for descending), ties broken
 * by id so pages stay stable; undefined when no sort is asked (the entity's natural order).
 * Keys match case-insensitively; an unknown key is a 400 naming the `sort` field.
 */
export function sortOrder(
  allowed: Readonly<Record<string, SortSpec>> | undefined,
  raw: string | undefined,
  id: PgColumn,
): SQL[] | undefined {
  const value = raw?.trim() ?? '';
  if (value === '') return undefined;
  const descending = value.startsWith('-');
  const key = (descending ? value.slice(1) : value).toLowerCase();
  const found = Object.entries(allowed ?? {}).find(([k]) => k.toLowerCase() === key)?.[1];
  if (!found) {
    throw new HttpError(400, serverMessages.validation, {
      errors: [`sort: ${validationMessages.sortUnsupported}`],
    });
  }
  const expression = found.text ? sql`lower(${found.column})` : found.column;
  return [keyOrder(found.column, expression, descending, id.table), (descending ? desc : asc)(id)];
}

/**
 * One sort key's ORDER BY term: NULLs last either way (a missing value is never what a person
 * sorts for). A NOT NULL column of the list's own table has no NULLs, so its descending order is
 * the ascending index read backwards (`desc` alone; `desc nulls last` would not match the index
 * and sort the whole tenant). A column of a joined table keeps the clause: a left join can give
 * NULL whatever its table declares.
 */
export function keyOrder(
  column: PgColumn | SQL,
  expression: PgColumn | SQL,
  descending: boolean,
  listTable: Table,
): SQL {
  const direction = descending ? desc : asc;
  if (is(column, PgColumn) && column.notNull && column.table === listTable)
    return sql`${direction(expression)}`;
  return sql`${direction(expression)} nulls last`;
}
