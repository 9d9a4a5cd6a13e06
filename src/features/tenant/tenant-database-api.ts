/**
 * The SuperAdmin's calls on one tenant's database (server/modules/tenant/tenant-database.routes.ts):
 * global calls, the tenant in the path, so no X-Tenant-Id is sent (`tenantId: null`).
 */
import { useQuery } from '@tanstack/react-query';
import type { Envelope } from '../../../contract/envelope';
import { downloadFile, downloadFilePost } from '../../lib/download-file';
import { http } from '../../lib/http';

/** What the server answers after a restore or a move: where the tenant's database is now. */
export interface Placement {
  server: string;
  database: string | null;
  state: 'ready' | 'readOnly' | 'unavailable';
}

export const tenantDatabaseCalls = {
  servers: async (): Promise<string[]> => {
    const res = await http.get<Envelope<string[]>>('tenant/database/servers', { tenantId: null });
    return res.data.data ?? [];
  },
  /** Downloads the backup; answers the saved file's name. */
  backup: (id: number) => downloadFile(`tenant/${id}/database/backup`, { fileName: `tenant-${id}.backup` }),
  /** Downloads the full export (zip); answers the saved file's name. */
  exportAll: (id: number) =>
    downloadFilePost(`tenant/${id}/database/export`, undefined, { fileName: `tenant-${id}.zip` }),
  /** Sends the backup file as it is (application/octet-stream); answers the server's message. */
  restore: async (id: number, file: Blob): Promise<string | null> => {
    const res = await http.post<Envelope<Placement>>(`tenant/${id}/database/restore`, file, {
      headers: { 'Content-Type': 'application/octet-stream' },
      tenantId: null,
    });
    return res.data.message ?? null;
  },
  /** Deletes the tenant (its name typed as confirmation); answers the server's message. */
  remove: async (id: number, name: string): Promise<string | null> => {
    const res = await http.post<Envelope<{ exportFile: string }>>(
      `tenant/${id}/database/delete`,
      { name },
      { tenantId: null },
    );
    return res.data.message ?? null;
  },
  move: async (id: number, server: string): Promise<string | null> => {
    const res = await http.post<Envelope<Placement>>(
      `tenant/${id}/database/move`,
      { server },
      { tenantId: null },
    );
    return res.data.message ?? null;
  },
};

/** The configured servers (global: the same for every tenant); fetched only when `enabled`. */
export function useTenantDatabaseServers(enabled: boolean) {
  return useQuery({
    queryKey: ['tenant-database', 'servers'],
    queryFn: tenantDatabaseCalls.servers,
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
}
