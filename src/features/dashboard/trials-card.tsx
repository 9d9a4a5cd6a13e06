/**
 * 'Prove gratuite' on the dashboard (issue 30): the trials running now and the trial → paid
 * conversion of the last 12 months, from `summary.trials`; nothing when the server sends no
 * figures or the tenant never had a trial.
 */
import { useId } from 'react';
import type { DashboardSummary } from '../../../contract/schemas/dashboard';
import { ClockIcon } from '../../components/icons';
import { formatCount, formatRate } from './dashboard-format';

export const trialsCardText = {
  title: 'Prove gratuite',
  running: 'Prove in corso',
  runningHint: 'Sottoscrizioni nel periodo di prova, ancora senza pagamento',
  conversion: 'Conversione prove',
  conversionHint: (converted: number, decided: number) =>
    decided === 0
      ? 'Nessuna prova conclusa negli ultimi 12 mesi'
      : `${converted} su ${decided} ${decided === 1 ? 'prova conclusa' : 'prove concluse'} negli ultimi 12 mesi`,
};

const t = trialsCardText;

export function TrialsCard({ trials }: { trials: NonNullable<DashboardSummary['trials']> }) {
  const headingId = useId();
  const decided = trials.converted + trials.expired;
  return (
    <section className="card p-5" aria-labelledby={headingId}>
      <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <ClockIcon className="h-4 w-4 text-slate-500" />
        {t.title}
      </h2>
      <dl className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div className="min-w-0 rounded-lg border border-slate-200 p-4" data-testid="kpi-trials-running">
          <dt className="text-sm font-medium text-slate-600">{t.running}</dt>
          <dd className="text-2xl font-semibold tracking-tight text-slate-900 tabular-nums">
            {formatCount(trials.running)}
          </dd>
          <dd className="text-xs text-slate-500">{t.runningHint}</dd>
        </div>
        <div className="min-w-0 rounded-lg border border-slate-200 p-4" data-testid="kpi-trials-conversion">
          <dt className="text-sm font-medium text-slate-600">{t.conversion}</dt>
          <dd className="text-2xl font-semibold tracking-tight text-emerald-700 tabular-nums">
            {formatRate(trials.conversionRate)}
          </dd>
          <dd className="text-xs text-slate-500 tabular-nums">
            {t.conversionHint(trials.converted, decided)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
