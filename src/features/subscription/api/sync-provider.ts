/**
 * 'Sincronizza con PayPal' / 'Sincronizza con Stripe' (spec §2): POST sync-paypal / sync-stripe,
 * `data` = how many subscriptions changed. Refreshes the tenant's subscriptions either way.
 */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import { messages } from '../../../../contract/messages';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { useInvalidateSubscriptions } from './subscription-queries';

export type SyncProvider = 'paypal' | 'stripe';

export async function syncSubscriptions(provider: SyncProvider, tenantId: number | null): Promise<number> {
  const path = provider === 'paypal' ? apiPaths.subscription.syncPaypal : apiPaths.subscription.syncStripe;
  return Number(await unwrap<number>(http.post(path, {}, { tenantId })));
}

const text = {
  paypal: {
    done: messages.subscription.syncDone,
    error: messages.subscription.syncError,
    log: 'Sincronizzazione PayPal non riuscita:',
  },
  stripe: {
    done: messages.subscription.syncStripeDone,
    error: messages.subscription.syncStripeError,
    log: 'Sincronizzazione Stripe non riuscita:',
  },
} as const;

/** The sync with `provider`; its success and failure toasts are the spec's. */
export function useSyncSubscriptions(provider: SyncProvider) {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: () => syncSubscriptions(provider, tenantId),
    onSettled: () => void invalidate(),
    meta: { errorMessage: text[provider].error, logLabel: text[provider].log },
    onSuccess: (changed) => notify.success(text[provider].done(changed)),
  });
}
