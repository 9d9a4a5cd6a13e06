/**
 * The SuperAdmin's reads on tenant databases (server/modules/tenant/tenant-database.routes.ts):
 * global calls, so no X-Tenant-Id is sent (`tenantId: null`). The operations on one tenant's
 * database are one file each beside this one.
 */
import { useQuery } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import { downloadMessageOr } from '../../../lib/download-file';
import { http } from '../../../lib/http';

/** What the server answers after a restore or a move: where the tenant's database is now. */
export interface Placement {
  server: string;
  database: string | null;
  state: 'ready' | 'readOnly' | 'unavailable';
}

export async function fetchTenantDatabaseServers(): Promise<string[]> {
  const res = await http.get<Envelope<string[]>>('tenant/database/servers', { tenantId: null });
  return res.data.data ?? [];
}

/** The configured servers (global: the same for every tenant); fetched only when `enabled`. */
export function useTenantDatabaseServers(enabled: boolean) {
  return useQuery({
    queryKey: ['tenant-database', 'servers'],
    queryFn: fetchTenantDatabaseServers,
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/**
 * The failure toast and log line of an operation: the server's Italian reason (read from the
 * bytes of a download too), else the operation's own text.
 */
export const operationFailure = (operation: string, fallback: string) => ({
  errorMessage: downloadMessageOr(fallback),
  logLabel: `Operazione sul database del tenant non riuscita (${operation}):`,
});
