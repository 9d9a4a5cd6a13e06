import { useId, type ReactNode } from 'react';
import type { DashboardSummary } from '../../../contract/schemas/dashboard';
import { formatCents, formatChange, formatCount, formatRate } from './dashboard-format';
import { dashboardText as t } from './dashboard-text';

/** Month-over-month change of active subscriptions: green when ≥ 0, red when negative, 2 decimals. */
export function MomChange({ change }: { change: number | null }) {
  if (change === null)
    return (
      <p className="text-xs text-slate-500">
        {t.noRate} {t.charts.momLabel}
      </p>
    );
  const up = change >= 0;
  return (
    <p className="text-xs text-slate-500">
      <span
        data-testid="mom-change"
        className={`mr-1 inline-flex items-center rounded-full px-2 py-0.5 font-semibold ${
          up ? 'bg-emerald-50 text-emerald-700' : 'bg-red-50 text-red-700'
        }`}
      >
        {up ? '▲' : '▼'} {formatChange(change)}
      </span>
      {t.charts.momLabel}
    </p>
  );
}

function Card({
  label,
  value,
  hint,
  extra,
}: {
  label: ReactNode;
  value: string;
  hint: string;
  extra?: ReactNode;
}) {
  return (
    <div className="card flex min-w-0 flex-col gap-1 p-5">
      <dt className="flex items-center gap-1.5 text-sm font-medium text-slate-600">{label}</dt>
      <dd className="truncate text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{value}</dd>
      <dd className="text-xs text-slate-500">{hint}</dd>
      {extra}
    </div>
  );
}

/** The explanation of churn, on hover and on keyboard focus (spec: 'hover tooltip explaining churn'). */
function ChurnInfo() {
  const id = useId();
  return (
    <span className="group relative inline-flex">
      <button
        type="button"
        aria-describedby={id}
        aria-label="Cos’è il tasso di churn"
        className="inline-flex h-5 w-5 items-center justify-center rounded-full border border-slate-300 text-[11px] font-semibold text-slate-500 hover:border-brand-blue hover:text-brand-blue"
      >
        ?
      </button>
      <span
        id={id}
        role="tooltip"
        className="pointer-events-none invisible absolute top-7 left-1/2 z-20 w-64 -translate-x-1/2 rounded-lg bg-slate-900 px-3 py-2 text-xs leading-relaxed font-normal text-white opacity-0 shadow-lg transition-opacity group-hover:visible group-hover:opacity-100 group-focus-within:visible group-focus-within:opacity-100"
      >
        {t.kpi.churnTooltip}
      </span>
    </span>
  );
}

/** The four KPI cards: MRR, active subscriptions, churn rate (one decimal), new customers this month. */
export function KpiCards({ summary }: { summary: DashboardSummary }) {
  return (
    <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <Card label={t.kpi.mrr} value={formatCents(summary.mrrCents)} hint={t.kpi.mrrHint} />
      <Card label={t.kpi.active} value={formatCount(summary.activeSubscriptions)} hint={t.kpi.activeHint} />
      <Card
        label={
          <>
            {t.kpi.churn}
            <ChurnInfo />
          </>
        }
        value={formatRate(summary.churnRate)}
        hint={t.kpi.churnHint}
      />
      <Card
        label={t.kpi.newCustomers}
        value={formatCount(summary.newCustomersThisMonth)}
        hint={t.kpi.newCustomersHint}
      />
    </dl>
  );
}
