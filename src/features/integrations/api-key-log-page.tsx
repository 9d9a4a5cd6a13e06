import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { apiKeyScopeLabels } from '../../../contract/integrations';
import { messages } from '../../../contract/messages';
import type { ScreenProps } from '../../lib/resource';
import { PageSpinner } from '../../components/spinner';
import { failureEnvelope } from '../../lib/entity-hooks';
import { useApiKey, useRequestLog, type LogFilters } from './api/api-key-queries';
import { useExportRequestLog } from './api/export-request-log';
import { formatAt, StateBadge } from './shared';

const statusTone = (s: number) =>
  (s < 300 ? 'green' : s < 500 ? 'amber' : 'red') as 'green' | 'amber' | 'red';

/** /apikey/{id}: a key and its request log (30 days), filtered and exportable. */
export default function ApiKeyLogPage({ routeLabel }: ScreenProps) {
  const id = Number(useParams().id);
  const key = useApiKey(id);
  const [filters, setFilters] = useState<LogFilters>({ status: '', method: '', path: '', page: 1 });
  const log = useRequestLog(id, filters);
  const exportLog = useExportRequestLog();
  if (key.isPending) return <PageSpinner />;
  if (key.isError || !key.data)
    return (
      <p role="alert" className="card px-6 py-5 text-sm text-red-700">
        {failureEnvelope(key.error)?.message ?? messages.http.loadError}
      </p>
    );
  const k = key.data;
  const set = (patch: Partial<LogFilters>) => setFilters({ ...filters, ...patch, page: patch.page ?? 1 });
  return (
    <section className="space-y-6" aria-labelledby="apikey-log-title">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm">
            <Link className="link" to="/apikey">
              ← Chiavi API
            </Link>
          </p>
          <h1 id="apikey-log-title" className="page-title mt-1">
            {routeLabel}: {k.name}
          </h1>
          <p className="mt-1 font-mono text-xs text-slate-500">{k.hint}</p>
          <p className="mt-1 text-sm text-slate-500">
            {k.scopes.map((s) => apiKeyScopeLabels[s]).join(', ')} · ultimo uso {formatAt(k.lastUsedAt)}
          </p>
        </div>
        <button type="button" className="btn-secondary" onClick={() => exportLog.mutate({ id, filters })}>
          Esporta CSV
        </button>
      </header>

      <div className="card grid gap-3 p-4 sm:grid-cols-3">
        <div>
          <label className="label" htmlFor="log-status">
            Esito
          </label>
          <select
            id="log-status"
            className="input"
            value={filters.status}
            onChange={(e) => set({ status: e.target.value as LogFilters['status'] })}
          >
            <option value="">Tutti</option>
            <option value="success">Riuscite</option>
            <option value="error">Errori (4xx, 5xx)</option>
          </select>
        </div>
        <div>
          <label className="label" htmlFor="log-method">
            Metodo
          </label>
          <select
            id="log-method"
            className="input"
            value={filters.method}
            onChange={(e) => set({ method: e.target.value })}
          >
            <option value="">Tutti</option>
            <option>GET</option>
            <option>POST</option>
            <option>PUT</option>
            <option>DELETE</option>
          </select>
        </div>
        <div>
          <label className="label" htmlFor="log-path">
            Percorso contiene
          </label>
          <input
            id="log-path"
            className="input"
            value={filters.path}
            onChange={(e) => set({ path: e.target.value })}
            placeholder="/api/v1/entitlements"
          />
        </div>
      </div>

      <section className="card overflow-hidden" aria-label="Registro delle chiamate">
        <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
          Registro delle chiamate (30 giorni)
        </h2>
        {log.isPending ? (
          <p className="px-4 py-6 text-sm text-slate-500">Caricamento…</p>
        ) : (log.data?.items.length ?? 0) === 0 ? (
          <div className="px-6 py-10 text-center">
            <p className="font-medium text-slate-900">Nessuna chiamata</p>
            <p className="mt-1 text-sm text-slate-500">
              Le chiamate fatte con questa chiave compaiono qui (senza i corpi).
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="request-log">
            {log.data?.items.map((r) => (
              <li
                key={r.id}
                className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 px-4 py-3 text-sm sm:grid-cols-[10rem_4rem_minmax(0,1fr)_4rem_5rem_8rem] sm:items-center"
              >
                <span className="text-slate-600">{formatAt(r.at)}</span>
                <span className="font-mono text-xs font-semibold text-slate-700">{r.method}</span>
                <span className="col-span-2 font-mono text-xs break-all text-slate-900 sm:col-span-1">
                  {r.path}
                </span>
                <span>
                  <StateBadge tone={statusTone(r.status)}>{String(r.status)}</StateBadge>
                </span>
                <span className="text-slate-500">{r.durationMs} ms</span>
                <span className="font-mono text-xs text-slate-500">{r.ip ?? ''}</span>
              </li>
            ))}
          </ul>
        )}
        {(filters.page > 1 || log.data?.hasMore) && (
          <div className="flex justify-between border-t border-slate-100 px-4 py-3">
            <button
              type="button"
              className="btn-secondary px-3 py-1 text-xs"
              disabled={filters.page <= 1}
              onClick={() => set({ page: filters.page - 1 })}
            >
              Precedenti
            </button>
            <button
              type="button"
              className="btn-secondary px-3 py-1 text-xs"
              disabled={!log.data?.hasMore}
              onClick={() => set({ page: filters.page + 1 })}
            >
              Successivi
            </button>
          </div>
        )}
      </section>
    </section>
  );
}
