import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { Row } from '../lib/entity-hooks';
import { createButtonLabel, listTitle, type ResourceDef } from '../lib/resource';
import { useListController } from '../lib/use-list-controller';
import { DataTable } from './data-table';
import { ExportMenu } from './export-menu';
import { FilterPanel } from './filter-panel';
import { DownloadIcon, PencilIcon, PlusIcon, TrashIcon } from './icons';
import { PageSizeSelect } from './page-size-select';
import { Paginator } from './paginator';
import { uiText } from './ui-text';

/** A custom per-row action (icon button); `label` is its Italian accessible name. */
export interface RowAction {
  label: string;
  icon: ReactNode;
  onClick: (row: Row) => void;
  /** Hide the action on some rows (e.g. by status). */
  hidden?: (row: Row) => boolean;
  tone?: 'default' | 'danger';
}

export interface ListPageProps<T extends { id: number }> {
  resource: ResourceDef<T>;
  /** Extra icon buttons in the 'Azioni' column, before edit and delete. */
  rowActions?: readonly RowAction[];
  /** Extra buttons beside 'Crea Nuovo …'. */
  toolbar?: ReactNode;
  /** 'Esporta' (CSV/Excel of the whole filtered list): on by default; false hides it. */
  exportable?: boolean;
  /** Turn off edit or delete even where the role allows them. */
  allowEdit?: boolean;
  allowDelete?: boolean;
}

/** The shared list screen (spec §2): title, create, filters, table, page size, pagination. */
export function ListPage<T extends { id: number }>({
  resource,
  rowActions = [],
  toolbar,
  allowEdit = true,
  allowDelete = true,
  exportable = true,
}: ListPageProps<T>) {
  const c = useListController(resource);
  const location = useLocation();
  // Forms opened from here come back to this very list (page, filters, order) after a save.
  const fromHere = { from: `${location.pathname}${location.search}` };
  const canEdit = allowEdit && c.canEdit;
  const canDelete = allowDelete && c.canDelete;
  const hasActions = rowActions.length > 0 || canEdit || canDelete;
  const from = c.totalCount === 0 ? 0 : (c.page - 1) * c.pageSize + 1;
  const to = Math.min(c.page * c.pageSize, c.totalCount);

  const renderActions = (row: Row) => (
    <>
      {rowActions
        .filter((a) => !a.hidden?.(row))
        .map((a) => (
          <button
            key={a.label}
            type="button"
            className={`icon-btn ${a.tone === 'danger' ? 'hover:bg-red-50 hover:text-red-600' : ''}`}
            aria-label={a.label}
            title={a.label}
            onClick={() => a.onClick(row)}
          >
            {a.icon}
          </button>
        ))}
      {canEdit && (
        <Link
          to={`/${resource.name}/${row.id}`}
          state={fromHere}
          className="icon-btn"
          aria-label={uiText.edit}
          title={uiText.edit}
        >
          <PencilIcon />
        </Link>
      )}
      {canDelete && (
        <button
          type="button"
          className="icon-btn hover:bg-red-50 hover:text-red-600"
          aria-label={uiText.delete}
          title={uiText.delete}
          disabled={c.deletingId === row.id}
          onClick={() => void c.remove(row)}
        >
          <TrashIcon />
        </button>
      )}
    </>
  );

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="page-title">{listTitle(resource)}</h1>
          <p className="mt-1 text-sm text-slate-500" aria-live="polite">
            {c.isLoading ? uiText.loading : uiText.range(from, to, c.totalCount, c.totalCountCapped)}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {toolbar}
          {exportable && (
            <ExportMenu path={`${resource.name}/export`} params={c.exportParams} fileName={resource.name} />
          )}
          {c.canCreate && (
            <Link
              to={resource.createPath ?? `/${resource.name}/new`}
              state={fromHere}
              className="btn-primary"
            >
              <PlusIcon />
              {createButtonLabel(resource)}
            </Link>
          )}
        </div>
      </header>

      {(resource.filters?.length || resource.searchable !== false) && (
        <FilterPanel
          filters={resource.filters ?? []}
          searchable={resource.searchable !== false}
          draft={c.draft}
          activeCount={c.activeCount}
          onFilterChange={c.setDraftFilter}
          onSearchChange={c.setDraftSearch}
          onApply={c.applyFilters}
          onReset={c.resetFilters}
          isLoading={c.isLoading}
        />
      )}

      <section className="card overflow-hidden">
        <DataTable
          label={listTitle(resource)}
          columns={resource.columns}
          rows={c.rows}
          isLoading={c.isLoading}
          isFetching={c.isFetching}
          // Selection only where something can be done with it (bulk delete); read-only lists have none.
          selection={
            canDelete
              ? {
                  selected: c.selected,
                  allSelected: c.allSelected,
                  someSelected: c.someSelected,
                  toggleRow: c.toggleRow,
                  toggleAll: c.toggleAll,
                }
              : undefined
          }
          renderActions={hasActions ? renderActions : undefined}
          sorting={{ sort: c.sort, onToggle: c.toggleSort, onSet: c.setSort }}
          filtered={c.isFiltered ? { onReset: c.resetFilters } : undefined}
        />
        <footer className="flex flex-col gap-3 border-t border-slate-200 bg-slate-50/60 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-wrap items-center gap-4">
            <PageSizeSelect value={c.pageSize} onChange={c.setPageSize} />
            {canDelete && c.selectedCount > 0 && (
              <div
                className="flex flex-wrap items-center gap-2"
                role="group"
                aria-label={uiText.selectedCount(c.selectedCount)}
              >
                <span className="text-sm font-medium text-slate-700" aria-live="polite">
                  {uiText.selectedCount(c.selectedCount)}
                </span>
                <button
                  type="button"
                  className="btn-danger px-3 py-1.5"
                  onClick={() => void c.removeSelected()}
                >
                  <TrashIcon />
                  {uiText.bulkDelete}
                </button>
                <button type="button" className="btn-secondary px-3 py-1.5" onClick={c.exportSelected}>
                  <DownloadIcon />
                  {uiText.exportSelected}
                </button>
                <button type="button" className="btn-ghost px-3 py-1.5" onClick={c.clearSelection}>
                  {uiText.clearSelection}
                </button>
              </div>
            )}
          </div>
          <Paginator page={c.page} pageCount={c.pageCount} onPageChange={c.setPage} />
        </footer>
      </section>
    </div>
  );
}
