/**
 * 'Sincronizza con PayPal' / 'Sincronizza con Stripe' on a saved plan: POST plan/sync-paypal/{id}
 * or plan/sync-stripe/{id}; `data` holds the provider's id now stored on the plan.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

export type PlanProvider = 'paypal' | 'stripe';

const providerNames: Record<PlanProvider, string> = { paypal: 'PayPal', stripe: 'Stripe' };

export function syncPlanWithProvider(provider: PlanProvider, planId: number, tenantId: number | null) {
  const path = provider === 'paypal' ? apiPaths.plan.syncPaypal(planId) : apiPaths.plan.syncStripe(planId);
  return unwrap<Record<string, string>>(http.post(path, {}, { tenantId }));
}

/** Refreshes the tenant's plans once synced; a failure toasts the server's message. */
export function useSyncPlanWithProvider(provider: PlanProvider, planId: number) {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  const name = providerNames[provider];
  return useMutation({
    mutationFn: () => syncPlanWithProvider(provider, planId, tenantId),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'plan') }),
    meta: {
      errorMessage: serverMessageOr(`Sincronizzazione con ${name} non riuscita.`),
      logLabel: `Sincronizzazione del piano con ${name} non riuscita:`,
    },
  });
}
