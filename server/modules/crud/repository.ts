import { count, eq, getTableColumns } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { SelectOption } from '../../../contract/envelope';
import { serverMessages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import type { GlobalUnitOfWork } from '../../unit-of-work/unit-of-work';
import type { Caller, EntityDefinition } from './entity';
import { filterConditions, idIn, searchCondition, whereAll } from './list-query';
import type { ListQuery, SelectQuery } from './list-query';
import { sortOrder } from './sort';

export interface CrudRepository<TItem, TInput> {
  list(caller: Caller, query: ListQuery): Promise<{ items: TItem[]; totalCount: number }>;
  select(caller: Caller, query: SelectQuery): Promise<{ options: SelectOption[]; totalCount: number }>;
  get(caller: Caller, id: number): Promise<TItem>;
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

  function rowValues(caller: Caller, input: z.output<TInputSchema>): TTable['$inferInsert'] {
    if (!toRow) throw new Error(`${def.name}: no toRow`);
    const row = toRow(input);
    // toRow's type lacks only tenantId, which is added here for tenant-scoped tables.
    return (scope.kind === 'tenant' ? { ...row, tenantId: caller.tenantId } : row) as TTable['$inferInsert'];
  }

  async function countWhere(where: SQL | undefined): Promise<number> {
    if (def.count) return def.count(db, where);
    const [row] = await db
      .select({ value: count() })
      .from(def.table as PgTable)
      .where(where);
    return row?.value ?? 0;
  }

  async function get(caller: Caller, id: number): Promise<TItem> {
    const [item] = await def.list(db, { where: whereAll(scopeCondition(caller), eq(def.id, id)), limit: 1 });
    if (item === undefined) throw new HttpError(404, serverMessages.notFound);
    return item;
  }

  function listWhere(caller: Caller, query: ListQuery): SQL | undefined {
    return whereAll(
      scopeCondition(caller),
      searchCondition(def.searchColumns, query.searchTerm),
      ...filterConditions(def.filters, query.filters),
    );
  }

  return {
    async list(caller, query) {
      const where = listWhere(caller, query);
      const orderBy = sortOrder(def.sortable, query.sort, def.id);
      const [items, totalCount] = await Promise.all([
        def.list(db, { where, limit: query.pageSize, offset: (query.page - 1) * query.pageSize, orderBy }),
        countWhere(where),
      ]);
      return { items, totalCount };
    },

    async select(caller, query) {
      const where = listWhere(caller, query);
      const selectedIds = query.selectedIds ?? [];
      const [page, totalCount] = await Promise.all([
        def.list(db, { where, limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
        countWhere(where),
      ]);
      // The current value of a form is always among the options, whatever the search or page;
      // selected rows outside the caller's scope stay invisible.
      const onPage = new Set(page.map(idOf));
      const missing = selectedIds.filter((id) => !onPage.has(id));
      const extra = missing.length
        ? await def.list(db, { where: whereAll(scopeCondition(caller), idIn(def.id, missing)) })
        : [];
      const toOption = (item: TItem): SelectOption => ({ value: idOf(item), label: def.label(item) });
      return { options: [...extra.map(toOption), ...page.map(toOption)], totalCount };
    },

    get,

    async create(w, caller, input) {
      scopeCondition(caller); // a tenant-scoped write needs the tenant (400 otherwise)
      if (def.writes) return def.writes.create(w, caller, input);
      const [row] = await w.tx.insert(def.table).values(rowValues(caller, input)).returning({ id: def.id });
      if (!row) throw new Error(`${def.name}: insert returned no row`);
      return row.id as number;
    },

    async update(w, caller, id, input) {
      if (def.writes) {
        scopeCondition(caller);
        return def.writes.update(w, caller, id, input);
      }
      const [row] = await w.tx
        .update(def.table)
        .set(rowValues(caller, input))
        .where(whereAll(scopeCondition(caller), eq(def.id, id)))
        .returning({ id: def.id });
      if (!row) throw new HttpError(404, serverMessages.notFound);
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
    },
  };
}

function idOf(item: unknown): number {
  const id = (item as { id?: unknown }).id;
  if (typeof id !== 'number') throw new Error('entity item without numeric id');
  return id;
}
