import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Invoice } from '../../../contract/schemas/invoice';
import { FileCodeIcon, FilePdfIcon } from '../../components/icons';
import { Paginator } from '../../components/paginator';
import { Skeleton } from '../../components/skeleton';
import { fetchList } from '../../lib/entity-hooks';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { useDownloadInvoice } from '../../entities/invoice/invoice-downloads';

const PAGE_SIZE = 20;
const ALL = '';

export const myInvoicesText = {
  title: 'Le mie fatture',
  intro:
    'Fatture e note di credito che il fornitore ti ha emesso. Il file XML è l’originale FatturaPA; il PDF è la copia di cortesia.',
  year: 'Anno',
  allYears: 'Tutti gli anni',
  none: 'Nessuna fattura.',
  noneInYear: (year: string) => `Nessuna fattura nel ${year}.`,
  pdf: (n: string) => `Scarica il PDF di ${n}`,
  xml: (n: string) => `Scarica l’XML di ${n}`,
  loadFailed: 'Non è stato possibile caricare le fatture. Riprova.',
  creditNoteOf: (n: string) => `storna la fattura ${n}`,
};

/** The years the caller has invoices in, newest first: from the newest invoice's to the oldest's. */
function useInvoiceYears(tenantId: number | null) {
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, 'invoice'), 'years'],
    queryFn: async ({ signal }) => {
      const newest = await fetchList<Invoice>('invoice', { page: 1, pageSize: 1 }, signal, tenantId);
      const first = newest.items[0];
      if (!first) return [];
      // The list is newest first: its last page of one holds the oldest invoice.
      const oldest =
        newest.totalCount > 1
          ? (await fetchList<Invoice>('invoice', { page: newest.totalCount, pageSize: 1 }, signal, tenantId))
              .items[0]
          : first;
      const to = Number(first.issueDate.slice(0, 4));
      const from = Number((oldest ?? first).issueDate.slice(0, 4));
      return Array.from({ length: to - from + 1 }, (_, i) => String(to - i));
    },
  });
}

/** The caller's invoices of a year (or all), a page at a time; the server answers a User only theirs. */
function useMyInvoices(tenantId: number | null, year: string, page: number) {
  const query = {
    page,
    pageSize: PAGE_SIZE,
    filters: year ? { from: `${year}-01-01`, to: `${year}-12-31` } : {},
  };
  return useQuery({
    queryKey: queryKeys.list(tenantId, 'invoice', query),
    queryFn: ({ signal }) => fetchList<Invoice>('invoice', query, signal, tenantId),
    placeholderData: keepPreviousData,
  });
}

function InvoiceRow({ invoice }: { invoice: Invoice }) {
  const download = useDownloadInvoice();
  const credit = invoice.documentType === 'TD04';
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 p-4">
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {invoice.documentTypeName} {invoice.number}
        </p>
        <p className="text-sm text-slate-500">
          {formatDate(invoice.issueDate)}
          {credit && invoice.relatedInvoice
            ? ` · ${myInvoicesText.creditNoteOf(invoice.relatedInvoice.number)}`
            : ''}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <span className={`tabular-nums font-semibold ${credit ? 'text-red-700' : 'text-slate-900'}`}>
          {formatCurrency(credit ? -invoice.total : invoice.total)}
        </span>
        <button
          type="button"
          className="btn-secondary min-h-11 px-3"
          aria-label={myInvoicesText.pdf(invoice.number)}
          onClick={() => download.mutate({ invoice, kind: 'pdf' })}
        >
          <FilePdfIcon className="h-4 w-4" /> PDF
        </button>
        <button
          type="button"
          className="btn-secondary min-h-11 px-3"
          aria-label={myInvoicesText.xml(invoice.number)}
          onClick={() => download.mutate({ invoice, kind: 'xml' })}
        >
          <FileCodeIcon className="h-4 w-4" /> XML
        </button>
      </div>
    </li>
  );
}

/** /my/invoices 'Le mie fatture' (issue 28): every invoice and credit note, PDF and XML, by year. */
export default function MyInvoicesPage() {
  const tenantId = useSelectedTenantId();
  const [year, setYear] = useState(ALL);
  const [page, setPage] = useState(1);
  const years = useInvoiceYears(tenantId);
  const list = useMyInvoices(tenantId, year, page);
  const selectId = useId();
  const items = list.data?.items ?? [];
  const pageCount = Math.ceil((list.data?.totalCount ?? 0) / PAGE_SIZE);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="page-title">{myInvoicesText.title}</h1>
          <p className="mt-1 max-w-prose text-sm text-slate-500">{myInvoicesText.intro}</p>
        </div>
        <div>
          <label htmlFor={selectId} className="label">
            {myInvoicesText.year}
          </label>
          <select
            id={selectId}
            className="input w-44"
            value={year}
            onChange={(e) => {
              setYear(e.target.value);
              setPage(1);
            }}
          >
            <option value={ALL}>{myInvoicesText.allYears}</option>
            {(years.data ?? []).map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
      </header>

      {list.isPending ? (
        <div className="card divide-y divide-slate-100" role="status" aria-label="Caricamento fatture">
          {[0, 1, 2].map((i) => (
            <div key={i} className="space-y-2 p-4">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-24" />
            </div>
          ))}
        </div>
      ) : list.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {myInvoicesText.loadFailed}
        </p>
      ) : items.length === 0 ? (
        <p className="card p-6 text-sm text-slate-500">
          {year ? myInvoicesText.noneInYear(year) : myInvoicesText.none}
        </p>
      ) : (
        <ul
          className="card divide-y divide-slate-100"
          aria-label={myInvoicesText.title}
          aria-busy={list.isPlaceholderData || undefined}
        >
          {items.map((i) => (
            <InvoiceRow key={i.id} invoice={i} />
          ))}
        </ul>
      )}
      {pageCount > 1 && <Paginator page={page} pageCount={pageCount} onPageChange={setPage} />}
    </div>
  );
}
