/** A bank transfer of a payment, added (POST BankTransfer/create) or edited (PUT BankTransfer/update). */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import { messages } from '../../../../contract/messages';
import type { BankTransfer } from '../../../../contract/schemas/subscription';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { useInvalidateBankTransfers } from './subscription-queries';

export interface BankTransferBody {
  id?: number;
  paymentId: number;
  amount: number;
  approvalDate: string | null;
}

export function saveBankTransfer(body: BankTransferBody, tenantId: number | null) {
  return body.id
    ? unwrap<BankTransfer>(http.put(apiPaths.bankTransfer.update, body, { tenantId }))
    : unwrap<BankTransfer>(http.post(apiPaths.bankTransfer.create, body, { tenantId }));
}

/** Refreshes the transfers and the subscriptions once saved; a refusal toasts the inline table's message. */
export function useSaveBankTransfer() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateBankTransfers();
  return useMutation({
    mutationFn: (body: BankTransferBody) => saveBankTransfer(body, tenantId),
    onSuccess: () => invalidate(),
    meta: {
      errorMessage: messages.inlineTable.saveError,
      logLabel: 'Errore nel salvataggio del bonifico:',
    },
  });
}
