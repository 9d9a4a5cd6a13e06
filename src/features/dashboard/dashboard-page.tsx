import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { messages } from '../../../contract/messages';
import type { CollectionFigures } from '../../../contract/schemas/collection';
import type { DashboardSummary } from '../../../contract/schemas/dashboard';
import { ArrowRightIcon, BuildingIcon, MapIcon, PinIcon } from '../../components/icons';
import { PageSpinner } from '../../components/spinner';
import { useCan } from '../../lib/access';
import { useSession } from '../../lib/session';
import { useDashboardSummary } from './api/dashboard-summary';
import { dashboardText as t } from './dashboard-text';
import { CollectionCard } from './collection-card';
import { KpiCards } from './kpi-cards';
import { TrialsCard } from './trials-card';
import { ReportBar } from './report-bar';
import { useTypedGreeting } from './use-typed-greeting';

/** recharts lives in this chunk only, fetched when the dashboard has data to draw. */
const DashboardCharts = lazy(() => import('./dashboard-charts'));

function Greeting({ name }: { name: string }) {
  const first = t.greeting(name);
  const [a, b, done] = useTypedGreeting(first, t.question);
  return (
    <section className="card relative overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-y-0 right-0 w-2/3 bg-linear-to-l from-brand-indigo/10 via-brand-blue/5 to-transparent"
      />
      <div className="relative px-6 py-7 sm:px-8">
        <p className="text-sm font-medium text-brand-ink">Dashboard</p>
        <h1 className="page-title mt-1 min-h-8" aria-label={`${first} ${t.question}`}>
          <span aria-hidden="true">
            {a}
            {!done && b === '' && <span className="typing-caret" />}
          </span>
        </h1>
        <p className="mt-1 min-h-6 text-base text-slate-600" aria-hidden="true">
          {b}
          {!done && b !== '' && <span className="typing-caret" />}
        </p>
      </div>
    </section>
  );
}

function EmptyState({ summary }: { summary: DashboardSummary }) {
  return (
    <section
      className="card flex flex-col items-center px-6 py-12 text-center"
      aria-labelledby="dashboard-empty"
    >
      <span className="inline-flex h-12 w-12 items-center justify-center rounded-full bg-linear-to-br from-brand-sky to-brand-indigo text-xl text-white shadow-sm">
        ✦
      </span>
      <h2 id="dashboard-empty" className="mt-4 text-lg font-semibold text-slate-900">
        {t.empty.title}
      </h2>
      <p className="mt-1 max-w-lg text-sm text-slate-600">{t.empty.text}</p>
      <ol className="mt-6 flex w-full max-w-md flex-col gap-3 text-left">
        <li className="flex items-center gap-3 rounded-lg border border-slate-200 px-4 py-3">
          <span
            className={`inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
              summary.hasPlans ? 'bg-emerald-100 text-emerald-700' : 'bg-blue-100 text-brand-ink'
            }`}
          >
            {summary.hasPlans ? '✓' : '1'}
          </span>
          {summary.hasPlans ? (
            <span className="text-sm text-slate-500 line-through">{t.empty.planDone}</span>
          ) : (
            <Link to="/plan/new" className="link text-sm">
              {t.empty.planStep}
            </Link>
          )}
        </li>
        <li className="flex items-center gap-3 rounded-lg border border-slate-200 px-4 py-3">
          <span className="inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-blue-100 text-sm font-semibold text-brand-ink">
            2
          </span>
          <Link to="/subscription/new" className="link text-sm">
            {t.empty.subscriptionStep}
          </Link>
        </li>
      </ol>
    </section>
  );
}

function AdminDashboard() {
  const query = useDashboardSummary(true);
  if (query.isPending) return <PageSpinner />;
  if (query.isError || !query.data)
    return (
      <p role="alert" className="card px-6 py-5 text-sm text-red-700">
        {messages.http.loadError}
      </p>
    );
  // Issue 29: the collection figures arrive beside the summary's own, when the server has them.
  const summary: DashboardSummary & { collection?: CollectionFigures } = query.data;
  if (!summary.hasSubscriptions) return <EmptyState summary={summary} />;
  return (
    <div className="space-y-6">
      <ReportBar />
      <KpiCards summary={summary} />
      {summary.collection && <CollectionCard figures={summary.collection} />}
      {summary.trials && summary.trials.running + summary.trials.converted + summary.trials.expired > 0 && (
        <TrialsCard trials={summary.trials} />
      )}
      <Suspense fallback={<PageSpinner />}>
        <DashboardCharts summary={summary} />
      </Suspense>
    </div>
  );
}

const geography: { to: string; title: string; text: string; icon: ReactNode }[] = [
  {
    to: '/region',
    title: 'Regioni',
    text: 'Le 20 regioni italiane con il loro codice.',
    icon: <MapIcon className="h-5 w-5" />,
  },
  {
    to: '/province',
    title: 'Province',
    text: 'Province e sigle, collegate alla regione.',
    icon: <BuildingIcon className="h-5 w-5" />,
  },
  {
    to: '/municipality',
    title: 'Comuni',
    text: 'Comuni con CAP, collegati alla provincia.',
    icon: <PinIcon className="h-5 w-5" />,
  },
];

/** The reference screens that are not in the sidebar (spec §2: region, province, municipality). */
function GeographyLinks() {
  return (
    <section aria-labelledby="geo-title">
      <h2 id="geo-title" className="text-base font-semibold text-slate-900">
        Dati geografici
      </h2>
      <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {geography.map((g) => (
          <li key={g.to}>
            <Link
              to={g.to}
              className="card group flex h-full items-start gap-4 p-5 transition-shadow hover:shadow-md focus-visible:shadow-md"
            >
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-linear-to-br from-brand-sky to-brand-indigo text-white">
                {g.icon}
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex items-center justify-between font-medium text-slate-900">
                  {g.title}
                  <ArrowRightIcon className="h-4 w-4 text-slate-400 transition-transform group-hover:translate-x-0.5 group-hover:text-brand-blue" />
                </span>
                <span className="mt-1 block text-sm text-slate-500">{g.text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The home page (spec §2 'Dashboard home'): the tenant's KPIs and charts from GET api/dashboard/summary. */
export default function DashboardPage() {
  const session = useSession();
  const can = useCan();
  const name = session?.user.name?.trim() || t.greetingFallbackName;
  const isAdmin = can('dashboard', 'read');
  return (
    <div className="space-y-6">
      <Greeting name={name} />
      {isAdmin ? <AdminDashboard /> : <p className="card px-6 py-5 text-sm text-slate-600">{t.userIntro}</p>}
      <GeographyLinks />
    </div>
  );
}
