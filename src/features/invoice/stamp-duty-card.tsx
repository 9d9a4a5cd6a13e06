import { useId, useState } from 'react';
import type { StampDutyQuarter } from '../../../contract/schemas/invoice';
import { ReceiptIcon } from '../../components/icons';
import { Skeleton } from '../../components/skeleton';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { useStampDuty } from './api/stamp-duty';

/** The first year of the codici tributo 2521–2524 (e-invoices since 2019). */
const FIRST_YEAR = 2019;

export const stampDutyCardText = {
  title: 'Imposta di bollo (F24)',
  year: 'Anno',
  hint: 'Fatture e note di credito con bollo virtuale da 2,00 €, per trimestre di emissione.',
  quarter: (q: number) => `${q}° trimestre`,
  taxCode: (code: string) => `Codice tributo ${code}`,
  documents: (q: Pick<StampDutyQuarter, 'invoices' | 'creditNotes'>) =>
    q.invoices + q.creditNotes === 0
      ? 'Nessun documento'
      : [
          q.invoices === 1 ? '1 fattura' : q.invoices > 0 ? `${q.invoices} fatture` : '',
          q.creditNotes === 1
            ? '1 nota di credito'
            : q.creditNotes > 0
              ? `${q.creditNotes} note di credito`
              : '',
        ]
          .filter(Boolean)
          .join(', '),
  deadline: (date: string) => `Scadenza ${formatDate(date)}`,
  deferred: (date: string) => `o entro il ${formatDate(date)} (sotto 5.000 €)`,
  total: (year: number, total: number) => `Totale ${year}: ${formatCurrency(total)}`,
  note: 'Sotto 5.000 € il 1° trimestre si può versare entro il 30/09 e il 1° con il 2° entro il 30/11; una scadenza festiva slitta al primo giorno lavorativo.',
};

function QuarterBox({ q }: { q: StampDutyQuarter }) {
  const due = q.count > 0;
  return (
    <li
      className={`rounded-lg border p-3 ${due ? 'border-slate-200 bg-white' : 'border-slate-100 bg-slate-50'}`}
    >
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">{stampDutyCardText.quarter(q.quarter)}</h3>
        {/* Nothing due: quieter, still AA contrast (slate-400 failed axe's color-contrast). */}
        <p
          className={`text-lg tabular-nums ${due ? 'font-semibold text-slate-900' : 'font-medium text-slate-500'}`}
        >
          {formatCurrency(q.total)}
        </p>
      </div>
      <p className="text-xs text-slate-500 tabular-nums">{stampDutyCardText.taxCode(q.taxCode)}</p>
      <p className="mt-1 text-sm text-slate-600">{stampDutyCardText.documents(q)}</p>
      <p className="text-sm text-slate-600 tabular-nums">{stampDutyCardText.deadline(q.deadline)}</p>
      {q.deferredTo && (
        <p className="text-xs text-slate-500 tabular-nums">{stampDutyCardText.deferred(q.deferredTo)}</p>
      )}
    </li>
  );
}

/**
 * 'Imposta di bollo (F24)' (Admin): a year's four quarters, each with its documents, total, codice
 * tributo and deadline, to check the amount the Agenzia pre-fills (docs/fiscal-rules.md).
 */
export function StampDutyCard({ currentYear = new Date().getFullYear() }: { currentYear?: number }) {
  const [year, setYear] = useState(currentYear);
  const summary = useStampDuty(year);
  const selectId = useId();
  const headingId = useId();
  const years = Array.from({ length: Math.max(1, currentYear - FIRST_YEAR + 1) }, (_, i) => currentYear - i);
  const data = summary.data;
  return (
    <section className="card mt-6 p-4 sm:p-5" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
            <ReceiptIcon className="h-4 w-4 text-slate-500" />
            {stampDutyCardText.title}
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">{stampDutyCardText.hint}</p>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-sm font-medium text-slate-700">
            {stampDutyCardText.year}
          </label>
          <select
            id={selectId}
            className="input w-28"
            value={year}
            onChange={(e) => setYear(Number(e.target.value))}
          >
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
      </div>
      {data ? (
        <>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label={stampDutyCardText.title}>
            {data.quarters.map((q) => (
              <QuarterBox key={q.quarter} q={q} />
            ))}
          </ul>
          <div className="mt-3 flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
            <p className="text-sm font-medium text-slate-900 tabular-nums">
              {stampDutyCardText.total(data.year, data.total)}
            </p>
            <p className="text-xs text-slate-500">{stampDutyCardText.note}</p>
          </div>
        </>
      ) : summary.isPending ? (
        <div className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="status" aria-label="Caricamento">
          {[1, 2, 3, 4].map((q) => (
            <Skeleton key={q} className="h-24" />
          ))}
        </div>
      ) : null}
    </section>
  );
}
