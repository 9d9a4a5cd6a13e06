/**
 * 'Elimina il tenant…': POST tenant/{id}/database/delete {name}, the tenant's name typed as
 * confirmation; the server keeps a complete export first.
 */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { tenantDatabaseText as t } from '../tenant-database-text';
import { operationFailure } from './tenant-database-queries';

/** Deletes the tenant (its name typed as confirmation); answers the server's message. */
export async function deleteTenant(id: number, name: string): Promise<string | null> {
  const res = await http.post<Envelope<{ exportFile: string }>>(
    `tenant/${id}/database/delete`,
    { name },
    { tenantId: null },
  );
  return res.data.message ?? null;
}

/** Variables: the tenant's id and name. Toasts the server's message, or its reason. */
export function useDeleteTenant() {
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => deleteTenant(id, name),
    onSuccess: (message) => notify.success(message ?? t.removeConfirm.title),
    meta: operationFailure('remove', t.removeFailed),
  });
}
