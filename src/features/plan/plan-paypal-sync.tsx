import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiPaths } from '../../../contract/api-paths';
import { unwrap } from '../../lib/entity-hooks';
import { http } from '../../lib/http';
import { isHandledByInterceptor } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { failureMessage } from '../subscription/subscription-api';

const PROVIDERS = {
  paypal: {
    name: 'PayPal',
    path: apiPaths.plan.syncPaypal,
    idOf: (d: Record<string, string> | null) => d?.paypalPlanId ?? null,
    idLabel: 'ID piano PayPal',
    text: 'Crea su PayPal il piano di abbonamento con questo prezzo (IVA inclusa) e questa ricorrenza, e ne salva l’ID qui. Dopo un cambio di prezzo, sincronizza di nuovo.',
  },
  stripe: {
    name: 'Stripe',
    path: apiPaths.plan.syncStripe,
    idOf: (d: Record<string, string> | null) => d?.stripePlanId ?? null,
    idLabel: 'ID prezzo Stripe',
    text: 'Crea su Stripe il prodotto e un prezzo ricorrente con questo importo (IVA inclusa) e questa ricorrenza, per i pagamenti con carta, e ne salva l’ID qui. Dopo un cambio di prezzo, sincronizza di nuovo.',
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
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [synced, setSynced] = useState<string | null>(null);
  async function sync() {
    setBusy(true);
    try {
      const data = await unwrap<Record<string, string>>(http.post(p.path(planId), {}, { tenantId }));
      setSynced(p.idOf(data));
      notify.success(`Piano sincronizzato con ${p.name}.`);
      await client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'plan') });
    } catch (error) {
      console.error(`Sincronizzazione del piano con ${p.name} non riuscita:`, error);
      if (!isHandledByInterceptor(error))
        notify.error(failureMessage(error, `Sincronizzazione con ${p.name} non riuscita.`));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card mt-6 p-5" aria-labelledby={`plan-${provider}-title`}>
      <h2 id={`plan-${provider}-title`} className="text-base font-semibold text-slate-900">
        {p.name}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{p.text}</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className="btn-primary" disabled={busy} onClick={() => void sync()}>
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
