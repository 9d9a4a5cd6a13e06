/** 'Conferma attivazione': BankTransferPending → ActiveNoRenewal once approved transfers cover the amount due. */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Subscription } from '../../../../contract/schemas/subscription';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { subscriptionText as t } from '../subscription-text';
import { useInvalidateSubscriptions } from './subscription-queries';

export function confirmActivation(id: number, tenantId: number | null) {
  return unwrap<Subscription>(http.put(apiPaths.subscription.setActiveNoRenewal(id), {}, { tenantId }));
}

/** Variables: the subscription's id. Refreshes the tenant's subscriptions, refused or not (the row may be stale). */
export function useConfirmActivation() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: (id: number) => confirmActivation(id, tenantId),
    onSettled: () => void invalidate(),
    meta: {
      errorMessage: serverMessageOr(t.actionFailed),
      logLabel: 'Azione sulla sottoscrizione non riuscita:',
    },
  });
}
