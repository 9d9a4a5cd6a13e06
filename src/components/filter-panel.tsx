import { useId, useState, type FormEvent } from 'react';
import { messages } from '../../contract/messages';
import type { FilterValue } from '../lib/entity-hooks';
import type { FilterDef } from '../lib/resource';
import type { ListCriteria } from '../lib/use-list-controller';
import { SearchableSelect } from './fields/searchable-select';
import { ChevronDownIcon, FilterIcon, ResetIcon, SearchIcon } from './icons';
import { Skeleton } from './skeleton';
import { uiText } from './ui-text';
import { PHONE_QUERY } from '../lib/use-media-query';

export const FILTER_PLACEHOLDERS = 6;

/** On a phone the panel starts closed (unless criteria are applied), so the rows show first. */
const isPhone = () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;

export interface FilterPanelProps {
  filters: readonly FilterDef[];
  /** Show the free-text search box. */
  searchable: boolean;
  draft: ListCriteria;
  /** Number of criteria currently applied (badge on the header). */
  activeCount: number;
  onFilterChange: (key: string, value: FilterValue) => void;
  onSearchChange: (value: string) => void;
  onApply: () => void;
  onReset: () => void;
  isLoading: boolean;
  defaultOpen?: boolean;
}

/** 'Filtri di Ricerca': collapsible, 'Cerca' applies (page 1), 'Resetta' clears (page 1). */
export function FilterPanel(props: FilterPanelProps) {
  const { filters, draft, isLoading } = props;
  const [open, setOpen] = useState(() => props.defaultOpen ?? (props.activeCount > 0 || !isPhone()));
  const baseId = useId();
  const bodyId = `${baseId}-body`;
  const headingId = `${baseId}-heading`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onApply();
  };

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="m-0">
        <button
          type="button"
          className="flex w-full items-center gap-3 rounded-xl px-5 py-4 text-left text-sm font-semibold text-slate-900 hover:bg-slate-50"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-blue-50 text-brand-ink">
            <FilterIcon />
          </span>
          <span className="flex-1">{messages.common.filtersTitle}</span>
          {props.activeCount > 0 && (
            <span className="badge bg-brand-blue/10 text-brand-ink" aria-hidden="true">
              {props.activeCount}
            </span>
          )}
          <ChevronDownIcon
            className={`h-4 w-4 text-slate-400 transition-transform duration-200 ${open ? 'rotate-180' : ''}`}
          />
        </button>
      </h2>
      <div id={bodyId} hidden={!open} className="border-t border-slate-100 px-5 pt-4 pb-5">
        {isLoading ? (
          <div
            role="status"
            aria-label={uiText.loadingFilters}
            className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
          >
            {Array.from({ length: FILTER_PLACEHOLDERS }, (_, i) => (
              <div key={i} data-testid="filter-placeholder" className="space-y-2">
                <Skeleton className="h-3.5 w-24" />
                <Skeleton className="h-9 w-full" />
              </div>
            ))}
          </div>
        ) : (
          <form onSubmit={submit} noValidate>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {props.searchable && (
                <div>
                  <label htmlFor={`${baseId}-q`} className="label">
                    {uiText.searchLabel}
                  </label>
                  <div className="relative">
                    <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-400">
                      <SearchIcon />
                    </span>
                    <input
                      id={`${baseId}-q`}
                      type="search"
                      className="input pl-9"
                      placeholder={uiText.searchPlaceholder}
                      value={draft.searchTerm}
                      onChange={(e) => props.onSearchChange(e.target.value)}
                    />
                  </div>
                </div>
              )}
              {filters.map((f) => {
                const inputId = `${baseId}-${f.key}`;
                const value = draft.filters[f.key];
                if (f.kind === 'bool') {
                  return (
                    <div key={f.key} className="flex items-end">
                      <label
                        htmlFor={inputId}
                        className="flex h-[38px] cursor-pointer items-center gap-2 text-sm font-medium text-slate-700"
                      >
                        <input
                          id={inputId}
                          type="checkbox"
                          className="h-4 w-4 rounded border-slate-300 accent-brand-blue"
                          checked={value === true}
                          onChange={(e) => props.onFilterChange(f.key, e.target.checked)}
                        />
                        {f.label ?? messages.common.filterBy(f.name)}
                      </label>
                    </div>
                  );
                }
                return (
                  <div key={f.key}>
                    <label htmlFor={inputId} className="label">
                      {f.name}
                    </label>
                    {f.kind === 'select' ? (
                      <SearchableSelect
                        id={inputId}
                        entity={f.source.entity}
                        pageSize={f.source.pageSize}
                        value={typeof value === 'number' ? value : null}
                        onChange={(v) => props.onFilterChange(f.key, v)}
                        placeholder={messages.common.filterBy(f.name)}
                        loadOnOpen
                      />
                    ) : f.kind === 'choice' ? (
                      <select
                        id={inputId}
                        className="input"
                        value={value === null || value === undefined ? '' : String(value)}
                        onChange={(e) => {
                          const option = f.options.find((o) => String(o.value) === e.target.value);
                          props.onFilterChange(f.key, option ? option.value : null);
                        }}
                      >
                        <option value="">{messages.common.filterBy(f.name)}</option>
                        {f.options.map((o) => (
                          <option key={o.value} value={o.value}>
                            {o.label}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <input
                        id={inputId}
                        type="text"
                        className="input"
                        placeholder={messages.common.filterBy(f.name)}
                        value={typeof value === 'string' ? value : ''}
                        onChange={(e) => props.onFilterChange(f.key, e.target.value)}
                      />
                    )}
                  </div>
                );
              })}
            </div>
            <div className="mt-5 flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={props.onReset}>
                <ResetIcon />
                {messages.common.reset}
              </button>
              <button type="submit" className="btn-primary">
                <SearchIcon />
                {messages.common.search}
              </button>
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
