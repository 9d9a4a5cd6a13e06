import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { RoleId } from '../../contract/enums';
import type { FilterKind } from '../../contract/lists/list-spec';
import type { Database } from '../db/client';
import type { GlobalUnitOfWork } from '../unit-of-work/unit-of-work';
import type { ExportSpec } from './export-spec';
import type { SortSpec } from './sort';

/** How a query-string filter matches: text inside (case-insensitive), boolean exact, id exact. */
export type { FilterKind };
export interface FilterSpec {
  column: PgColumn;
  kind: FilterKind;
}

export interface Caller {
  userId: number;
  roleId: RoleId;
  tenantId: number | null;
}

/**
 * Which rows a caller may see and change:
 * - global: reference data, every row (geography);
 * - tenant: rows whose `column` equals the caller's X-Tenant-Id, which the routes then require;
 *   inserts and updates get that tenant id. The column's key must be `tenantId` (see `toRow`).
 *   Later billing entities use this.
 * - rows: a custom row filter (tenants: a SuperAdmin sees all, others their memberships).
 */
export type EntityScope =
  | { kind: 'global' }
  | {
      kind: 'tenant';
      column: PgColumn;
      /** A further restriction inside the tenant (e.g. a User sees only their own addresses). */
      restrict?: (caller: Caller) => SQL | undefined;
    }
  | { kind: 'rows'; filter: (caller: Caller, db: Database) => SQL | undefined };

/**
 * Writes that are more than one insert/update/delete of `table` (several tables, e-mails,
 * rules on who may change what). The generic routes, reads, paging and scope stay as they are.
 * Each runs inside the call's unit of work (`w.tx`, `w.now`, `w.outbox` for e-mails after
 * commit), for a caller that passed the role check; for a tenant-scoped entity
 * `caller.tenantId` is set.
 */
export interface EntityWrites<TInput> {
  /** Returns the new row's id (read back through the entity's select after commit). */
  create(w: GlobalUnitOfWork, caller: Caller, input: TInput): Promise<number>;
  /** Throws a 404 HttpError when `id` is not within the caller's reach. */
  update(w: GlobalUnitOfWork, caller: Caller, id: number, input: TInput): Promise<void>;
  remove(w: GlobalUnitOfWork, caller: Caller, id: number): Promise<void>;
}

/** The part of a list query the entity's own select receives (it owns its joins and order). */
export interface ListWindow {
  where: SQL | undefined;
  /**
   * Set when `where` carries a search term: the caller's scope alone (its tenant), the frame of a
   * bounded walk in the list's order (see the user select's `options`).
   */
  scope?: SQL | undefined;
  limit?: number;
  offset?: number;
  /** The ORDER BY asked with `sort` (replaces the entity's natural order); see sort.ts. */
  orderBy?: SQL[];
}

export interface EntityRoles {
  /** Absent: any signed-in user. */
  read?: readonly RoleId[];
  create: readonly RoleId[];
  update: readonly RoleId[];
  remove: readonly RoleId[];
}

/** Everything the generic CRUD routes need to serve one entity. */
export interface EntityDefinition<TTable extends PgTable, TItem, TInputSchema extends z.ZodObject> {
  /** Route segment: api/{name}/getAll ... */
  name: string;
  table: TTable;
  id: PgColumn;
  scope: EntityScope;
  /** Columns `searchTerm` looks in (case-insensitive, anywhere in the text). */
  searchColumns: readonly PgColumn[];
  /** `filters[key]=` the list and select calls accept. */
  filters: Readonly<Record<string, FilterSpec>>;
  /** `sort=key` / `sort=-key` the list call accepts (the columns where sorting makes sense). */
  sortable?: Readonly<Record<string, SortSpec>>;
  /**
   * The key `list` orders by when no sort is asked (ascending, ties by id: `byName(column, id)`
   * is `textSort(column)`). Exports seek on it (keyset batches); absent, they page with OFFSET.
   */
  naturalOrder?: SortSpec;
  /** Response shape of one item (serialization strips anything else, e.g. secrets). */
  item: z.ZodType<TItem>;
  /**
   * What `caller` may read of an item, applied to every answer and export row (e.g. a User reads
   * a tenant's id and name only). Default: the whole item.
   */
  present?: (caller: Caller, item: TItem) => TItem;
  /**
   * Where a tenant-scoped entity's rows live: the tenant's database (default); the control
   * database whatever the tenant's placement; or 'both': read in the tenant's database, written in
   * a unit over both (members: the identity and membership in the control database, the tenant's
   * record of the person in its own; see server/README 'Tenant databases').
   */
  home?: 'tenant' | 'control' | 'both';
  /**
   * Ids a public call names without the tenant (the plan widget's planId: db/tenancy/public-home.ts):
   * in a tenant's own database a new row takes its id from the control database's sequence and is
   * recorded in `public_ids` under this kind. Needs `home: 'both'`.
   */
  publicId?: string;
  /**
   * After a Create's or an Update's unit committed (work in another database: a tenant's own one),
   * before the answer; a failure answers its error (the write stays committed unless it undoes it).
   * `caller` is who wrote.
   */
  afterCommit?: (id: number, op: 'create' | 'update', caller: Caller) => Promise<void>;
  /** What GetById adds to the presented item for this caller (e.g. a tenant's database for a SuperAdmin). */
  detail?: (caller: Caller, item: TItem) => Promise<TItem>;
  /** Body of Create and (with `id`) Update, from contract/schemas. */
  input: TInputSchema;
  /** Label of the entity in getAllForSelect options. */
  label: (item: TItem) => string;
  /** The entity's select (joins, natural order), restricted by `where` and windowed. */
  list: (db: Database, window: ListWindow) => Promise<TItem[]>;
  /**
   * Counts rows under `where`, stopping at `limit` (capped counts); needed when search or filters
   * use columns of joined tables. Default: count of `table`.
   */
  count?: (db: Database, where: SQL | undefined, limit: number) => Promise<number>;
  /**
   * The free-text search condition, when it is not an ILIKE over `searchColumns` (e.g. one
   * trigram-indexed search column kept by the database).
   */
  search?: (term: string) => SQL;
  /** Just what getAllForSelect needs (id and label), cheaper than the full list. */
  options?: (db: Database, window: ListWindow) => Promise<{ id: number; label: string }[]>;
  /**
   * Column values written by Create and Update. `tenantId` is left out: the repository sets it
   * from the caller's tenant, so no body can move a row to another tenant. A key left
   * undefined is not written by Update (the column keeps its value).
   */
  toRow?: (input: z.output<TInputSchema>, now: Date) => Omit<TTable['$inferInsert'], 'tenantId'>;
  /**
   * Runs after the default Create (`previous` null) or Update (`previous`: the row as it was,
   * read in the caller's scope and locked), in the same unit of work: it may refuse (an
   * HttpError rolls the write back: nothing changes) and may write more, e.g. a secret sealed
   * to the new row's id (lib/secret-box.ts).
   */
  afterWrite?: (
    w: GlobalUnitOfWork,
    id: number,
    input: z.output<TInputSchema>,
    previous: TTable['$inferSelect'] | null,
  ) => Promise<void>;
  /** Replaces the default writes (which need `toRow`). */
  writes?: EntityWrites<z.output<TInputSchema>>;
  roles: EntityRoles;
  /**
   * `GET api/{name}/export?format=csv|xlsx`: the columns the list screen shows (Italian names) and
   * the file name's entity part. The rows are the list's (same scope, search, filters, order).
   */
  export?: ExportSpec<TItem>;
}
