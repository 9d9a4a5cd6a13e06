/**
 * The subscription form's writes: `POST subscription/Create` (customer, plan, agreed price) and
 * `PUT subscription/Update` (plan and price, while NotActive). Bodies as the contract's
 * subscriptionCreateSchema / subscriptionUpdateSchema accept them (euros, VAT %).
 */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import { messages } from '../../../../contract/messages';
import type { Subscription } from '../../../../contract/schemas/subscription';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { useInvalidateSubscriptions } from './subscription-queries';

export interface SubscriptionBody {
  id?: number;
  userId?: number;
  planId: number;
  paymentAmount: number;
  vatPercentage: number;
  /** Create only: a coupon's code (issue 30). */
  couponCode?: string;
}

export function createSubscription(body: SubscriptionBody, tenantId: number | null) {
  return unwrap<Subscription>(http.post(apiPaths.subscription.create, body, { tenantId }));
}

export function updateSubscription(body: SubscriptionBody & { id: number }, tenantId: number | null) {
  return unwrap<Subscription>(http.put(apiPaths.subscription.update, body, { tenantId }));
}

/** The save toasts the catalogue's 'Errore durante il salvataggio…'; field errors go on their fields too. */
const saveMeta = (logLabel: string) => ({ errorMessage: messages.http.saveError, logLabel });

/** Refreshes the tenant's subscriptions once created (before the caller navigates). */
export function useCreateSubscription() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: (body: SubscriptionBody) => createSubscription(body, tenantId),
    onSuccess: () => invalidate(),
    meta: saveMeta('Errore durante la creazione della sottoscrizione:'),
  });
}

export function useUpdateSubscription() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: (body: SubscriptionBody & { id: number }) => updateSubscription(body, tenantId),
    onSuccess: () => invalidate(),
    meta: saveMeta('Errore durante il salvataggio della sottoscrizione:'),
  });
}
