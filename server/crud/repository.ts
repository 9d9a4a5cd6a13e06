import { count, eq, getTableColumns, getTableName, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { countLimitFor, type SelectOption } from '../../contract/envelope';
import { serverMessages } from '../../contract/messages';
import type { Database } from '../db/client';
import { executeRows } from '../db/rows';
import { forgetPublicId, recordPublicId } from '../db/tenancy/public-home';
import { HttpError } from '../lib/http-error';
import type { GlobalUnitOfWork } from '../unit-of-work/unit-of-work';
import type { Caller, EntityDefinition, ListWindow } from './entity';
import { filterConditions, idIn, searchCondition, whereAll } from './list-query';
import type { CursorListQuery, ListQuery, SelectQuery } from './list-query';
import { offsetBatches } from './export';
import { exportOrder, seekBatches, seekOrder } from './export-keyset';
import { sortOrder } from './sort';

export interface CrudRepository<TItem, TInput> {
  list(
    caller: Caller,
    query: CursorListQuery,
  ): Promise<{ items: TItem[]; totalCount: number; totalCountCapped?: true; nextAfterId: number | null }>;
  select(
    caller: Caller,
    query: SelectQuery,
  ): Promise<{ options: SelectOption[]; totalCount: number; totalCountCapped?: true }>;
  get(caller: Caller, id: number): Promise<TItem>;
  /**
   * Every row of the list (all pages) in batches of `size`, for exports: keyset batches on the
   * list's order (export-keyset.ts). The query is checked at once (a bad filter or sort throws).
   */
  batches(
    caller: Caller,
    query: Omit<ListQuery, 'page' | 'pageSize'>,
  ): (size: number) => AsyncIterable<TItem[]>;
  /** Writes run inside the call's unit of work (`w.tx`); reads after commit use the database. */
  create(w: GlobalUnitOfWork, caller: Caller, input: TInput): Promise<number>;
  update(w: GlobalUnitOfWork, caller: Caller, id: number, input: TInput): Promise<void>;
  remove(w: GlobalUnitOfWork, caller: Caller, id: number): Promise<void>;
}

/**
 * Queries of one entity, every one of them restricted to the rows the caller may reach (the
 * entity's scope), so a row of another tenant is never read, changed or counted: it is a 404.
 */
export function createCrudRepository<TTable extends PgTable, TItem, TInputSchema extends z.ZodObject>(
  db: Database,
  def: EntityDefinition<TTable, TItem, TInputSchema>,
): CrudRepository<TItem, z.output<TInputSchema>> {
  const scope = def.scope;
  if (scope.kind === 'tenant' && getTableColumns(def.table)['tenantId'] !== scope.column) {
    throw new Error(`${def.name}: a tenant-scoped table keeps its tenant in a column keyed tenantId`);
  }
  const toRow = def.toRow;
  if (!toRow && !def.writes) throw new Error(`${def.name}: declare toRow or writes`);

  function scopeCondition(caller: Caller): SQL | undefined {
    if (scope.kind === 'global') return undefined;
    if (scope.kind === 'rows') return scope.filter(caller, db);
    if (caller.tenantId === null) throw new HttpError(400, serverMessages.tenantRequired);
    return whereAll(eq(scope.column, caller.tenantId), scope.restrict?.(caller));
  }

  /** The id's property in an insert. */
  const idKey =
    Object.entries(getTableColumns(def.table)).find(([, column]) => column === def.id)?.[0] ?? 'id';

  /** The kind of public id this unit must allocate and record: a tenant in its own database only. */
  function ownPublicId(w: GlobalUnitOfWork): string | undefined {
    return def.publicId && w.control !== undefined && w.control !== w.tx ? def.publicId : undefined;
  }

  function rowValues(caller: Caller, input: z.output<TInputSchema>, now: Date): TTable['$inferInsert'] {
    if (!toRow) throw new Error(`${def.name}: no toRow`);
    const row = toRow(input, now);
    // toRow's type lacks only tenantId, which is added here for tenant-scoped tables.
    return (scope.kind === 'tenant' ? { ...row, tenantId: caller.tenantId } : row) as TTable['$inferInsert'];
  }

  /** Counts at most `limit` rows: the database stops there instead of scanning the tenant. */
  async function countWhere(where: SQL | undefined, limit: number): Promise<number> {
    if (def.count) return def.count(db, where, limit);
    const capped = db
      .select({ one: sql`1` })
      .from(def.table as PgTable)
      .where(where)
      .limit(limit)
      .as('capped');
    const [row] = await db.select({ value: count() }).from(capped);
    return row?.value ?? 0;
  }

  /** Exact up to 10,000 rows (or a deep page plus COUNT_AHEAD); beyond, capped ("oltre …"). */
  async function pagedCount(where: SQL | undefined, page: number, pageSize: number) {
    const limit = countLimitFor((page - 1) * pageSize);
    const n = await countWhere(where, limit);
    return n >= limit ? { totalCount: limit - 1, totalCountCapped: true as const } : { totalCount: n };
  }

  async function get(caller: Caller, id: number): Promise<TItem> {
    const [item] = await def.list(db, { where: whereAll(scopeCondition(caller), eq(def.id, id)), limit: 1 });
    if (item === undefined) throw new HttpError(404, serverMessages.notFound);
    return item;
  }

  function listWhere(caller: Caller, query: ListQuery): SQL | undefined {
    const term = query.searchTerm;
    return whereAll(
      scopeCondition(caller),
      term && def.search ? def.search(term) : searchCondition(def.searchColumns, term),
      ...filterConditions(def.filters, query.filters),
    );
  }

  return {
    async list(caller, query) {
      const where = listWhere(caller, query);
      // The list's order as a keyset (export-keyset.ts): the asked sort or the natural order.
      const asked = exportOrder(def, query.sort);
      const order = asked && seekOrder(def.table, def.id, asked.spec, asked.descending);
      const nextAfterId = (items: TItem[]) => {
        const last = items[items.length - 1];
        return order && last !== undefined && items.length === query.pageSize ? idOf(last) : null;
      };
      if (query.afterId !== undefined) {
        if (!order)
          throw new HttpError(400, serverMessages.validation, {
            errors: [`afterId: ${serverMessages.cursorNotSupported}`],
          });
        // The cursor's row is read in the caller's scope only: another tenant's id positions nothing.
        const key = await order.keyOf(db, query.afterId, scopeCondition(caller));
        if (key === undefined)
          throw new HttpError(400, serverMessages.validation, {
            errors: [`afterId: ${serverMessages.cursorNotFound}`],
          });
        // Rows without a key come last: after a keyed row, the later keyed rows and every keyless one.
        const seek =
          key.value === null || key.value === undefined
            ? order.nullsAfter(query.afterId)
            : or(order.after(key.value, query.afterId), order.nullsAfter(undefined));
        const [items, counted] = await Promise.all([
          def.list(db, { where: whereAll(where, seek), limit: query.pageSize, orderBy: order.orderBy }),
          pagedCount(where, 1, query.pageSize),
        ]);
        return { items, ...counted, nextAfterId: nextAfterId(items) };
      }
      const orderBy = sortOrder(def.sortable, query.sort, def.id);
      const [items, counted] = await Promise.all([
        def.list(db, { where, limit: query.pageSize, offset: (query.page - 1) * query.pageSize, orderBy }),
        pagedCount(where, query.page, query.pageSize),
      ]);
      return { items, ...counted, nextAfterId: nextAfterId(items) };
    },

    async select(caller, query) {
      const where = listWhere(caller, query);
      const selectedIds = query.selectedIds ?? [];
      const window = {
        where,
        scope: query.searchTerm?.trim() ? scopeCondition(caller) : undefined,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      };
      const options = async (w: ListWindow): Promise<SelectOption[]> =>
        def.options
          ? (await def.options(db, w)).map((o) => ({ value: o.id, label: o.label }))
          : (await def.list(db, w)).map((item) => ({ value: idOf(item), label: def.label(item) }));
      const [page, counted] = await Promise.all([
        options(window),
        pagedCount(where, query.page, query.pageSize),
      ]);
      // The current value of a form is always among the options, whatever the search or page;
      // selected rows outside the caller's scope stay invisible.
      const onPage = new Set(page.map((o) => o.value));
      const missing = selectedIds.filter((id) => !onPage.has(id));
      const extra = missing.length
        ? await options({ where: whereAll(scopeCondition(caller), idIn(def.id, missing)) })
        : [];
      return { options: [...extra, ...page], ...counted };
    },

    get,

    batches(caller, query) {
      // Checked now (a bad filter or sort is a 400 before the download starts).
      const where = listWhere(caller, { ...query, page: 1, pageSize: 1 });
      const orderBy = sortOrder(def.sortable, query.sort, def.id);
      const asked = exportOrder(def, query.sort);
      const order = asked && seekOrder(def.table, def.id, asked.spec, asked.descending);
      if (!order) {
        return (size) =>
          offsetBatches((limit, offset) => def.list(db, { where, limit, offset, orderBy }), size);
      }
      const restrict = scope.kind === 'tenant' ? eq(scope.column, caller.tenantId ?? 0) : undefined;
      return (size) =>
        seekBatches({
          db,
          order,
          restrict,
          size,
          idOf,
          page: (seek, limit) =>
            def.list(db, { where: whereAll(where, seek), limit, orderBy: order.orderBy }),
        });
    },

    async create(w, caller, input) {
      scopeCondition(caller); // a tenant-scoped write needs the tenant (400 otherwise)
      if (def.writes) return def.writes.create(w, caller, input);
      const publicId = ownPublicId(w);
      const values = rowValues(caller, input, w.now);
      if (publicId && w.control) {
        const [next] = await executeRows<{ id: number }>(
          w.control,
          sql`select nextval(pg_get_serial_sequence(${getTableName(def.table)}, 'id'))::int as id`,
        );
        (values as Record<string, unknown>)[idKey] = next?.id;
      }
      const [row] = await w.tx.insert(def.table).values(values).returning({ id: def.id });
      if (!row) throw new Error(`${def.name}: insert returned no row`);
      if (publicId && w.control && caller.tenantId !== null)
        await recordPublicId(w.control, publicId, row.id as number, caller.tenantId);
      await def.afterWrite?.(w, row.id as number, input, null);
      return row.id as number;
    },

    async update(w, caller, id, input) {
      if (def.writes) {
        scopeCondition(caller);
        return def.writes.update(w, caller, id, input);
      }
      const where = whereAll(scopeCondition(caller), eq(def.id, id));
      let previous: TTable['$inferSelect'] | null = null;
      if (def.afterWrite) {
        const [stored] = await w.tx
          .select()
          .from(def.table as PgTable)
          .where(where)
          .for('update');
        if (!stored) throw new HttpError(404, serverMessages.notFound);
        previous = stored as TTable['$inferSelect'];
      }
      const [row] = await w.tx
        .update(def.table)
        .set(rowValues(caller, input, w.now))
        .where(where)
        .returning({ id: def.id });
      if (!row) throw new HttpError(404, serverMessages.notFound);
      await def.afterWrite?.(w, id, input, previous);
    },

    async remove(w, caller, id) {
      if (def.writes) {
        scopeCondition(caller);
        return def.writes.remove(w, caller, id);
      }
      const rows = await w.tx
        .delete(def.table)
        .where(whereAll(scopeCondition(caller), eq(def.id, id)))
        .returning({ id: def.id });
      if (rows.length === 0) throw new HttpError(404, serverMessages.notFound);
      const publicId = ownPublicId(w);
      if (publicId && w.control) await forgetPublicId(w.control, publicId, id);
    },
  };
}

function idOf(item: unknown): number {
  const id = (item as { id?: unknown }).id;
  if (typeof id !== 'number') throw new Error('entity item without numeric id');
  return id;
}
