import { useState } from 'react';
import { notify } from '../../lib/notify';
import { useSyncPlanWithProvider } from './api/sync-plan-with-provider';

const PROVIDERS = {
  paypal: {
    name: 'PayPal',
    idOf: (d: Record<string, string> | null) => d?.paypalPlanId ?? null,
    idLabel: 'ID piano PayPal',
    text: 'Crea su PayPal il piano di abbonamento al prezzo che paga un privato (IVA, cassa e bollo inclusi, come nell’Anteprima fattura) e con questa ricorrenza, e ne salva l’ID qui. Dopo un cambio di prezzo, sincronizza di nuovo.',
  },
  stripe: {
    name: 'Stripe',
    idOf: (d: Record<string, string> | null) => d?.stripePlanId ?? null,
    idLabel: 'ID prezzo Stripe',
    text: 'Crea su Stripe il prodotto e un prezzo ricorrente all’importo che paga un privato (IVA, cassa e bollo inclusi) e con questa ricorrenza, per i pagamenti con carta, e ne salva l’ID qui. Dopo un cambio di prezzo, sincronizza di nuovo.',
  },
} as const;

/**
 * 'Sincronizza con PayPal' / 'Sincronizza con Stripe' on a saved plan: the server creates the
 * provider's product and billing plan or recurring price (months × recurrence, price with VAT,
 * EUR) and stores its id, so nobody copies ids from a dashboard. Sync again after changing the price.
 */
export function PlanPaypalSync({
  planId,
  provider = 'paypal',
}: {
  planId: number;
  provider?: 'paypal' | 'stripe';
}) {
  const p = PROVIDERS[provider];
  const sync = useSyncPlanWithProvider(provider, planId);
  const [synced, setSynced] = useState<string | null>(null);
  const busy = sync.isPending;
  const run = () =>
    sync.mutate(undefined, {
      // The failure is toasted once by the query client.
      onSuccess: (data) => {
        setSynced(p.idOf(data));
        notify.success(`Piano sincronizzato con ${p.name}.`);
      },
    });
  return (
    <section className="card mt-6 p-5" aria-labelledby={`plan-${provider}-title`}>
      <h2 id={`plan-${provider}-title`} className="text-base font-semibold text-slate-900">
        {p.name}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{p.text}</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className="btn-primary" disabled={busy} onClick={run}>
          {busy ? 'Sincronizzazione…' : `Sincronizza con ${p.name}`}
        </button>
        {synced && (
          <span className="text-sm text-emerald-700" role="status">
            {p.idLabel}: <span className="font-mono">{synced}</span>
          </span>
        )}
      </div>
    </section>
  );
}
