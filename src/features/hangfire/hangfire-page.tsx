import { jobMessages, messages } from '../../../contract/messages';
import { PageSpinner } from '../../components/spinner';
import { ExportMenu } from '../../components/export-menu';
import { failureEnvelope } from '../../lib/entity-hooks';
import { notify } from '../../lib/notify';
import type { ScreenProps } from '../../lib/resource';
import {
  REFRESH_MS,
  useJobStats,
  useRecentJobs,
  useRecurringJobs,
  type JobState,
  type RecentJob,
} from './api/hangfire-queries';
import { useRetryJob } from './api/retry-job';
import { useTriggerJob } from './api/trigger-job';

/** Counters as cards (the contract's six, then the engine's extra ones when present). */
const COUNTERS: { key: string; label: string; tone: string }[] = [
  { key: 'enqueued', label: 'In coda', tone: 'text-brand-ink' },
  { key: 'scheduled', label: 'Programmati', tone: 'text-slate-700' },
  { key: 'processing', label: 'In esecuzione', tone: 'text-brand-indigo' },
  { key: 'succeeded', label: 'Riusciti', tone: 'text-emerald-600' },
  { key: 'failed', label: 'Falliti', tone: 'text-red-600' },
  { key: 'retrying', label: 'In attesa di nuovo tentativo', tone: 'text-amber-600' },
  { key: 'recurring', label: 'Ricorrenti', tone: 'text-slate-700' },
];

const STATES: Record<JobState, { label: string; className: string }> = {
  enqueued: { label: 'In coda', className: 'bg-blue-50 text-blue-700' },
  scheduled: { label: 'Programmato', className: 'bg-slate-100 text-slate-700' },
  processing: { label: 'In esecuzione', className: 'bg-indigo-50 text-indigo-700' },
  retrying: { label: 'Nuovo tentativo', className: 'bg-amber-50 text-amber-800' },
  succeeded: { label: 'Riuscito', className: 'bg-emerald-50 text-emerald-700' },
  failed: { label: 'Fallito', className: 'bg-red-50 text-red-700' },
  cancelled: { label: 'Annullato', className: 'bg-slate-100 text-slate-500' },
};

const dateTime = new Intl.DateTimeFormat('it-IT', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'Europe/Rome',
});

function argsText(args: Record<string, unknown>): string {
  const entries = Object.entries(args);
  if (entries.length === 0) return 'Tutti i tenant';
  return entries
    .map(([k, v]) => (k === 'tenantId' ? `Tenant ${String(v)}` : `${k}: ${JSON.stringify(v)}`))
    .join(', ');
}

function StateBadge({ state }: { state: JobState | undefined }) {
  const s = state ? STATES[state] : undefined;
  return (
    <span className={`badge ${s?.className ?? 'bg-slate-100 text-slate-600'}`}>
      {s?.label ?? messages.common.notAvailable}
    </span>
  );
}

function RetryButton({ job }: { job: RecentJob }) {
  const retry = useRetryJob();
  return (
    <button
      type="button"
      className="btn-secondary px-3 py-1 text-xs"
      disabled={retry.isPending}
      onClick={() =>
        retry.mutate(job.id, {
          onSuccess: (env) => notify.success(env.message ?? jobMessages.retried),
        })
      }
    >
      Riprova
    </button>
  );
}

function JobRow({ job }: { job: RecentJob }) {
  const attempts =
    job.retryCount !== undefined
      ? `${job.retryCount + 1}${job.retryLimit !== undefined ? ` / ${job.retryLimit + 1}` : ''}`
      : '';
  return (
    <tr className="align-top">
      <td className="px-4 py-3">
        <p className="font-medium text-slate-900">{job.label ?? job.key}</p>
        <p className="font-mono text-xs text-slate-500">{job.key}</p>
      </td>
      <td className="px-4 py-3 text-sm text-slate-700">{argsText(job.args)}</td>
      <td className="px-4 py-3 text-sm whitespace-nowrap text-slate-700">
        {dateTime.format(new Date(job.enqueuedAt))}
      </td>
      <td className="px-4 py-3">
        <StateBadge state={job.state} />
        {attempts && <p className="mt-1 text-xs text-slate-500">Tentativo {attempts}</p>}
      </td>
      <td className="max-w-xs px-4 py-3 text-sm break-words text-red-700">{job.error ?? ''}</td>
      <td className="px-4 py-3 text-right">{job.state === 'failed' && <RetryButton job={job} />}</td>
    </tr>
  );
}

function TriggerButton({ jobKey, label }: { jobKey: string; label: string }) {
  const trigger = useTriggerJob();
  return (
    <button
      type="button"
      className="btn-ghost px-2 py-1 text-xs"
      aria-label={`Esegui ora: ${label}`}
      disabled={trigger.isPending}
      onClick={() =>
        trigger.mutate(jobKey, {
          onSuccess: (env) => notify.success(env.message ?? jobMessages.triggered),
        })
      }
    >
      Esegui ora
    </button>
  );
}

/** /hangfire 'Status aggiornamento subscription' (SuperAdmin): the job engine's counters and recent jobs. */
export default function HangfirePage({ routeLabel }: ScreenProps) {
  const stats = useJobStats();
  const recent = useRecentJobs();
  const recurring = useRecurringJobs();
  const title = routeLabel || jobMessages.title;

  if (stats.isPending || recent.isPending) return <PageSpinner />;
  if (stats.isError || recent.isError)
    return (
      <section className="space-y-6">
        <h1 className="page-title">{title}</h1>
        <p role="alert" className="card px-6 py-5 text-sm text-red-700">
          {failureEnvelope(stats.error ?? recent.error)?.message ?? messages.http.loadError}
        </p>
      </section>
    );
  const counters = stats.data ?? {};
  const jobs = recent.data ?? [];
  return (
    <section className="space-y-6" aria-labelledby="hangfire-title">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 id="hangfire-title" className="page-title">
            {title}
          </h1>
          <p className="mt-1 text-sm text-slate-500">
            Job in background su pg-boss, aggiornati ogni {REFRESH_MS / 1000} secondi.
          </p>
        </div>
      </header>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7">
        {COUNTERS.filter((c) => c.key in counters).map((c) => (
          <div key={c.key} className="card p-4">
            <dt className="text-xs font-medium text-slate-500">{c.label}</dt>
            <dd
              className={`mt-1 text-2xl font-semibold tracking-tight ${c.tone}`}
              data-testid={`counter-${c.key}`}
            >
              {new Intl.NumberFormat('it-IT').format(counters[c.key] ?? 0)}
            </dd>
          </div>
        ))}
      </dl>

      <section className="card overflow-hidden" aria-labelledby="recent-title">
        <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
          <h2 id="recent-title" className="text-base font-semibold text-slate-900">
            Job recenti
          </h2>
          <ExportMenu path="hangfire/export" fileName="job" />
        </div>
        {jobs.length === 0 ? (
          <div className="px-6 py-12 text-center">
            <p className="font-medium text-slate-900">Nessun job eseguito finora</p>
            <p className="mt-1 text-sm text-slate-500">
              I job ricorrenti partono alla loro ora: compariranno qui con il loro stato.
            </p>
          </div>
        ) : (
          // Scrolls sideways on a phone: reachable by keyboard too (tab to it, then the arrows).
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-labelledby="recent-title">
            <table className="min-w-full divide-y divide-slate-200 text-left">
              <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                <tr>
                  <th className="px-4 py-2">Job</th>
                  <th className="px-4 py-2">Argomenti</th>
                  <th className="px-4 py-2">Accodato il</th>
                  <th className="px-4 py-2">Stato</th>
                  <th className="px-4 py-2">Errore</th>
                  <th className="relative px-4 py-2 text-right">
                    <span className="sr-only">{messages.common.actions}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {jobs.map((job) => (
                  <JobRow key={job.id} job={job} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {recurring.data && recurring.data.length > 0 && (
        <section className="card p-4" aria-labelledby="recurring-title">
          <h2 id="recurring-title" className="text-base font-semibold text-slate-900">
            Job ricorrenti
          </h2>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2">
            {recurring.data.map((r) => (
              <li
                key={r.key}
                className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 px-3 py-2"
              >
                <span className="min-w-0">
                  <span className="block text-sm text-slate-700">{r.label}</span>
                  <code className="mt-0.5 inline-block rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                    {r.cron} ({r.timeZone})
                  </code>
                </span>
                <TriggerButton jobKey={r.key} label={r.label} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
