/** 'Cancella sottoscrizione': Active (with a provider subscription id) → Canceled, at the provider first. */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Subscription } from '../../../../contract/schemas/subscription';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { subscriptionText as t } from '../subscription-text';
import { useInvalidateSubscriptions } from './subscription-queries';

export function cancelSubscription(id: number, tenantId: number | null) {
  return unwrap<Subscription>(http.delete(apiPaths.subscription.cancel(id), { tenantId }));
}

/** Variables: the subscription's id. Refreshes the tenant's subscriptions, refused or not (the row may be stale). */
export function useCancelSubscription() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: (id: number) => cancelSubscription(id, tenantId),
    onSettled: () => void invalidate(),
    meta: {
      errorMessage: serverMessageOr(t.actionFailed),
      logLabel: 'Azione sulla sottoscrizione non riuscita:',
    },
  });
}
