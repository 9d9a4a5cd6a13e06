/**
 * A list spec (contract/lists) bound to the server's own facts: each filter and sort key to its
 * column or expression, each export column to its value. The bindings' types require exactly the
 * spec's keys (a key added to the spec and not bound, or bound and not in the spec, does not
 * compile); at start-up a missing binding throws all the same.
 */
import type { PgColumn } from 'drizzle-orm/pg-core';
import type {
  AnyListSpec,
  ExportKeyOf,
  ExportValue,
  FilterKeyOf,
  SortKeyOf,
} from '../../contract/lists/list-spec';
import type { FilterSpec } from './entity';
import type { ExportSpec } from './export-spec';
import type { SortSpec } from './sort';

function bound<V>(what: string, keys: readonly string[], bindings: Readonly<Record<string, V | undefined>>) {
  return Object.fromEntries(
    keys.map((key) => {
      const value = bindings[key];
      if (value === undefined) throw new Error(`${what} ${key}: not bound`);
      return [key, value];
    }),
  ) as Readonly<Record<string, V>>;
}

/** `filters[key]=`: each of the spec's filter keys on its column, matched as the spec says. */
export function bindFilters<S extends AnyListSpec>(
  spec: S,
  columns: { readonly [K in FilterKeyOf<S>]: PgColumn },
): Readonly<Record<string, FilterSpec>> {
  const columnOf = bound(
    'filter',
    Object.keys(spec.filterKinds),
    columns as Readonly<Record<string, PgColumn>>,
  );
  return Object.fromEntries(
    Object.entries(spec.filterKinds).map(([key, kind]) => [key, { column: columnOf[key] as PgColumn, kind }]),
  );
}

/** `sort=key`: each of the spec's sort keys on its column or expression. */
export function bindSorts<S extends AnyListSpec>(
  spec: S,
  sorts: { readonly [K in SortKeyOf<S>]: SortSpec },
): Readonly<Record<string, SortSpec>> {
  return bound('sort', spec.sortKeys, sorts as Readonly<Record<string, SortSpec>>);
}

/** The value at a dotted path of a row (undefined past a missing object, as `a?.b` reads it). */
export function valueAt(row: unknown, path: string): ExportValue {
  let value: unknown = row;
  for (const part of path.split('.')) {
    if (value === null || value === undefined) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value as ExportValue;
}

/**
 * The spec's export with its headers and types; each column reads its row key unless `values`
 * gives it a value of its own (a key the export's rows do not hold as such, a masked secret).
 */
export function bindExport<T, S extends AnyListSpec>(
  spec: S,
  values: { readonly [K in ExportKeyOf<S>]?: (row: T) => ExportValue } = {},
): ExportSpec<T> {
  const exported = spec.export;
  if (!exported) throw new Error('the list spec declares no export');
  const own = values as Readonly<Record<string, ((row: T) => ExportValue) | undefined>>;
  return {
    fileName: exported.fileName,
    ...(exported.sheetName !== undefined ? { sheetName: exported.sheetName } : {}),
    columns: exported.columns.map(({ key, header, type }) => ({
      header,
      ...(type ? { type } : {}),
      value: own[key] ?? ((row: T) => valueAt(row, key)),
    })),
  };
}
