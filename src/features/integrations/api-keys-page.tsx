import { useCallback, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  API_KEY_SCOPES,
  apiKeyScopeLabels,
  type ApiKeyCreated,
  type ApiKeyItem,
  type ApiKeyScope,
} from '../../../contract/integrations';
import { integrationMessages as m, messages } from '../../../contract/messages';
import type { ScreenProps } from '../../lib/resource';
import { PageSpinner } from '../../components/spinner';
import { confirmAction } from '../../components/confirm-delete';
import { Modal } from '../../components/modal';
import { failureEnvelope, serverErrors } from '../../lib/entity-hooks';
import { notify } from '../../lib/notify';
import { useApiKeys } from './api/api-key-queries';
import { useCreateKey } from './api/create-api-key';
import { useRevokeKey } from './api/revoke-api-key';
import { useRotateKey } from './api/rotate-api-key';
import { RateLimitsCard } from './rate-limits-card';
import { formatAt, SecretOnce, StateBadge } from './shared';

const STATE: Record<ApiKeyItem['state'], { label: string; tone: 'green' | 'red' | 'slate' }> = {
  active: { label: 'Attiva', tone: 'green' },
  expired: { label: 'Scaduta', tone: 'slate' },
  revoked: { label: 'Revocata', tone: 'red' },
};

function CreateKeyDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (k: ApiKeyCreated) => void;
}) {
  const create = useCreateKey();
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['entitlements']);
  const [expiry, setExpiry] = useState('');
  const [errors, setErrors] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, mode, scopes, expiresAt: expiry ? new Date(`${expiry}T23:59:59`).toISOString() : null },
      {
        onSuccess: (env) => {
          if (env.data) onCreated(env.data);
        },
        onError: (error) =>
          setErrors(
            serverErrors(error).length
              ? serverErrors(error)
              : [failureEnvelope(error)?.message ?? messages.http.saveError],
          ),
      },
    );
  };
  return (
    <Modal
      title="Nuova chiave API"
      description="La chiave agisce solo in questo tenant e solo con gli ambiti scelti."
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Annulla
          </button>
          <button type="submit" form="new-key" className="btn-primary" disabled={create.isPending}>
            Crea chiave
          </button>
        </>
      }
    >
      <form id="new-key" className="space-y-4" onSubmit={submit} noValidate>
        <div>
          <label className="label" htmlFor="key-name">
            Nome
          </label>
          <input
            id="key-name"
            className="input"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            placeholder="Es. Backend produzione"
          />
        </div>
        <fieldset>
          <legend className="label">Ambiti</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {API_KEY_SCOPES.map((s) => (
              <label key={s} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={scopes.includes(s)}
                  onChange={(e) =>
                    setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))
                  }
                />
                {apiKeyScopeLabels[s]} <code className="text-xs text-slate-500">{s}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label className="label" htmlFor="key-mode">
              Ambiente
            </label>
            <select
              id="key-mode"
              className="input"
              value={mode}
              onChange={(e) => setMode(e.target.value as 'live' | 'test')}
            >
              <option value="live">Produzione (rnv_live_)</option>
              <option value="test">Test (rnv_test_)</option>
            </select>
          </div>
          <div>
            <label className="label" htmlFor="key-expiry">
              Scadenza (facoltativa)
            </label>
            <input
              id="key-expiry"
              type="date"
              className="input"
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
            />
          </div>
        </div>
        {errors.length > 0 && (
          <ul role="alert" className="space-y-1 text-sm text-red-700">
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        )}
      </form>
    </Modal>
  );
}

function KeyRow({ item, onSecret }: { item: ApiKeyItem; onSecret: (k: ApiKeyCreated) => void }) {
  const revoke = useRevokeKey();
  const rotate = useRotateKey();
  const state = STATE[item.state];
  return (
    <li
      className="grid gap-3 px-4 py-4 sm:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-center"
      data-testid="api-key-row"
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          {item.name} <StateBadge tone={state.tone}>{state.label}</StateBadge>
          {item.mode === 'test' && <StateBadge tone="amber">Test</StateBadge>}
        </p>
        <p className="mt-0.5 font-mono text-xs text-slate-500">{item.hint}</p>
        <p className="mt-1 flex flex-wrap gap-1">
          {item.scopes.map((s) => (
            <span key={s} className="badge bg-slate-100 text-slate-700">
              {apiKeyScopeLabels[s]}
            </span>
          ))}
        </p>
      </div>
      <div className="text-sm">
        <p className="text-xs text-slate-500">Ultimo uso</p>
        <p className="text-slate-800" data-testid="last-used">
          {formatAt(item.lastUsedAt)}
        </p>
      </div>
      <div className="text-sm">
        <p className="text-xs text-slate-500">Scadenza</p>
        <p className="text-slate-800">{formatAt(item.expiresAt, 'Nessuna')}</p>
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        <Link className="btn-secondary px-3 py-1 text-xs" to={`/apikey/${item.id}`}>
          Registro
        </Link>
        {item.state === 'active' && (
          <>
            <button
              type="button"
              className="btn-secondary px-3 py-1 text-xs"
              disabled={rotate.isPending}
              onClick={async () => {
                const ok = await confirmAction({
                  title: 'Ruotare la chiave?',
                  text: 'Viene creata una nuova chiave; quella attuale resta valida ancora 24 ore.',
                  confirmText: 'Ruota',
                  cancelText: 'Annulla',
                  subject: item.name,
                  tone: 'primary',
                });
                if (!ok) return;
                rotate.mutate(
                  { id: item.id, graceHours: 24 },
                  {
                    onSuccess: (env) => {
                      if (env.data) onSecret(env.data.created);
                      notify.success(env.message ?? m.keyRotated);
                    },
                  },
                );
              }}
            >
              Ruota
            </button>
            <button
              type="button"
              className="btn-danger px-3 py-1 text-xs"
              disabled={revoke.isPending}
              onClick={async () => {
                const ok = await confirmAction({
                  title: 'Revocare la chiave?',
                  text: 'Da subito ogni chiamata con questa chiave viene rifiutata.',
                  confirmText: 'Revoca',
                  cancelText: 'Annulla',
                  subject: item.name,
                });
                if (!ok) return;
                revoke.mutate(item.id, {
                  onSuccess: (env) => notify.success(env.message ?? m.keyRevoked),
                });
              }}
            >
              Revoca
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/** /apikey 'Chiavi API' (Admin, SuperAdmin). */
export default function ApiKeysPage({ routeLabel }: ScreenProps) {
  const list = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<ApiKeyCreated | null>(null);
  const close = useCallback(() => setCreating(false), []);
  const title = routeLabel || m.apiKeysTitle;

  if (list.isPending) return <PageSpinner />;
  const items = list.data ?? [];
  return (
    <section className="space-y-6" aria-labelledby="apikey-title">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 id="apikey-title" className="page-title">
            {title}
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-500">
            Le chiavi con cui il tuo prodotto chiama le API di Rinnova (per esempio per sapere se un cliente
            può usare una funzionalità premium). Documentazione:{' '}
            <a className="link" href="/api/docs" target="_blank" rel="noreferrer">
              riferimento API
            </a>
            .
          </p>
        </div>
        <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
          Nuova chiave
        </button>
      </header>

      {secret && (
        <SecretOnce
          label={`Chiave «${secret.name}» creata`}
          note="Copiala ora e conservala in un posto sicuro: non verrà più mostrata."
          secret={secret.secret}
        />
      )}

      <section className="card overflow-hidden" aria-label="Elenco delle chiavi">
        {list.isError ? (
          <p role="alert" className="px-6 py-5 text-sm text-red-700">
            {failureEnvelope(list.error)?.message ?? messages.http.loadError}
          </p>
        ) : items.length === 0 ? (
          <div className="px-6 py-12 text-center">
            <p className="font-medium text-slate-900">Nessuna chiave API</p>
            <p className="mt-1 text-sm text-slate-500">
              Crea una chiave per collegare il tuo prodotto a Rinnova.
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-slate-100">
            {items.map((k) => (
              <KeyRow key={k.id} item={k} onSecret={setSecret} />
            ))}
          </ul>
        )}
      </section>

      <RateLimitsCard />

      {creating && (
        <CreateKeyDialog
          onClose={close}
          onCreated={(k) => {
            setSecret(k);
            setCreating(false);
            notify.success(m.keyCreated);
          }}
        />
      )}
    </section>
  );
}
