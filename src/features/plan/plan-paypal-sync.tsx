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

/**
 * 'Sincronizza con PayPal' on a saved plan: the server creates the PayPal product and billing
 * plan (months × recurrence, price with VAT, EUR) and stores the plan id, so nobody copies ids
 * from PayPal's dashboard. Sync again after changing the price.
 */
export function PlanPaypalSync({ planId }: { planId: number }) {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [synced, setSynced] = useState<string | null>(null);
  async function sync() {
    setBusy(true);
    try {
      const data = await unwrap<{ paypalPlanId: string }>(
        http.post(apiPaths.plan.syncPaypal(planId), {}, { tenantId }),
      );
      setSynced(data?.paypalPlanId ?? null);
      notify.success('Piano sincronizzato con PayPal.');
      await client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'plan') });
    } catch (error) {
      console.error('Sincronizzazione del piano con PayPal non riuscita:', error);
      if (!isHandledByInterceptor(error))
        notify.error(failureMessage(error, 'Sincronizzazione con PayPal non riuscita.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card mt-6 p-5" aria-labelledby="plan-paypal-title">
      <h2 id="plan-paypal-title" className="text-base font-semibold text-slate-900">
        PayPal
      </h2>
      <p className="mt-1 text-sm text-slate-500">
        Crea su PayPal il piano di abbonamento con questo prezzo (IVA inclusa) e questa ricorrenza, e ne salva
        l’ID qui. Dopo un cambio di prezzo, sincronizza di nuovo.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className="btn-primary" disabled={busy} onClick={() => void sync()}>
          {busy ? 'Sincronizzazione…' : 'Sincronizza con PayPal'}
        </button>
        {synced && (
          <span className="text-sm text-emerald-700" role="status">
            ID piano PayPal: <span className="font-mono">{synced}</span>
          </span>
        )}
      </div>
    </section>
  );
}
