/**
 * 'Dati di fatturazione' of the customer area (issue 28): the caller's own record in the selected
 * tenant (`GET api/user/me/billing`) and its save (`PUT`), which issues the invoices waiting for
 * these data and says how many.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { messages } from '../../../../contract/messages';
import type {
  CustomerBilling,
  CustomerBillingInput,
  CustomerBillingSaved,
} from '../../../../contract/schemas/user';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

const ownBillingKey = (tenantId: number | null) => [...queryKeys.entity(tenantId, 'user'), 'me', 'billing'];

export async function fetchOwnBilling(tenantId: number | null): Promise<CustomerBilling> {
  const data = await unwrap<CustomerBilling>(
    http.get<Envelope<CustomerBilling>>(apiPaths.user.myBilling, { tenantId }),
  );
  if (!data) throw new Error('dati di fatturazione mancanti nella risposta');
  return data;
}

export function useOwnBilling() {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: ownBillingKey(tenantId),
    queryFn: () => fetchOwnBilling(tenantId),
    meta: { errorMessage: serverMessageOr(messages.http.loadError) },
  });
}

/** The answer's data and its Italian message (how many invoices the save issued). */
export async function saveOwnBilling(
  body: CustomerBillingInput,
  tenantId: number | null,
): Promise<{ saved: CustomerBillingSaved; message: string | null }> {
  const res = await http.put<Envelope<CustomerBillingSaved>>(apiPaths.user.myBilling, body, { tenantId });
  const saved = await unwrap(Promise.resolve(res));
  if (!saved) throw new Error('risposta senza dati');
  return { saved, message: res.data.message ?? null };
}

/** A 400's field errors are the form's (shown under their fields); anything else is toasted once. */
export function useSaveOwnBilling() {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomerBillingInput) => saveOwnBilling(body, tenantId),
    onSuccess: ({ saved }) => {
      client.setQueryData(ownBillingKey(tenantId), saved.customer);
      // Invoices may have been issued, subscriptions' payments with them.
      void client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'invoice') });
      void client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') });
    },
    meta: { errorMessage: serverMessageOr(messages.http.saveError), silent: ['fieldErrors'] },
  });
}
