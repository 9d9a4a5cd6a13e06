import { sql } from 'drizzle-orm';
import { bigint, index, integer, timestamp } from 'drizzle-orm/pg-core';
import type { ExtraConfigColumn } from 'drizzle-orm/pg-core';

/** Shared column and index builders, so every table added later gets the same conventions. */
export const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * Indexes behind name search and name order: a trigram GIN index serves `ILIKE '%term%'`
 * (pg_trgm, created by the first migration, loads in PGlite and PostgreSQL alike), and a btree on
 * (lower(name), id) serves the stable natural order of paged lists.
 */
export const searchableNameIndexes = (
  table: string,
  column: ExtraConfigColumn,
  idColumn: ExtraConfigColumn,
) => [
  index(`${table}_name_trgm_idx`).using('gin', column.op('gin_trgm_ops')),
  index(`${table}_name_order_idx`).on(sql`lower(${column})`, idColumn),
];

export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * The same two indexes for a tenant-scoped table's searchable text column: trigram GIN for
 * `ILIKE '%term%'`, and a btree on (tenant, lower(text), id) for the tenant's natural order.
 */
export const tenantSearchIndexes = (
  table: string,
  label: string,
  tenantColumn: ExtraConfigColumn,
  column: ExtraConfigColumn,
  idColumn: ExtraConfigColumn,
) => [
  index(`${table}_${label}_trgm_idx`).using('gin', column.op('gin_trgm_ops')),
  index(`${table}_tenant_${label}_order_idx`).on(tenantColumn, sql`lower(${column})`, idColumn),
];

/** Money in integer euro cents (bigint read as a JS number: exact far beyond any amount accepted). */
export const cents = (name: string) => bigint(name, { mode: 'number' });

/** A moment in time (timestamptz), read as a Date. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
