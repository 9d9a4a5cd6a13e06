/** 'Addebito una tantum' (issue 30): the subscription's charges, one added, a pending one deleted. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { OneOffCharge, OneOffChargeInput } from '../../../../contract/schemas/one-off-charge';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { oneOffText as t } from '../one-off-text';
import { SUBSCRIPTION, useInvalidateSubscriptions } from './subscription-queries';

export function useOneOffCharges(subscriptionId: number) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, SUBSCRIPTION), 'charges', subscriptionId],
    queryFn: () =>
      unwrap<OneOffCharge[]>(http.get(apiPaths.subscription.charges(subscriptionId), { tenantId })),
    meta: { errorMessage: t.loadFailed, logLabel: 'Addebiti una tantum non caricati:' },
  });
}

/** Refreshes the tenant's subscriptions (their payments and history) and the charges, either way. */
export function useAddOneOffCharge() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: ({ id, ...body }: OneOffChargeInput & { id: number }) =>
      unwrap<OneOffCharge>(http.post(apiPaths.subscription.charges(id), body, { tenantId })),
    onSettled: () => void invalidate(),
    meta: { errorMessage: serverMessageOr(t.addFailed), logLabel: 'Addebito una tantum non creato:' },
  });
}

export function useDeleteOneOffCharge() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: ({ id, chargeId }: { id: number; chargeId: number }) =>
      unwrap<null>(http.delete(apiPaths.subscription.deleteCharge(id, chargeId), { tenantId })),
    onSettled: () => void invalidate(),
    meta: { errorMessage: serverMessageOr(t.deleteFailed), logLabel: 'Addebito una tantum non eliminato:' },
  });
}
