import { and, eq, ilike, inArray, or } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../contract/enums';
import { serverMessages } from '../../contract/messages';
import { idInput, idNumber } from '../../contract/schemas/common';
import { HttpError } from '../lib/http-error';
import type { FilterSpec } from './entity';

const MAX_ID = 2_147_483_647;
const pageSize = (fallback: number) =>
  z.coerce
    .number({ error: serverMessages.pageSizeTooLarge })
    .int(serverMessages.pageSizeTooLarge)
    .min(1, serverMessages.pageSizeTooLarge)
    .max(MAX_PAGE_SIZE, serverMessages.pageSizeTooLarge)
    .default(fallback);
/** `filters` arrive as an object thanks to the bracket-aware query parser (lib/querystring.ts). */
const filtersSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional();

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(MAX_ID).default(1),
  pageSize: pageSize(DEFAULT_PAGE_SIZE),
  searchTerm: z.string().trim().max(200).optional(),
  filters: filtersSchema,
  /** An allow-listed column, `-` for descending (checked against the entity in sort.ts). */
  sort: z.string().trim().max(64).optional(),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/**
 * The getAll query of the generic lists: page numbers, or a keyset cursor (`afterId` = the
 * previous answer's `nextAfterId`: the rows after that one in the list's order, no OFFSET).
 */
export const cursorListQuerySchema = listQuerySchema.extend({
  afterId: z.preprocess(idInput, idNumber(1, serverMessages.invalidId)).optional(),
});
export type CursorListQuery = z.output<typeof cursorListQuerySchema>;

/** `selectedIds=1,5` (the SPA's form), or repeated `selectedIds=1&selectedIds=5`. */
const idList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) =>
    (Array.isArray(v) ? v : [v])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d{1,10}$/, serverMessages.invalidId)
          .transform(Number)
          .pipe(idNumber(1, serverMessages.invalidId)),
      )
      .max(MAX_PAGE_SIZE),
  );

export const selectQuerySchema = listQuerySchema.extend({
  pageSize: pageSize(20),
  selectedIds: idList.optional(),
});
export type SelectQuery = z.output<typeof selectQuerySchema>;

/** A path id: digits only (no '0x10', '1e3', ' '), 1 … 2,147,483,647. */
export const idParamsSchema = z.object({
  id: z.preprocess(idInput, idNumber(1, serverMessages.invalidId)),
});

/** LIKE wildcards typed by the user are searched for literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function searchCondition(columns: readonly PgColumn[], term: string | undefined): SQL | undefined {
  if (!term) return undefined;
  const pattern = containsPattern(term);
  return or(...columns.map((c) => ilike(c, pattern)));
}

/**
 * Filter conditions, keys matched case-insensitively to the entity's declared filters. Empty
 * values are ignored (a reset filter panel); an unknown key or a malformed value is a 400, so
 * a typo does not silently return everything.
 */
export function filterConditions(
  specs: Readonly<Record<string, FilterSpec>>,
  filters: ListQuery['filters'],
): SQL[] {
  const byLower = new Map(Object.entries(specs).map(([k, s]) => [k.toLowerCase(), [k, s] as const]));
  const conditions: SQL[] = [];
  const errors: string[] = [];
  for (const [rawKey, rawValue] of Object.entries(filters ?? {})) {
    const value = (Array.isArray(rawValue) ? rawValue[rawValue.length - 1] : rawValue)?.trim() ?? '';
    const found = byLower.get(rawKey.toLowerCase());
    if (!found) {
      errors.push(`filters.${rawKey}: filtro non supportato`);
      continue;
    }
    if (value === '') continue;
    const [key, spec] = found;
    if (spec.kind === 'text') {
      conditions.push(ilike(spec.column, containsPattern(value)));
    } else if (spec.kind === 'bool') {
      const normalized = value.toLowerCase();
      if (normalized === 'true' || normalized === '1') conditions.push(eq(spec.column, true));
      else if (normalized === 'false' || normalized === '0') conditions.push(eq(spec.column, false));
      else errors.push(`filters.${key}: atteso true o false`);
    } else {
      const id = idInput(value);
      if (typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= MAX_ID)
        conditions.push(eq(spec.column, id));
      else errors.push(`filters.${key}: ${serverMessages.invalidId}`);
    }
  }
  if (errors.length > 0) throw new HttpError(400, serverMessages.validation, { errors });
  return conditions;
}

export function whereAll(...conditions: (SQL | undefined)[]): SQL | undefined {
  const present = conditions.filter((c): c is SQL => c !== undefined);
  return present.length === 0 ? undefined : and(...present);
}

export function idIn(column: PgColumn, ids: readonly number[]): SQL {
  return inArray(column, [...ids]);
}
