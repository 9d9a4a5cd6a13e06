/**
 * The four charts (recharts, loaded only with this chunk: the dashboard route lazy-loads it).
 * Heights: 300 px (revenue, plans) and 350 px (count, new vs churn), as the spec sets. No
 * entrance animation: a resize (phone rotation, a full-page capture) would replay it from zero.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { DashboardSummary } from '../../../contract/schemas/dashboard';
import { formatCents, formatCount, formatThousands, planColour } from './dashboard-format';
import { dashboardText as t } from './dashboard-text';
import { MomChange } from './kpi-cards';

const axis = { fontSize: 12, fill: '#64748b' };
const grid = <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />;
const tooltipStyle = { borderRadius: 8, border: '1px solid #e2e8f0', fontSize: 13 };

function ChartCard({
  title,
  hint,
  aside,
  children,
  className = '',
}: {
  title: string;
  hint?: string;
  aside?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section className={`card min-w-0 p-5 ${className}`} aria-label={title}>
      <header className="mb-4 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold text-slate-900">{title}</h2>
          {hint && <p className="mt-0.5 text-xs text-slate-500">{hint}</p>}
        </div>
        {aside}
      </header>
      {children}
    </section>
  );
}

export default function DashboardCharts({ summary }: { summary: DashboardSummary }) {
  const months = summary.months.map((m) => ({ ...m, revenue: m.revenueCents / 100 }));
  const current = summary.months[summary.months.length - 1];
  const plans = summary.plans.filter((p) => p.value > 0);
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <ChartCard title={t.charts.revenue} hint={t.charts.revenueHint} className="lg:col-span-2">
        <div style={{ height: 300 }}>
          <ResponsiveContainer width="100%" height={300}>
            <BarChart data={months} margin={{ top: 4, right: 8, left: 0, bottom: 0 }}>
              {grid}
              <XAxis
                dataKey="label"
                tick={axis}
                tickLine={false}
                axisLine={false}
                interval="preserveStartEnd"
              />
              <YAxis
                tick={axis}
                tickLine={false}
                axisLine={false}
                tickFormatter={formatThousands}
                width={48}
              />
              <Tooltip
                contentStyle={tooltipStyle}
                cursor={{ fill: '#f1f5f9' }}
                formatter={(value) => [formatCents(Math.round(Number(value) * 100)), t.charts.revenueSeries]}
              />
              <Bar
                isAnimationActive={false}
                dataKey="revenue"
                name={t.charts.revenueSeries}
                fill="#3b82f6"
                radius={[6, 6, 0, 0]}
                maxBarSize={40}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </ChartCard>

      <ChartCard title={t.charts.plans} hint={t.charts.plansHint}>
        <div style={{ height: 300 }}>
          <ResponsiveContainer width="100%" height={300}>
            <PieChart>
              <Pie
                isAnimationActive={false}
                data={plans}
                dataKey="value"
                nameKey="name"
                innerRadius="55%"
                outerRadius="80%"
                paddingAngle={2}
                stroke="#fff"
              >
                {plans.map((p, i) => (
                  <Cell key={p.planId} fill={planColour(i)} />
                ))}
              </Pie>
              <Tooltip
                contentStyle={tooltipStyle}
                formatter={(value, name) => [formatCount(Number(value)), name]}
              />
              {/* The plans' own order (so the spec's colours go to the first three), not A–Z. */}
              <Legend iconType="circle" wrapperStyle={{ fontSize: 13 }} itemSorter={null} />
            </PieChart>
          </ResponsiveContainer>
        </div>
      </ChartCard>

      <ChartCard
        title={t.charts.count}
        className="lg:col-span-3 xl:col-span-1"
        aside={
          <div className="text-right">
            <p className="text-2xl font-semibold tracking-tight text-slate-900">
              {formatCount(current?.active ?? 0)}{' '}
              <span className="text-sm font-normal text-slate-500">{t.charts.countCurrent}</span>
            </p>
            <MomChange change={summary.momChange} />
          </div>
        }
      >
        <div style={{ height: 350 }}>
          <ResponsiveContainer width="100%" height={350}>
            <LineChart data={months} margin={{ top: 4, right: 12, left: -16, bottom: 0 }}>
              {grid}
              <XAxis
                dataKey="label"
                tick={axis}
                tickLine={false}
                axisLine={false}
                interval="preserveStartEnd"
              />
              <YAxis tick={axis} tickLine={false} axisLine={false} allowDecimals={false} width={48} />
              <Tooltip
                contentStyle={tooltipStyle}
                formatter={(value) => [formatCount(Number(value)), t.charts.activeSeries]}
              />
              <Line
                isAnimationActive={false}
                type="monotone"
                dataKey="active"
                name={t.charts.activeSeries}
                stroke="#6366f1"
                strokeWidth={2.5}
                dot={{ r: 3, fill: '#6366f1' }}
                activeDot={{ r: 5 }}
              />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </ChartCard>

      <ChartCard title={t.charts.newVsChurn} className="lg:col-span-3 xl:col-span-2">
        <div style={{ height: 350 }}>
          <ResponsiveContainer width="100%" height={350}>
            <BarChart data={months} margin={{ top: 4, right: 8, left: -16, bottom: 0 }}>
              {grid}
              <XAxis
                dataKey="label"
                tick={axis}
                tickLine={false}
                axisLine={false}
                interval="preserveStartEnd"
              />
              <YAxis tick={axis} tickLine={false} axisLine={false} allowDecimals={false} width={48} />
              <Tooltip contentStyle={tooltipStyle} cursor={{ fill: '#f1f5f9' }} />
              <Legend iconType="circle" wrapperStyle={{ fontSize: 13 }} itemSorter={null} />
              <Bar
                isAnimationActive={false}
                dataKey="newSubscriptions"
                name={t.charts.newSeries}
                fill="#0ea5e9"
                radius={[4, 4, 0, 0]}
                maxBarSize={24}
              />
              <Bar
                isAnimationActive={false}
                dataKey="churned"
                name={t.charts.churnSeries}
                fill="#f43f5e"
                radius={[4, 4, 0, 0]}
                maxBarSize={24}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </ChartCard>
    </div>
  );
}
