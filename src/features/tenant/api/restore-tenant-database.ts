/** 'Ripristina da backup': POST tenant/{id}/database/restore with the backup file as it is. */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { tenantDatabaseText as t } from '../tenant-database-text';
import { operationFailure, type Placement } from './tenant-database-queries';

/** Sends the backup file as it is (application/octet-stream); answers the server's message. */
export async function restoreTenantDatabase(id: number, file: Blob): Promise<string | null> {
  const res = await http.post<Envelope<Placement>>(`tenant/${id}/database/restore`, file, {
    headers: { 'Content-Type': 'application/octet-stream' },
    tenantId: null,
  });
  return res.data.message ?? null;
}

/** Variables: the tenant's id and the chosen file. Toasts the server's message, or its reason. */
export function useRestoreTenantDatabase() {
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: Blob }) => restoreTenantDatabase(id, file),
    onSuccess: (message) => notify.success(message ?? t.restored),
    meta: operationFailure('restore', t.restoreFailed),
  });
}
