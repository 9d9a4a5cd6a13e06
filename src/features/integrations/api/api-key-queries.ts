/**
 * The reads of 'Chiavi API' (issue 15): the tenant's keys, one key, its request log and the
 * tenant's limits. The writes and the log's export are one file each beside this one.
 */
import { useQuery } from '@tanstack/react-query';
import type { ApiKeyItem, ApiRequestLogItem, ApiSettings } from '../../../../contract/integrations';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Every query of the keys starts with this (a write refreshes them all). */
export const apiKeyKeys = ['apikey'] as const;

export function useApiKeys() {
  return useQuery({
    queryKey: [...apiKeyKeys, 'list'],
    queryFn: () => unwrap<ApiKeyItem[]>(http.get('apikey/list')),
  });
}

export function useApiKey(id: number) {
  return useQuery({
    queryKey: [...apiKeyKeys, id],
    queryFn: () => unwrap<ApiKeyItem>(http.get(`apikey/${id}`)),
  });
}

export function useApiSettings() {
  return useQuery({
    queryKey: [...apiKeyKeys, 'settings'],
    queryFn: () => unwrap<ApiSettings>(http.get('apikey/settings')),
  });
}

export interface LogFilters {
  status?: '' | 'success' | 'error';
  method?: string;
  path?: string;
  page: number;
}

export function useRequestLog(id: number, filters: LogFilters) {
  const params: Record<string, string | number> = { page: filters.page, pageSize: 25 };
  if (filters.status) params.status = filters.status;
  if (filters.method) params.method = filters.method;
  if (filters.path) params.path = filters.path;
  return useQuery({
    queryKey: [...apiKeyKeys, id, 'logs', params],
    queryFn: () =>
      unwrap<{ items: ApiRequestLogItem[]; hasMore: boolean }>(http.get(`apikey/${id}/logs`, { params })),
    refetchInterval: 10_000,
  });
}
