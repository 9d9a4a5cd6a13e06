/**
 * The customer area's reads (issue 28): the caller's own subscriptions and invoices. The server's
 * scope answers a User only their own rows (subscription and invoice getAll).
 */
import { useQuery } from '@tanstack/react-query';
import type { Invoice } from '../../../../contract/schemas/invoice';
import type { Subscription } from '../../../../contract/schemas/subscription';
import { fetchList } from '../../../lib/entity-hooks';
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
