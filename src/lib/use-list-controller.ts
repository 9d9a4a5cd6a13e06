/**
 * The list screen's controller (spec §2 'Shared list screens', §4 'Lists'): paging, page size,
 * filters (draft vs applied), free-text search, row selection, delete with confirmation. The page
 * only renders what this returns.
 *
 * Paging and applied filters live in the URL (?page=2&pageSize=10&q=...&filters[name]=...), so
 * coming back from a form with 'Indietro' lands on the same page with the same filters.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../contract/enums';
import { confirmAction, confirmDelete } from '../components/confirm-delete';
import { uiText } from '../components/ui-text';
import { messages } from '../../contract/messages';
import { entityHooks, errorText, hasValue, toParams, type FilterValue, type Row } from './entity-hooks';
import { notify } from './notify';
import { getPath, formatText } from './formatters';
import { exportRowsCsv } from './export-csv';
import { accessOf, sortKeyOf, type FilterDef, type ResourceDef } from './resource';
import { useCan } from './access';

export type FilterValues = Record<string, FilterValue>;

export interface ListCriteria {
  searchTerm: string;
  filters: FilterValues;
}

const filterParam = (key: string) => `filters[${key}]`;

function emptyFilter(def: FilterDef): FilterValue {
  if (def.kind === 'bool') return false;
  if (def.kind === 'select' || def.kind === 'choice') return null;
  return '';
}

export function emptyCriteria(defs: readonly FilterDef[] = []): ListCriteria {
  return { searchTerm: '', filters: Object.fromEntries(defs.map((d) => [d.key, emptyFilter(d)])) };
}

function readCriteria(defs: readonly FilterDef[], params: URLSearchParams): ListCriteria {
  const filters: FilterValues = {};
  for (const def of defs) {
    const raw = params.get(filterParam(def.key));
    if (def.kind === 'bool') filters[def.key] = raw === 'true';
    else if (def.kind === 'select') {
      const n = raw === null ? NaN : Number(raw);
      filters[def.key] = Number.isInteger(n) && n > 0 ? n : null;
    } else if (def.kind === 'choice') {
      // Only a value the list offers is kept (a hand-edited URL falls back to none).
      const option = def.options.find((o) => String(o.value) === raw);
      filters[def.key] = option ? option.value : null;
    } else filters[def.key] = raw ?? '';
  }
  return { searchTerm: params.get('q') ?? '', filters };
}

function writeCriteria(params: URLSearchParams, defs: readonly FilterDef[], criteria: ListCriteria) {
  const term = criteria.searchTerm.trim();
  if (term) params.set('q', term);
  else params.delete('q');
  for (const def of defs) {
    const v = criteria.filters[def.key];
    if (hasValue(v)) params.set(filterParam(def.key), typeof v === 'string' ? v.trim() : String(v));
    else params.delete(filterParam(def.key));
  }
}

/** The URL's `sort` when it names a sortable column of the resource ('name' or '-name'), else null. */
export function readSort(resource: Pick<ResourceDef, 'columns'>, raw: string | null): SortState | null {
  if (!raw) return null;
  const desc = raw.startsWith('-');
  const key = desc ? raw.slice(1) : raw;
  return resource.columns.some((c) => sortKeyOf(c) === key) ? { key, desc } : null;
}

export interface SortState {
  key: string;
  desc: boolean;
}

/** The text a row is known by: its first column's value ('Lazio', a user's name or e-mail). */
export function rowLabel(
  resource: Pick<ResourceDef, 'columns'>,
  row: Record<string, unknown>,
): string | null {
  const first = resource.columns[0];
  if (!first) return null;
  const v = getPath(row, first.key) ?? (first.fallback ? getPath(row, first.fallback) : undefined);
  const text = formatText(v);
  return text === messages.common.notAvailable ? null : text;
}

function positiveInt(raw: string | null, fallback: number): number {
  const n = raw === null ? NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function useListController<T extends { id: number }>(resource: ResourceDef<T>) {
  const hooks = entityHooks(resource);
  const defs = useMemo(() => resource.filters ?? [], [resource.filters]);
  const [params, setParams] = useSearchParams();

  const page = positiveInt(params.get('page'), 1);
  const sizeParam = positiveInt(params.get('pageSize'), DEFAULT_PAGE_SIZE);
  const pageSize = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_PAGE_SIZE;
  const applied = useMemo(() => readCriteria(defs, params), [defs, params]);
  const appliedKey = JSON.stringify(applied);

  const sort = useMemo(() => readSort(resource, params.get('sort')), [resource, params]);
  const sortParam = sort ? `${sort.desc ? '-' : ''}${sort.key}` : undefined;
  const query = useMemo(
    () => ({ page, pageSize, searchTerm: applied.searchTerm, filters: applied.filters, sort: sortParam }),
    [page, pageSize, applied, sortParam],
  );
  const list = hooks.useList(query);
  const { refetch } = list;
  const rows = useMemo(() => (list.data?.items ?? []) as Row[], [list.data]);
  const totalCount = list.data?.totalCount ?? 0;
  /** The server stopped counting (a capped count): there are more rows than `totalCount`. */
  const totalCountCapped = list.data?.totalCountCapped === true;
  // A capped count keeps one more page reachable, so 'next' always leads further.
  const pageCount = Math.ceil(totalCount / pageSize) + (totalCountCapped ? 1 : 0);

  // List load failures are only logged (spec §8).
  useEffect(() => {
    if (list.error) console.error(`Errore nel caricamento della lista ${resource.name}:`, list.error);
  }, [list.error, resource.name]);

  const update = useCallback(
    (change: (next: URLSearchParams) => void) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          change(next);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const setPage = useCallback(
    (p: number) =>
      update((next) => {
        if (p > 1) next.set('page', String(p));
        else next.delete('page');
      }),
    [update],
  );

  const setPageSize = useCallback(
    (size: number) =>
      update((next) => {
        if (size === DEFAULT_PAGE_SIZE) next.delete('pageSize');
        else next.set('pageSize', String(size));
        next.delete('page');
      }),
    [update],
  );

  /**
   * A header click: ascending, then descending, then the natural order again; back to page 1.
   * Kept in the URL (`sort=name`, `sort=-name`), so 'Indietro' from a form finds it.
   */
  const toggleSort = useCallback(
    (key: string) =>
      update((next) => {
        if (!sort || sort.key !== key) next.set('sort', key);
        else if (!sort.desc) next.set('sort', `-${key}`);
        else next.delete('sort');
        next.delete('page');
      }),
    [update, sort],
  );
  /** Sets the order directly (the phone's 'Ordina per' select); null = natural order. */
  const setSort = useCallback(
    (value: SortState | null) =>
      update((next) => {
        if (value) next.set('sort', `${value.desc ? '-' : ''}${value.key}`);
        else next.delete('sort');
        next.delete('page');
      }),
    [update],
  );

  // After a delete the last page can vanish: step back to the new last page.
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && pageCount > 0 && page > pageCount) setPage(pageCount);
  }, [list.data, list.isPlaceholderData, page, pageCount, setPage]);

  // Draft criteria edited in the filter panel; any change of the applied ones starts a fresh draft.
  const [draftState, setDraftState] = useState({ key: appliedKey, value: applied });
  const draft = draftState.key === appliedKey ? draftState.value : applied;

  const setDraftFilter = (key: string, value: FilterValue) =>
    setDraftState({ key: appliedKey, value: { ...draft, filters: { ...draft.filters, [key]: value } } });
  const setDraftSearch = (searchTerm: string) =>
    setDraftState({ key: appliedKey, value: { ...draft, searchTerm } });

  const activeCount =
    Object.values(applied.filters).filter(hasValue).length + (applied.searchTerm.trim() ? 1 : 0);

  /** Puts `criteria` in the URL, back to page 1; refetches when the URL stays the same. */
  const applyCriteria = (criteria: ListCriteria) => {
    const write = (p: URLSearchParams) => {
      writeCriteria(p, defs, criteria);
      p.delete('page');
    };
    const next = new URLSearchParams(params);
    write(next);
    if (next.toString() === params.toString()) void refetch();
    else update(write);
  };

  /** 'Cerca': apply the draft, back to page 1, refetch (also when nothing changed). */
  const applyFilters = () => applyCriteria(draft);

  /** 'Resetta': text to '', booleans to false, selects to none, back to page 1. */
  const resetFilters = () => {
    const cleared = emptyCriteria(defs);
    setDraftState({ key: appliedKey, value: cleared });
    applyCriteria(cleared);
  };

  // Selection belongs to the rows on screen: a new page or filter starts with none selected.
  const selectionKey = JSON.stringify(query);
  const [selectionState, setSelectionState] = useState<{ key: string; ids: ReadonlySet<number> }>({
    key: selectionKey,
    ids: new Set(),
  });
  const selected = selectionState.key === selectionKey ? selectionState.ids : new Set<number>();
  const visibleSelected = rows.filter((r) => selected.has(r.id)).length;
  const allSelected = rows.length > 0 && visibleSelected === rows.length;
  const someSelected = visibleSelected > 0 && !allSelected;
  const toggleRow = (id: number) => {
    const ids = new Set(selected);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    setSelectionState({ key: selectionKey, ids });
  };
  const toggleAll = () =>
    setSelectionState({ key: selectionKey, ids: allSelected ? new Set() : new Set(rows.map((r) => r.id)) });

  const can = useCan();
  const name = accessOf(resource);
  const canCreate = name !== null && can(name, 'create');
  const canEdit = name !== null && can(name, 'edit');
  const canDelete = name !== null && can(name, 'delete');

  const deletion = hooks.useDelete();
  const remove = async (row: Row) => {
    const label = rowLabel(resource, row);
    if (!(await confirmDelete(label ? `${resource.label} «${label}»` : undefined))) return;
    try {
      await deletion.mutateAsync(row.id);
      if (selected.has(row.id)) {
        const ids = new Set(selected);
        ids.delete(row.id);
        setSelectionState({ key: selectionKey, ids });
      }
    } catch (error) {
      // Region, province, municipality: only logged (spec §8); others may declare a toast.
      console.error(`Errore durante l'eliminazione (${resource.name} ${row.id}):`, error);
      const message = resource.messages?.deleteFailed;
      if (message) notify.error(message(errorText(error)));
    }
  };

  /** Bulk delete of the selected rows on screen: one confirmation that says how many. */
  const removeSelected = async () => {
    const ids = rows.filter((r) => selected.has(r.id)).map((r) => r.id);
    if (ids.length === 0) return;
    const confirmed = await confirmAction({
      title: messages.deleteDialog.title,
      text: uiText.bulkDeleteText(ids.length),
      confirmText: messages.deleteDialog.confirm,
      cancelText: messages.deleteDialog.cancel,
    });
    if (!confirmed) return;
    const failed: number[] = [];
    for (const id of ids) {
      try {
        await deletion.mutateAsync(id);
      } catch (error) {
        console.error(`Errore durante l'eliminazione (${resource.name} ${id}):`, error);
        failed.push(id);
        const message = resource.messages?.deleteFailed;
        if (message) notify.error(message(errorText(error)));
      }
    }
    setSelectionState({ key: selectionKey, ids: new Set(failed) });
  };
  const clearSelection = () => setSelectionState({ key: selectionKey, ids: new Set() });

  /** 'Esporta selezionati': the selected rows on screen as CSV, with the list's columns. */
  const exportSelected = () => {
    const chosen = rows.filter((r) => selected.has(r.id));
    if (chosen.length > 0) exportRowsCsv(resource.name, resource.columns, chosen);
  };

  return {
    resource,
    rows,
    totalCount,
    totalCountCapped,
    pageCount,
    page,
    pageSize,
    setPage,
    setPageSize,
    /** First load (nothing to show yet): skeletons. */
    isLoading: list.isPending,
    /** Any request in flight (including a page change that keeps the old rows on screen). */
    isFetching: list.isFetching,
    isError: list.isError,
    draft,
    activeCount,
    setDraftFilter,
    setDraftSearch,
    applyFilters,
    resetFilters,
    selected,
    allSelected,
    someSelected,
    selectedCount: visibleSelected,
    toggleRow,
    toggleAll,
    canCreate,
    canEdit,
    canDelete,
    remove,
    removeSelected,
    clearSelection,
    exportSelected,
    /** The list's criteria as query parameters without paging (what 'Esporta' sends). */
    exportParams: exportParamsOf(query),
    sort,
    toggleSort,
    setSort,
    /** Criteria are applied: an empty answer means "nothing matches", not "nothing yet". */
    isFiltered: activeCount > 0,
    deletingId: deletion.isPending ? deletion.variables : undefined,
  };
}

export type ListController = ReturnType<typeof useListController>;

function exportParamsOf(query: Parameters<typeof toParams>[0]): Record<string, string | number> {
  const { page: _page, pageSize: _pageSize, ...rest } = toParams(query);
  return rest;
}
