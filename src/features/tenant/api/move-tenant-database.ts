/** 'Sposta': POST tenant/{id}/database/move {server}, the tenant's database to another configured server. */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { tenantDatabaseText as t } from '../tenant-database-text';
import { operationFailure, type Placement } from './tenant-database-queries';

/** Answers the server's message. */
export async function moveTenantDatabase(id: number, server: string): Promise<string | null> {
  const res = await http.post<Envelope<Placement>>(
    `tenant/${id}/database/move`,
    { server },
    { tenantId: null },
  );
  return res.data.message ?? null;
}

/** Variables: the tenant's id and the target server. Toasts the server's message, or its reason. */
export function useMoveTenantDatabase() {
  return useMutation({
    mutationFn: ({ id, server }: { id: number; server: string }) => moveTenantDatabase(id, server),
    onSuccess: (message, { server }) => notify.success(message ?? t.moved(server)),
    meta: operationFailure('move', t.moveFailed),
  });
}
