import { useEffect, useRef, type ReactNode } from 'react';
import { messages } from '../../contract/messages';
import type { Row } from '../lib/entity-hooks';
import { alignOf, sortKeyOf, type ColumnDef } from '../lib/resource';
import { getPath } from '../lib/formatters';
import { PHONE_QUERY, useMediaQuery } from '../lib/use-media-query';
import { CellValue } from './cell-value';
import { Skeleton } from './skeleton';
import { uiText } from './ui-text';

export const SKELETON_ROWS = 5;

export interface TableSelection {
  selected: ReadonlySet<number>;
  allSelected: boolean;
  someSelected: boolean;
  toggleRow: (id: number) => void;
  toggleAll: () => void;
}

export interface DataTableProps {
  columns: readonly ColumnDef[];
  rows: readonly Row[];
  /** First load: 5 skeleton rows. */
  isLoading: boolean;
  /** A refetch with old rows still on screen: dimmed. */
  isFetching?: boolean;
  selection?: TableSelection;
  /** Content of the 'Azioni' cell; the column is drawn only when given. */
  renderActions?: (row: Row) => ReactNode;
  /** Accessible name of the table. */
  label: string;
  /** Server-side sorting: the current order and what a header click does. */
  sorting?: TableSorting;
  /**
   * Criteria are applied: an empty answer keeps the spec's empty-list text (§2) and adds, below
   * it, a hint and 'Resetta'.
   */
  filtered?: { onReset: () => void };
}

export interface TableSorting {
  sort: { key: string; desc: boolean } | null;
  onToggle: (key: string) => void;
  /** The phone's 'Ordina per' select (no headers to click there). */
  onSet: (sort: { key: string; desc: boolean } | null) => void;
}

/** The empty state: the spec's text (§2); after a filter, the same text with a hint and 'Resetta'. */
function EmptyState({ filtered }: { filtered?: DataTableProps['filtered'] }) {
  if (!filtered) return <>{messages.common.emptyTable}</>;
  return (
    <div className="flex flex-col items-center gap-3" role="status">
      <p className="font-medium text-slate-700">{messages.common.emptyTable}</p>
      <p className="text-slate-500">{uiText.noMatchesHint}</p>
      <button type="button" className="btn-secondary" onClick={filtered.onReset}>
        {messages.common.reset}
      </button>
    </div>
  );
}

function SortIcon({ state }: { state: 'ascending' | 'descending' | 'none' }) {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className="h-3.5 w-3.5 shrink-0" fill="currentColor">
      <path
        d="M10 3.5 6.5 8h7L10 3.5Z"
        className={state === 'ascending' ? 'text-slate-900' : 'text-slate-300'}
        opacity={state === 'descending' ? 0.35 : 1}
      />
      <path
        d="M10 16.5 13.5 12h-7l3.5 4.5Z"
        className={state === 'descending' ? 'text-slate-900' : 'text-slate-300'}
        opacity={state === 'ascending' ? 0.35 : 1}
      />
    </svg>
  );
}

/** The phone's sort control: one select with each sortable column both ways. */
function PhoneSort({ columns, sorting }: { columns: readonly ColumnDef[]; sorting: TableSorting }) {
  const sortable = columns.filter((c) => sortKeyOf(c) !== null);
  if (sortable.length === 0) return null;
  const value = sorting.sort ? `${sorting.sort.desc ? '-' : ''}${sorting.sort.key}` : '';
  return (
    <div className="flex items-center gap-3 border-b border-slate-100 px-4 py-2.5">
      <label htmlFor="phone-sort" className="shrink-0 text-xs font-medium whitespace-nowrap text-slate-500">
        {uiText.sortBy}
      </label>
      <select
        id="phone-sort"
        className="input min-w-0 flex-1 py-1.5 text-sm"
        value={value}
        onChange={(e) => {
          const v = e.target.value;
          sorting.onSet(v ? { key: v.replace(/^-/, ''), desc: v.startsWith('-') } : null);
        }}
      >
        <option value="">{uiText.sortNatural}</option>
        {sortable.map((c) => {
          const key = sortKeyOf(c) as string;
          return [
            <option key={key} value={key}>
              {uiText.sortAscending(c.name)}
            </option>,
            <option key={`-${key}`} value={`-${key}`}>
              {uiText.sortDescending(c.name)}
            </option>,
          ];
        })}
      </select>
    </div>
  );
}

function SelectAll({ selection, disabled }: { selection: TableSelection; disabled: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selection.someSelected;
  }, [selection.someSelected]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="h-4 w-4 rounded border-slate-300 align-middle accent-brand-blue"
      aria-label={uiText.selectAll}
      checked={selection.allSelected}
      disabled={disabled}
      onChange={selection.toggleAll}
    />
  );
}

// Headers may wrap between words when a wide table (the user list's nine columns) would
// otherwise scroll; values stay on one line.
const th = 'px-2.5 py-3 text-xs font-semibold uppercase tracking-wide text-slate-500 align-bottom';
const td = 'px-2.5 py-3 text-sm text-slate-700 whitespace-nowrap';

/** The full text of a truncated cell, shown on hover. */
function cellTitle(row: Row, key: string): string | undefined {
  const v = getPath(row, key);
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/**
 * On a phone the rows are stacked cards (issue 13): the first column as the title, the others as
 * labelled rows, the actions in reach at the bottom; nothing scrolls sideways.
 */
function CardList({
  columns,
  rows,
  isLoading,
  isFetching,
  selection,
  renderActions,
  label,
  sorting,
  filtered,
}: DataTableProps) {
  const [title, ...rest] = columns;
  return (
    <>
      {sorting && <PhoneSort columns={columns} sorting={sorting} />}
      <ul
        aria-label={label}
        aria-busy={isLoading || isFetching ? true : undefined}
        className={`divide-y divide-slate-100 transition-opacity ${isFetching && !isLoading ? 'opacity-60' : ''}`}
      >
        {isLoading ? (
          Array.from({ length: SKELETON_ROWS }, (_, i) => (
            <li key={`skeleton-${i}`} data-testid="skeleton-row" className="space-y-2 p-4">
              <Skeleton className="h-4 w-1/2" />
              <Skeleton className="h-3 w-3/4" />
              <Skeleton className="h-3 w-2/3" />
            </li>
          ))
        ) : rows.length === 0 ? (
          <li className="px-4 py-14 text-center text-sm text-slate-500">
            <EmptyState filtered={filtered} />
          </li>
        ) : (
          rows.map((row) => {
            const isSelected = selection?.selected.has(row.id) ?? false;
            return (
              <li key={row.id} className={`flex gap-3 p-4 ${isSelected ? 'bg-blue-50/60' : ''}`}>
                {selection && (
                  <input
                    type="checkbox"
                    className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-blue"
                    aria-label={uiText.selectRow(row.id)}
                    checked={isSelected}
                    onChange={() => selection.toggleRow(row.id)}
                  />
                )}
                <div className="min-w-0 flex-1">
                  {title && (
                    <p className="truncate text-sm font-semibold text-slate-900">
                      <CellValue column={title} row={row} />
                    </p>
                  )}
                  {rest.length > 0 && (
                    <dl className="mt-2 grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
                      {rest.map((c) => (
                        <div key={c.key} className="contents">
                          <dt className="text-slate-500">{c.name}</dt>
                          <dd className="min-w-0 text-right text-slate-700 tabular-nums [overflow-wrap:anywhere]">
                            <CellValue column={c} row={row} />
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                  {renderActions && (
                    <div
                      className="-mr-2 mt-2 flex flex-wrap justify-end gap-0.5"
                      role="group"
                      aria-label={uiText.actionsFor(row.id)}
                    >
                      {renderActions(row)}
                    </div>
                  )}
                </div>
              </li>
            );
          })
        )}
      </ul>
    </>
  );
}

/** The list: a table on wider screens (select-all, typed cells, 'Azioni', skeleton and empty states), cards on a phone. */
export function DataTable(props: DataTableProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  return phone ? <CardList {...props} /> : <Table {...props} />;
}

function Table({
  columns,
  rows,
  isLoading,
  isFetching,
  selection,
  renderActions,
  label,
  sorting,
  filtered,
}: DataTableProps) {
  const span = columns.length + (selection ? 1 : 0) + (renderActions ? 1 : 0);
  return (
    <div className="overflow-x-auto">
      <table
        className={`min-w-full divide-y divide-slate-200 transition-opacity ${isFetching && !isLoading ? 'opacity-60' : ''}`}
        aria-label={label}
        aria-busy={isLoading || isFetching ? true : undefined}
      >
        <thead className="bg-slate-50">
          <tr>
            {selection && (
              <th scope="col" className="w-10 py-3 pr-1 pl-4">
                <SelectAll selection={selection} disabled={isLoading || rows.length === 0} />
              </th>
            )}
            {columns.map((c) => {
              const key = sorting ? sortKeyOf(c) : null;
              const right = alignOf(c) === 'right';
              const state =
                key !== null && sorting?.sort?.key === key
                  ? sorting.sort.desc
                    ? ('descending' as const)
                    : ('ascending' as const)
                  : ('none' as const);
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={key !== null ? state : undefined}
                  className={`${th} ${right ? 'text-right' : 'text-left'}`}
                >
                  {key !== null && sorting ? (
                    <button
                      type="button"
                      className={`group/sort relative -mx-1 inline-flex items-center gap-1 rounded px-1 text-inherit uppercase tracking-wide hover:text-slate-900 ${right ? 'flex-row-reverse' : ''} ${state !== 'none' ? 'text-slate-900' : ''}`}
                      onClick={() => sorting.onToggle(key)}
                    >
                      {c.name}
                      {state !== 'none' ? (
                        <SortIcon state={state} />
                      ) : (
                        // Unsorted: the arrows appear on hover or focus, in the gap beside the
                        // header, so nine columns still fit (the user list at 1280 px).
                        <span
                          className={`absolute top-1/2 -translate-y-1/2 opacity-0 transition-opacity group-hover/sort:opacity-100 group-focus-visible/sort:opacity-100 ${right ? '-left-3.5' : '-right-3.5'}`}
                        >
                          <SortIcon state={state} />
                        </span>
                      )}
                    </button>
                  ) : (
                    c.name
                  )}
                </th>
              );
            })}
            {renderActions && (
              <th scope="col" className={`${th} sticky right-0 bg-slate-50 text-right`}>
                {messages.common.actions}
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {isLoading ? (
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <tr key={`skeleton-${i}`} data-testid="skeleton-row">
                {Array.from({ length: span }, (_, j) => (
                  <td key={j} className={td}>
                    <Skeleton className={j === 0 && selection ? 'h-4 w-4' : 'h-4 w-full min-w-16'} />
                  </td>
                ))}
              </tr>
            ))
          ) : rows.length === 0 ? (
            <tr>
              <td colSpan={span} className="px-4 py-14 text-center text-sm text-slate-500">
                <EmptyState filtered={filtered} />
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const isSelected = selection?.selected.has(row.id) ?? false;
              return (
                <tr
                  key={row.id}
                  className={`group transition-colors ${isSelected ? 'bg-blue-50/60' : 'hover:bg-slate-50'}`}
                >
                  {selection && (
                    <td className="w-10 py-3 pr-1 pl-4">
                      <input
                        type="checkbox"
                        className="h-4 w-4 rounded border-slate-300 align-middle accent-brand-blue"
                        aria-label={uiText.selectRow(row.id)}
                        checked={isSelected}
                        onChange={() => selection.toggleRow(row.id)}
                      />
                    </td>
                  )}
                  {columns.map((c, i) => (
                    <td
                      key={c.key}
                      className={`${td} ${i === 0 ? 'font-medium text-slate-900' : ''} ${c.truncate ? (c.grow ? 'max-w-44 truncate' : 'max-w-32 truncate') : ''} ${alignOf(c) === 'right' ? 'text-right tabular-nums' : ''}`}
                      title={c.truncate ? cellTitle(row, c.key) : undefined}
                    >
                      <CellValue column={c} row={row} />
                    </td>
                  ))}
                  {renderActions && (
                    <td
                      className={`sticky right-0 px-2 py-1.5 text-right ${isSelected ? 'bg-blue-50' : 'bg-white group-hover:bg-slate-50'}`}
                    >
                      <div
                        className="inline-flex items-center gap-0.5"
                        role="group"
                        aria-label={uiText.actionsFor(row.id)}
                      >
                        {renderActions(row)}
                      </div>
                    </td>
                  )}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
