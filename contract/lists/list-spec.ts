/**
 * A list's facts, written once (contract/lists/<entity>.ts) and read by both sides:
 * - the SPA's resource takes its `columns` and `filters` as they are (src/lib/resource.ts);
 * - the server's entity binds each filter and sort key to its SQL (server/crud/list-binding.ts,
 *   whose types require exactly the spec's keys) and writes the export with the spec's headers
 *   and types, reading the row's key unless it gives a value of its own.
 * Only presentation and wire facts live here: no column of the database, no role (contract/access.ts).
 */

/** How a list cell is drawn (spec §2 'Shared list screens'); absent means plain text. */
export type ColumnType = 'text' | 'bool' | 'currency' | 'percent' | 'dateTime' | 'subscriptionstatusenum';

export interface ColumnDef {
  /** Property of the row; a dotted path reads nested objects (`region.name`). */
  key: string;
  /** Column header, Italian. */
  name: string;
  type?: ColumnType;
  /** Long values (keys, URLs): cut with an ellipsis, the whole value on hover. */
  truncate?: boolean;
  /** Where to read the value when `key` is missing (a dotted path), e.g. the e-mail of a nameless customer. */
  fallback?: string;
  /** Amounts read best right-aligned (with tabular figures); currency and percent columns are by default. */
  align?: 'left' | 'right';
  /**
   * The header sorts the list on the server (`sort=key`, `sort=-key`, kept in the URL): true uses
   * the column's key, a string names the server's sort key (e.g. 'region' for `region.name`).
   */
  sortable?: boolean | string;
  /** A column that holds the row's main text (name, e-mail): it gets the room on desktop. */
  grow?: boolean;
}

/** The server sort key of a column, or null when it does not sort. */
export function sortKeyOf(column: ColumnDef): string | null {
  if (!column.sortable) return null;
  return typeof column.sortable === 'string' ? column.sortable : column.key;
}

/** Where a searchable select takes its options: `GET api/{entity}/getAllForSelect`. */
export interface SelectSource {
  entity: string;
  /** Options per request (spec §7: 10 for regions, 20 for provinces and municipalities). */
  pageSize?: number;
}

/** One fixed option of a `choice` field (a value list the spec names, e.g. the six recurrences). */
export interface ChoiceOption {
  /** Numbers for ids (recurrences, roles), strings for codes (the tax regimes RF01…RF19). */
  value: number | string;
  label: string;
}

/** A filter the list screen offers (sent as `filters[key]=<value>`). */
export type FilterDef =
  | { kind: 'text'; key: string; name: string }
  /** `label`: the checkbox's whole text when 'Filtra per {name}' does not read well ('Solo in ritardo'). */
  | { kind: 'bool'; key: string; name: string; label?: string }
  | { kind: 'select'; key: string; name: string; source: SelectSource }
  /** A fixed list of values (e.g. the subscription statuses), sent as `filters[key]=<value>`. */
  | { kind: 'choice'; key: string; name: string; options: readonly ChoiceOption[] };

/** How the server matches a filter: text inside (case-insensitive), boolean exact, id exact. */
export type FilterKind = 'text' | 'bool' | 'id';

/** A filter the API accepts that the list screen does not offer (other screens, API clients). */
export interface ApiFilter {
  key: string;
  kind: FilterKind;
}

/** The server's match of a screen filter: a select or a fixed choice is an exact value. */
export function filterKindOf(filter: FilterDef | ApiFilter): FilterKind {
  switch (filter.kind) {
    case 'text':
    case 'bool':
    case 'id':
      return filter.kind;
    case 'select':
    case 'choice':
      return 'id';
  }
}

/** A value an export writes. */
export type ExportValue = string | number | boolean | Date | null | undefined;
/**
 * How an export column is written: text; integer/number; money (euros, 2 decimals, EUR format);
 * percent (22 means 22 %); date (a 'YYYY-MM-DD' day, or an instant shown as its Rome day);
 * datetime (an instant, shown in Rome time); bool ('Sì'/'No').
 */
export type ExportType = 'text' | 'integer' | 'number' | 'money' | 'percent' | 'date' | 'datetime' | 'bool';

/** An export column: its Italian header, its type, and the row key (dotted path) it reads. */
export interface ExportColumnSpec<K extends string = string> {
  key: K;
  header: string;
  type?: ExportType;
}

/** How a list column's type is exported when the export names the column by its key. */
const exportTypeOfColumn: Partial<Record<ColumnType, ExportType>> = {
  bool: 'bool',
  currency: 'money',
  percent: 'percent',
  dateTime: 'date',
};

type SortKeyOfColumn<C> = C extends { sortable: infer S }
  ? S extends string
    ? S
    : S extends true
      ? C extends { key: infer K extends string }
        ? K
        : never
      : never
  : never;

type ExportEntry<CK extends string> = CK | ExportColumnSpec;
type ExportKeyOfEntry<E> = E extends string ? E : E extends { key: infer K extends string } ? K : never;

export interface ListSpecInput<
  C extends readonly ColumnDef[],
  F extends readonly FilterDef[],
  A extends readonly ApiFilter[],
  X extends readonly ExportEntry<C[number]['key']>[],
> {
  /** The list screen's columns, in order. */
  columns: C;
  /** The filters the list screen offers, in order. */
  filters: F;
  /** Filters the API accepts besides the screen's. */
  apiFilters?: A;
  /**
   * `GET api/{name}/export`: the file name's entity part (the Italian plural, slugged) and its
   * columns in the order the file writes them: a list column's key (its header, its type as
   * exported: currency → money, dateTime → date) or a column of the export's own.
   */
  export?: { fileName: string; sheetName?: string; columns: X };
}

export interface ListSpec<
  C extends readonly ColumnDef[] = readonly ColumnDef[],
  F extends readonly FilterDef[] = readonly FilterDef[],
  A extends readonly ApiFilter[] = readonly ApiFilter[],
  XK extends string = string,
  SK extends string = string,
> {
  columns: C;
  filters: F;
  apiFilters: A;
  /** Every `filters[key]` the API accepts (the screen's, then the API's), with its server match. */
  filterKinds: Readonly<Record<F[number]['key'] | A[number]['key'], FilterKind>>;
  /** The `sort=` keys the API accepts: the sortable columns'. */
  sortKeys: readonly SK[];
  export?: { fileName: string; sheetName?: string; columns: readonly ExportColumnSpec<XK>[] };
}

/** Any list spec (for functions that read one). */
export type AnyListSpec = ListSpec;

export type FilterKeyOf<S extends AnyListSpec> = keyof S['filterKinds'] & string;
export type SortKeyOf<S extends AnyListSpec> = S['sortKeys'][number];
export type ExportKeyOf<S extends AnyListSpec> = NonNullable<S['export']>['columns'][number]['key'];

/** Declares a list spec, keeping its keys' literal types (the server's bindings check them). */
export function defineListSpec<
  const C extends readonly ColumnDef[],
  const F extends readonly FilterDef[],
  const A extends readonly ApiFilter[] = readonly [],
  const X extends readonly ExportEntry<C[number]['key']>[] = readonly [],
>(
  input: ListSpecInput<C, F, A, X>,
): ListSpec<C, F, A, ExportKeyOfEntry<X[number]>, SortKeyOfColumn<C[number]>> {
  const apiFilters = (input.apiFilters ?? []) as unknown as A;
  const filterKinds = Object.fromEntries(
    [...input.filters, ...apiFilters].map((f) => [f.key, filterKindOf(f)]),
  ) as Record<F[number]['key'] | A[number]['key'], FilterKind>;
  const sortKeys = input.columns.flatMap((c) => {
    const key = sortKeyOf(c);
    return key === null ? [] : [key];
  }) as SortKeyOfColumn<C[number]>[];
  const exported = input.export;
  return {
    columns: input.columns,
    filters: input.filters,
    apiFilters,
    filterKinds,
    sortKeys,
    ...(exported
      ? {
          export: {
            fileName: exported.fileName,
            ...(exported.sheetName !== undefined ? { sheetName: exported.sheetName } : {}),
            columns: exported.columns.map((entry) => {
              if (typeof entry !== 'string') return entry;
              const column = input.columns.find((c) => c.key === entry);
              if (!column) throw new Error(`export column ${entry}: not a list column`);
              const type = column.type ? exportTypeOfColumn[column.type] : undefined;
              return { key: entry, header: column.name, ...(type ? { type } : {}) };
            }) as ExportColumnSpec<ExportKeyOfEntry<X[number]>>[],
          },
        }
      : {}),
  };
}
