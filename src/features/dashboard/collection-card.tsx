/**
 * 'Incassi' on the dashboard (issue 29): what is overdue now (amount and count) and what was
 * recovered this month (amount, count and rate), from `summary.collection`; nothing when the
 * server sends no figures.
 */
import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { CollectionFigures } from '../../../contract/schemas/collection';
import { ArrowRightIcon, WalletIcon } from '../../components/icons';
import { formatCurrency } from '../../lib/formatters';
import { formatRate } from './dashboard-format';

export const collectionCardText = {
  title: 'Incassi',
  overdue: 'In ritardo',
  recovered: 'Recuperati questo mese',
  payments: (n: number) => (n === 1 ? '1 pagamento' : `${n} pagamenti`),
  rate: (rate: number | null) => `Tasso di recupero ${formatRate(rate)}`,
  link: 'Incassi in sospeso',
};

const t = collectionCardText;

export function CollectionCard({ figures }: { figures: CollectionFigures }) {
  const headingId = useId();
  const late = figures.overdue.count > 0;
  return (
    <section className="card p-5" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <WalletIcon className="h-4 w-4 text-slate-500" />
          {t.title}
        </h2>
        <Link to="/collection" className="link inline-flex items-center gap-1 text-sm">
          {t.link}
          <ArrowRightIcon className="h-4 w-4" />
        </Link>
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div className="min-w-0 rounded-lg border border-slate-200 p-4">
          <dt className="text-sm font-medium text-slate-600">{t.overdue}</dt>
          <dd
            className={`text-2xl font-semibold tracking-tight tabular-nums ${late ? 'text-orange-700' : 'text-slate-900'}`}
          >
            {formatCurrency(figures.overdue.amount)}
          </dd>
          <dd className="text-xs text-slate-500 tabular-nums">{t.payments(figures.overdue.count)}</dd>
        </div>
        <div className="min-w-0 rounded-lg border border-slate-200 p-4">
          <dt className="text-sm font-medium text-slate-600">{t.recovered}</dt>
          <dd className="text-2xl font-semibold tracking-tight text-emerald-700 tabular-nums">
            {formatCurrency(figures.recoveredThisMonth.amount)}
          </dd>
          <dd className="text-xs text-slate-500 tabular-nums">
            {t.payments(figures.recoveredThisMonth.count)} · {t.rate(figures.recoveredThisMonth.rate)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
