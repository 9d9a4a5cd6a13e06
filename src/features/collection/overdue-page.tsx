import { useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../../contract/enums';
import {
  ageBuckets,
  type AgeBucketKey,
  type OverdueList,
  type OverduePayment,
} from '../../../contract/schemas/collection';
import { DataTable } from '../../components/data-table';
import { ExportMenu } from '../../components/export-menu';
import { BankIcon, BellIcon, ExternalIcon, SearchIcon, SettingsIcon } from '../../components/icons';
import { PageSizeSelect } from '../../components/page-size-select';
import { Paginator } from '../../components/paginator';
import { Skeleton } from '../../components/skeleton';
import { uiText } from '../../components/ui-text';
import type { Row } from '../../lib/entity-hooks';
import { formatCurrency } from '../../lib/formatters';
import type { ColumnDef } from '../../lib/resource';
import { overdueParams, useLadder, useOverdueList, collectionPaths } from './api/collection-queries';
import { useRemindNow } from './api/remind-now';
import { collectionText, methodNames } from './collection-text';
import { MarkPaidDialog } from './mark-paid-dialog';

const t = collectionText.overdue;
const c = collectionText.columns;

/** The table's columns (the export's are the server's, contract: `collection/overdue/export`). */
export const overdueColumns: readonly ColumnDef[] = [
  { key: 'customer.name', name: c.customer, fallback: 'customer.email', grow: true, truncate: true },
  { key: 'plan.name', name: c.plan, truncate: true },
  { key: 'amountDue', name: c.amount, type: 'currency' },
  { key: 'dueDate', name: c.dueDate, type: 'dateTime' },
  { key: 'daysOverdue', name: c.daysOverdue, align: 'right' },
  { key: 'stepLabel', name: c.step },
  { key: 'lastReminderAt', name: c.lastReminder, type: 'dateTime' },
  { key: 'methodLabel', name: c.method },
];

type OverdueRow = Row & { payment: OverduePayment };

function toRow(p: OverduePayment, steps: number): OverdueRow {
  return {
    ...p,
    id: p.paymentId,
    payment: p,
    stepLabel: t.step(p.step, steps),
    methodLabel: p.method ? methodNames[p.method] : null,
  } as unknown as OverdueRow;
}

const isBucket = (v: string | null): v is AgeBucketKey => ageBuckets.some((b) => b.key === v);

function positiveInt(raw: string | null, fallback: number): number {
  const n = raw === null ? NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Page, page size, search and bucket, kept in the URL (?page=2&q=rossi&bucket=8-30). */
function useOverdueCriteria() {
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const size = positiveInt(params.get('pageSize'), DEFAULT_PAGE_SIZE);
  const pageSize = (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
  const searchTerm = params.get('q') ?? '';
  const rawBucket = params.get('bucket');
  const bucket = isBucket(rawBucket) ? rawBucket : null;
  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const set = (key: string, value: string | null) =>
    update((next) => {
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'page') next.delete('page');
    });
  return {
    query: { page, pageSize, searchTerm, bucket },
    setPage: (p: number) => set('page', p > 1 ? String(p) : null),
    setPageSize: (s: number) => set('pageSize', s === DEFAULT_PAGE_SIZE ? null : String(s)),
    setSearch: (q: string) => set('q', q.trim() || null),
    setBucket: (b: AgeBucketKey | null) => set('bucket', b),
  };
}

function BucketCards({
  data,
  active,
  onSelect,
}: {
  data: OverdueList | undefined;
  active: AgeBucketKey | null;
  onSelect: (b: AgeBucketKey | null) => void;
}) {
  const headingId = useId();
  if (!data)
    return (
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5" role="status" aria-label={uiText.loading}>
        {[1, 2, 3, 4, 5].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
    );
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="sr-only">
        {t.bucketsLabel}
      </h2>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        {ageBuckets.map((b) => {
          const figures = data.buckets.find((x) => x.key === b.key) ?? { count: 0, amount: 0 };
          const pressed = active === b.key;
          const tone =
            b.key === '60+' ? 'text-red-700' : b.key === '31-60' ? 'text-amber-800' : 'text-slate-900';
          return (
            <li key={b.key}>
              <button
                type="button"
                aria-pressed={pressed}
                title={pressed ? t.showAll : t.bucketFilter(b.label)}
                onClick={() => onSelect(pressed ? null : b.key)}
                className={`card flex h-full w-full flex-col items-start gap-0.5 p-4 text-left transition-shadow hover:shadow-md focus-visible:shadow-md ${pressed ? 'ring-2 ring-brand-blue' : ''}`}
              >
                <span className="text-sm font-medium text-slate-600">{b.label}</span>
                <span className={`text-xl font-semibold tabular-nums ${tone}`}>
                  {formatCurrency(figures.amount)}
                </span>
                <span className="text-xs text-slate-500 tabular-nums">{t.payments(figures.count)}</span>
              </button>
            </li>
          );
        })}
        <li className="col-span-2 lg:col-span-1">
          <div className="card flex h-full flex-col gap-0.5 bg-slate-50 p-4">
            <span className="text-sm font-medium text-slate-600">{t.total}</span>
            <span className="text-xl font-semibold text-slate-900 tabular-nums">
              {formatCurrency(data.total.amount)}
            </span>
            <span className="text-xs text-slate-500 tabular-nums">{t.payments(data.total.count)}</span>
          </div>
        </li>
      </ul>
    </section>
  );
}

function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [draft, setDraft] = useState({ from: value, text: value });
  const text = draft.from === value ? draft.text : value;
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(text);
  };
  return (
    <form role="search" onSubmit={submit} className="flex min-w-0 flex-1 items-center gap-2 sm:max-w-md">
      <label htmlFor={id} className="sr-only">
        {t.searchLabel}
      </label>
      <input
        id={id}
        type="search"
        className="input min-w-0 flex-1"
        placeholder={t.searchPlaceholder}
        value={text}
        onChange={(e) => setDraft({ from: value, text: e.target.value })}
      />
      <button type="submit" className="btn-secondary">
        <SearchIcon className="h-4 w-4" />
        {t.search}
      </button>
    </form>
  );
}

/**
 * /collection 'Incassi in sospeso' (Admin, issue 29): the overdue payments by age (each bucket a
 * filter), the paged list (cards on a phone) with 'Sollecita ora', 'Segna come pagato' and the
 * subscription, search and 'Esporta'.
 */
export default function OverduePage() {
  const criteria = useOverdueCriteria();
  const { query } = criteria;
  const list = useOverdueList(query);
  const ladder = useLadder();
  const remind = useRemindNow();
  const [paying, setPaying] = useState<OverduePayment | null>(null);
  const closePaying = useCallback(() => setPaying(null), []);

  const steps = ladder.data?.steps.length ?? 0;
  const rows = useMemo(() => (list.data?.items ?? []).map((p) => toRow(p, steps)), [list.data, steps]);
  const totalCount = list.data?.totalCount ?? 0;
  const pageCount = Math.ceil(totalCount / query.pageSize);
  const from = totalCount === 0 ? 0 : (query.page - 1) * query.pageSize + 1;
  const to = Math.min(query.page * query.pageSize, totalCount);
  const activeBucket = ageBuckets.find((b) => b.key === query.bucket);
  const filtered = Boolean(query.bucket || query.searchTerm);

  const renderActions = (row: Row) => {
    const p = (row as OverdueRow).payment;
    return (
      <>
        <button
          type="button"
          className="icon-btn"
          aria-label={t.remind}
          title={t.remind}
          disabled={remind.isPending && remind.variables === p.paymentId}
          onClick={() => remind.mutate(p.paymentId)}
        >
          <BellIcon className="h-4 w-4" />
        </button>
        <button
          type="button"
          className="icon-btn"
          aria-label={t.markPaid}
          title={t.markPaid}
          onClick={() => setPaying(p)}
        >
          <BankIcon className="h-4 w-4" />
        </button>
        <Link
          to={`/subscription/${p.subscriptionId}`}
          state={{ from: '/collection' }}
          className="icon-btn"
          aria-label={t.openSubscription}
          title={t.openSubscription}
        >
          <ExternalIcon className="h-4 w-4" />
        </Link>
      </>
    );
  };

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="page-title">{t.title}</h1>
          <p className="mt-1 text-sm text-slate-500">{t.intro}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ExportMenu
            path={collectionPaths.overdueExport}
            params={overdueParams(query)}
            fileName="incassi-in-sospeso"
          />
          <Link to="/collection/settings" className="btn-secondary">
            <SettingsIcon className="h-4 w-4" />
            {t.settingsLink}
          </Link>
        </div>
      </header>

      <BucketCards data={list.data ?? undefined} active={query.bucket} onSelect={criteria.setBucket} />

      <div className="flex flex-wrap items-center gap-3">
        <SearchBox value={query.searchTerm} onSearch={criteria.setSearch} />
        {activeBucket && (
          <button
            type="button"
            className="badge bg-brand-blue/10 text-brand-ink"
            onClick={() => criteria.setBucket(null)}
            aria-label={t.removeFilter(activeBucket.label)}
            title={t.showAll}
          >
            {t.filteredBy(activeBucket.label)} ✕
          </button>
        )}
      </div>

      {list.isError && !list.data ? (
        <p role="alert" className="card px-6 py-5 text-sm text-red-700">
          {t.loadError}
        </p>
      ) : (
        <section className="card overflow-hidden">
          <p className="border-b border-slate-100 px-4 py-2.5 text-sm text-slate-500" aria-live="polite">
            {list.isPending ? uiText.loading : uiText.range(from, to, totalCount)}
          </p>
          <DataTable
            label={t.title}
            columns={overdueColumns}
            rows={rows}
            isLoading={list.isPending}
            isFetching={list.isFetching}
            renderActions={renderActions}
            filtered={
              filtered
                ? {
                    onReset: () => {
                      criteria.setBucket(null);
                      criteria.setSearch('');
                    },
                  }
                : undefined
            }
          />
          <footer className="flex flex-col gap-3 border-t border-slate-200 bg-slate-50/60 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
            <PageSizeSelect value={query.pageSize} onChange={criteria.setPageSize} />
            <Paginator page={query.page} pageCount={pageCount} onPageChange={criteria.setPage} />
          </footer>
        </section>
      )}
      {paying && <MarkPaidDialog payment={paying} onClose={closePaying} />}
    </div>
  );
}
