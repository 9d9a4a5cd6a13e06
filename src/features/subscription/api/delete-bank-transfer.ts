/** DELETE BankTransfer/delete/{id}: a transfer recorded by mistake. */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import { messages } from '../../../../contract/messages';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { useInvalidateBankTransfers } from './subscription-queries';

export function deleteBankTransfer(id: number, tenantId: number | null) {
  return unwrap<unknown>(http.delete(apiPaths.bankTransfer.remove(id), { tenantId }));
}

/** Variables: the transfer's id. Refreshes the transfers and the subscriptions once deleted. */
export function useDeleteBankTransfer() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateBankTransfers();
  return useMutation({
    mutationFn: (id: number) => deleteBankTransfer(id, tenantId),
    onSuccess: () => invalidate(),
    meta: {
      errorMessage: messages.inlineTable.deleteError,
      logLabel: 'Errore durante la cancellazione del bonifico:',
    },
  });
}
