import { useCallback, useState, type FormEvent } from 'react';
import {
  WEBHOOK_EVENTS,
  webhookEventLabels,
  type WebhookDeliveryItem,
  type WebhookEndpointCreated,
  type WebhookEndpointItem,
  type WebhookEventType,
} from '../../../contract/integrations';
import { integrationMessages as m, messages } from '../../../contract/messages';
import type { ScreenProps } from '../../lib/resource';
import { PageSpinner } from '../../components/spinner';
import { confirmDelete } from '../../components/confirm-delete';
import { Modal } from '../../components/modal';
import { failureEnvelope, serverErrors } from '../../lib/entity-hooks';
import { notify } from '../../lib/notify';
import { useCreateEndpoint } from './api/create-webhook-endpoint';
import { useDeleteEndpoint } from './api/delete-webhook-endpoint';
import { useResend } from './api/resend-webhook-delivery';
import { useUpdateEndpoint } from './api/update-webhook-endpoint';
import { useDeliveries, useEndpoints } from './api/webhook-queries';
import { formatAt, SecretOnce, StateBadge } from './shared';

const DELIVERY: Record<WebhookDeliveryItem['status'], { label: string; tone: 'green' | 'red' | 'blue' }> = {
  succeeded: { label: 'Consegnato', tone: 'green' },
  failed: { label: 'Fallito', tone: 'red' },
  pending: { label: 'In corso', tone: 'blue' },
};

function EndpointDialog({
  initial,
  onClose,
  onCreated,
}: {
  initial: WebhookEndpointItem | null;
  onClose: () => void;
  onCreated: (e: WebhookEndpointCreated) => void;
}) {
  const create = useCreateEndpoint();
  const update = useUpdateEndpoint();
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(initial?.events ?? ['subscription.activated']);
  const [errors, setErrors] = useState<string[]>([]);
  const onError = (error: unknown) =>
    setErrors(
      serverErrors(error).length
        ? serverErrors(error)
        : [failureEnvelope(error)?.message ?? messages.http.saveError],
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { url, description: description || null, events };
    if (initial)
      update.mutate(
        { id: initial.id, ...body },
        {
          onSuccess: () => {
            notify.success(m.endpointSaved);
            onClose();
          },
          onError,
        },
      );
    else create.mutate(body, { onSuccess: (env) => env.data && onCreated(env.data), onError });
  };
  return (
    <Modal
      title={initial ? 'Modifica endpoint' : 'Nuovo endpoint'}
      description="Rinnova invia un POST firmato a questo indirizzo per ogni evento scelto."
      onClose={onClose}
      size="lg"
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Annulla
          </button>
          <button
            type="submit"
            form="endpoint-form"
            className="btn-primary"
            disabled={create.isPending || update.isPending}
          >
            {initial ? 'Salva' : 'Crea endpoint'}
          </button>
        </>
      }
    >
      <form id="endpoint-form" className="space-y-4" onSubmit={submit} noValidate>
        <div>
          <label className="label" htmlFor="endpoint-url">
            URL
          </label>
          <input
            id="endpoint-url"
            className="input"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://esempio.it/webhooks/rinnova"
          />
        </div>
        <div>
          <label className="label" htmlFor="endpoint-description">
            Descrizione (facoltativa)
          </label>
          <input
            id="endpoint-description"
            className="input"
            value={description}
            maxLength={200}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <fieldset>
          <legend className="label">Eventi</legend>
          <div className="mt-1 grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((ev) => (
              <label key={ev} className="flex items-start gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="mt-0.5"
                  checked={events.includes(ev)}
                  onChange={(e) =>
                    setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))
                  }
                />
                <span>
                  {webhookEventLabels[ev]}
                  <code className="block text-xs text-slate-500">{ev}</code>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
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

function Deliveries({ endpointId }: { endpointId: number }) {
  const deliveries = useDeliveries(endpointId);
  const resend = useResend();
  const [open, setOpen] = useState<number | null>(null);
  if (deliveries.isPending) return <p className="px-4 py-4 text-sm text-slate-500">Caricamento…</p>;
  const items = deliveries.data ?? [];
  if (items.length === 0)
    return (
      <p className="px-4 py-6 text-center text-sm text-slate-500">
        Nessuna consegna finora: compariranno qui al prossimo evento.
      </p>
    );
  return (
    <ul className="divide-y divide-slate-100" data-testid="deliveries">
      {items.map((d) => {
        const s = DELIVERY[d.status];
        return (
          <li key={d.id} className="px-4 py-3" data-testid="delivery-row">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <code className="text-sm font-medium text-slate-900">{d.eventType}</code>
              <StateBadge tone={s.tone}>{s.label}</StateBadge>
              <span className="text-xs text-slate-500">{formatAt(d.createdAt)}</span>
              <span className="text-xs text-slate-500">
                {d.attempts} {d.attempts === 1 ? 'tentativo' : 'tentativi'}
                {d.status === 'pending' && d.nextAttemptAt ? ` · prossimo ${formatAt(d.nextAttemptAt)}` : ''}
              </span>
              <span className="ml-auto flex gap-2">
                <button
                  type="button"
                  className="btn-ghost px-2 py-1 text-xs"
                  aria-expanded={open === d.id}
                  onClick={() => setOpen(open === d.id ? null : d.id)}
                >
                  Tentativi
                </button>
                <button
                  type="button"
                  className="btn-secondary px-2 py-1 text-xs"
                  disabled={resend.isPending}
                  onClick={() => resend.mutate(d.id)}
                >
                  Reinvia
                </button>
              </span>
            </div>
            {open === d.id && (
              <ol className="mt-2 space-y-1 rounded-lg bg-slate-50 p-3 text-xs" data-testid="attempts">
                {d.attemptList.map((a, i) => (
                  <li key={a.id} className="flex flex-wrap gap-x-3">
                    <span className="text-slate-500">#{i + 1}</span>
                    <span>{formatAt(a.at)}</span>
                    <span className={a.succeeded ? 'text-emerald-700' : 'text-red-700'}>
                      {a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'errore')}
                    </span>
                    <span className="text-slate-500">{a.durationMs} ms</span>
                    {a.manual && <span className="text-slate-500">manuale</span>}
                  </li>
                ))}
                {d.attemptList.length === 0 && <li className="text-slate-500">Nessun tentativo ancora.</li>}
              </ol>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function EndpointCard({ item, onEdit }: { item: WebhookEndpointItem; onEdit: () => void }) {
  const remove = useDeleteEndpoint();
  const update = useUpdateEndpoint();
  return (
    <section className="card overflow-hidden" data-testid="endpoint-card">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-sm break-all text-slate-900">{item.url}</span>
            {item.isEnabled ? (
              <StateBadge tone="green">Attivo</StateBadge>
            ) : (
              <StateBadge tone="red">Disattivato</StateBadge>
            )}
          </p>
          {item.description && <p className="mt-0.5 text-sm text-slate-600">{item.description}</p>}
          <p className="mt-1 text-xs text-slate-500">
            {item.events.join(', ')} · segreto {item.secretHint}
          </p>
          {!item.isEnabled && item.disabledReason && (
            <p className="mt-1 text-xs text-red-700">{item.disabledReason}</p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {!item.isEnabled && (
            <button
              type="button"
              className="btn-secondary px-3 py-1 text-xs"
              onClick={() =>
                update.mutate(
                  {
                    id: item.id,
                    url: item.url,
                    description: item.description,
                    events: item.events,
                    isEnabled: true,
                  },
                  { onSuccess: () => notify.success(m.endpointSaved) },
                )
              }
            >
              Riattiva
            </button>
          )}
          <button type="button" className="btn-secondary px-3 py-1 text-xs" onClick={onEdit}>
            Modifica
          </button>
          <button
            type="button"
            className="btn-danger px-3 py-1 text-xs"
            onClick={async () => {
              if (!(await confirmDelete(item.url))) return;
              remove.mutate(item.id, { onSuccess: () => notify.success(m.endpointDeleted) });
            }}
          >
            Elimina
          </button>
        </div>
      </header>
      <h3 className="px-4 pt-3 text-sm font-semibold text-slate-700">Consegne recenti</h3>
      <Deliveries endpointId={item.id} />
    </section>
  );
}

/** /webhook 'Webhook' (Admin): endpoints, their deliveries with each attempt, re-send. */
export default function WebhooksPage({ routeLabel }: ScreenProps) {
  const list = useEndpoints();
  const [editing, setEditing] = useState<WebhookEndpointItem | 'new' | null>(null);
  const [created, setCreated] = useState<WebhookEndpointCreated | null>(null);
  const close = useCallback(() => setEditing(null), []);
  if (list.isPending) return <PageSpinner />;
  const items = list.data ?? [];
  return (
    <section className="space-y-6" aria-labelledby="webhook-title">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 id="webhook-title" className="page-title">
            {routeLabel || m.webhooksTitle}
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-500">
            Rinnova avvisa il tuo prodotto quando una sottoscrizione cambia. Ogni consegna è firmata
            (intestazione <code>Rinnova-Signature</code>, HMAC-SHA256 di <code>{'${t}.${corpo}'}</code>) e
            ritentata per 24 ore.
          </p>
        </div>
        <button type="button" className="btn-primary" onClick={() => setEditing('new')}>
          Nuovo endpoint
        </button>
      </header>

      {created && (
        <SecretOnce
          label={`Segreto di firma di ${created.url}`}
          note="Copialo ora: serve a verificare le firme e non verrà più mostrato."
          secret={created.secret}
        />
      )}

      {list.isError ? (
        <p role="alert" className="card px-6 py-5 text-sm text-red-700">
          {failureEnvelope(list.error)?.message ?? messages.http.loadError}
        </p>
      ) : items.length === 0 ? (
        <div className="card px-6 py-12 text-center">
          <p className="font-medium text-slate-900">Nessun endpoint</p>
          <p className="mt-1 text-sm text-slate-500">
            Aggiungi l’indirizzo a cui inviare gli eventi delle sottoscrizioni.
          </p>
        </div>
      ) : (
        items.map((e) => <EndpointCard key={e.id} item={e} onEdit={() => setEditing(e)} />)
      )}

      {editing && (
        <EndpointDialog
          initial={editing === 'new' ? null : editing}
          onClose={close}
          onCreated={(e) => {
            setCreated(e);
            setEditing(null);
            notify.success(m.endpointCreated);
          }}
        />
      )}
    </section>
  );
}
