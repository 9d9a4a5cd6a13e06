/**
 * The subscription screens' reads (api-contract 'Billing calls'): bank-transfer instructions and
 * the bank transfers of a payment, and the one refresh every billing write runs. Keys start with
 * the tenant (lib/query-keys.ts). The writes are one file each beside this one.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiPaths } from '../../../../contract/api-paths';
import type { Paged } from '../../../../contract/envelope';
import type { BankTransfer, BankTransferInstructions } from '../../../../contract/schemas/subscription';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

export const SUBSCRIPTION = 'subscription';
export const BANK_TRANSFER = 'bankTransfer';
/** Spec §7: bank transfers load with page 1, size 100. */
export const BANK_TRANSFER_PAGE_SIZE = 100;

/** Refreshes every subscription query of the tenant (lists, details, instructions). */
export function useInvalidateSubscriptions() {
  const client = useQueryClient();
  const tenantId = useSelectedTenantId();
  return useCallback(
    () => client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, SUBSCRIPTION) }),
    [client, tenantId],
  );
}

/** Refreshes the tenant's bank transfers and subscriptions (a transfer moves the approved total). */
export function useInvalidateBankTransfers() {
  const client = useQueryClient();
  const tenantId = useSelectedTenantId();
  const invalidateSubscriptions = useInvalidateSubscriptions();
  return useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, BANK_TRANSFER) }),
        invalidateSubscriptions(),
      ]),
    [client, tenantId, invalidateSubscriptions],
  );
}

export function useBankTransferInstructions(subscriptionId: number) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, SUBSCRIPTION), 'bankTransferInstructions', subscriptionId],
    queryFn: () =>
      unwrap<BankTransferInstructions>(
        http.get(apiPaths.subscription.bankTransferInstructions(subscriptionId), { tenantId }),
      ),
    retry: false,
  });
}

export function bankTransfersKey(tenantId: number | null, paymentId: number) {
  return queryKeys.list(tenantId, BANK_TRANSFER, {
    page: 1,
    pageSize: BANK_TRANSFER_PAGE_SIZE,
    filters: { paymentId },
  });
}

export function useBankTransfers(paymentId: number | null) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: bankTransfersKey(tenantId, paymentId ?? 0),
    queryFn: async () => {
      const data = await unwrap<Paged<BankTransfer>>(
        http.get(apiPaths.bankTransfer.getAll, {
          params: { paymentId, page: 1, pageSize: BANK_TRANSFER_PAGE_SIZE },
          tenantId,
        }),
      );
      return { items: data?.items ?? [], totalCount: data?.totalCount ?? 0 };
    },
    enabled: paymentId !== null,
    retry: false,
  });
}
