/**
 * The customer area's reads (issue 28): the caller's own subscriptions and invoices. The server's
 * scope answers a User only their own rows (subscription and invoice getAll).
 */
import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import type { Invoice } from '../../../../contract/schemas/invoice';
import type { OwnOneOffCharge } from '../../../../contract/schemas/one-off-charge';
import type { Subscription } from '../../../../contract/schemas/subscription';
import { fetchList, unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

export function useOwnSubscriptions() {
  const tenantId = useSelectedTenantId();
  const query = { page: 1, pageSize: 50 };
  return useQuery({
    queryKey: queryKeys.list(tenantId, 'subscription', query),
    queryFn: ({ signal }) => fetchList<Subscription>('subscription', query, signal, tenantId),
  });
}

export function useLastInvoices(count = 5) {
  const tenantId = useSelectedTenantId();
  const query = { page: 1, pageSize: count };
  return useQuery({
    queryKey: queryKeys.list(tenantId, 'invoice', query),
    queryFn: ({ signal }) => fetchList<Invoice>('invoice', query, signal, tenantId),
  });
}

/**
 * Issue 30: the one-off charges of one of the caller's subscriptions (`GET
 * user/me/subscriptions/{id}/charges`), under the subscription entity's key so that whatever
 * refreshes the subscriptions (a payment, a switch) refreshes them too.
 */
export function useOwnCharges(subscriptionId: number) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, 'subscription'), 'own-charges', subscriptionId],
    queryFn: async ({ signal }) =>
      (await unwrap(
        http.get<Envelope<OwnOneOffCharge[]>>(apiPaths.user.myCharges(subscriptionId), { tenantId, signal }),
      )) ?? [],
  });
}
