/** The calls of 'Chiavi API' and 'Webhook' (issue 15). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../contract/envelope';
import type {
  ApiKeyCreated,
  ApiKeyItem,
  ApiKeyScope,
  ApiRequestLogItem,
  ApiSettings,
  WebhookAttemptItem,
  WebhookDeliveryItem,
  WebhookEndpointCreated,
  WebhookEndpointItem,
  WebhookEventType,
} from '../../../contract/integrations';
import { unwrap } from '../../lib/entity-hooks';
import { messages } from '../../../contract/messages';
import { http } from '../../lib/http';
import { serverMessage } from '../../lib/http-errors';

/** The failure toast of these calls: the server's message, else the catalogue's save error. */
const serverMessageOrSaveError = (error: unknown) => serverMessage(error) ?? messages.http.saveError;

const keys = ['apikey'] as const;
const hooks = ['webhook'] as const;

export function useApiKeys() {
  return useQuery({
    queryKey: [...keys, 'list'],
    queryFn: () => unwrap<ApiKeyItem[]>(http.get('apikey/list')),
  });
}

export function useApiKey(id: number) {
  return useQuery({ queryKey: [...keys, id], queryFn: () => unwrap<ApiKeyItem>(http.get(`apikey/${id}`)) });
}

export function useApiSettings() {
  return useQuery({
    queryKey: [...keys, 'settings'],
    queryFn: () => unwrap<ApiSettings>(http.get('apikey/settings')),
  });
}

/** PUT apikey/settings (SuperAdmin): the tenant's limits; the screen shows the saved values. */
export function useSaveApiSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ApiSettings) =>
      (await http.put<Envelope<ApiSettings>>('apikey/settings', body)).data,
    onSuccess: (env) => {
      if (env.data) client.setQueryData([...keys, 'settings'], env.data);
    },
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
    queryKey: [...keys, id, 'logs', params],
    queryFn: () =>
      unwrap<{ items: ApiRequestLogItem[]; hasMore: boolean }>(http.get(`apikey/${id}/logs`, { params })),
    refetchInterval: 10_000,
  });
}

export async function downloadLog(id: number, filters: LogFilters): Promise<void> {
  const params: Record<string, string> = {};
  if (filters.status) params.status = filters.status;
  if (filters.method) params.method = filters.method;
  if (filters.path) params.path = filters.path;
  const res = await http.get<ArrayBuffer>(`apikey/${id}/logs/export`, {
    params,
    responseType: 'arraybuffer',
  });
  const url = URL.createObjectURL(new Blob([res.data], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `chiave-${id}-registro.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

export interface NewKey {
  name: string;
  mode: 'live' | 'test';
  scopes: ApiKeyScope[];
  expiresAt: string | null;
}

export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewKey) =>
      (await http.post<Envelope<ApiKeyCreated>>('apikey/create', body)).data,
    onSettled: () => client.invalidateQueries({ queryKey: keys }),
  });
}

export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await http.post<Envelope<ApiKeyItem>>(`apikey/${id}/revoke`)).data,
    onSettled: () => client.invalidateQueries({ queryKey: keys }),
    meta: { errorMessage: serverMessageOrSaveError },
  });
}

export function useRotateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: number; graceHours: number }) =>
      (
        await http.post<Envelope<{ created: ApiKeyCreated; previous: ApiKeyItem }>>(
          `apikey/${input.id}/rotate`,
          {
            graceHours: input.graceHours,
          },
        )
      ).data,
    onSettled: () => client.invalidateQueries({ queryKey: keys }),
    meta: { errorMessage: serverMessageOrSaveError },
  });
}

export function useEndpoints() {
  return useQuery({
    queryKey: [...hooks, 'list'],
    queryFn: () => unwrap<WebhookEndpointItem[]>(http.get('webhook/list')),
  });
}

export function useDeliveries(endpointId: number | null) {
  return useQuery({
    queryKey: [...hooks, endpointId, 'deliveries'],
    queryFn: () => unwrap<WebhookDeliveryItem[]>(http.get(`webhook/${endpointId}/deliveries`)),
    enabled: endpointId !== null,
    refetchInterval: 5_000,
  });
}

export interface EndpointBody {
  url: string;
  description?: string | null;
  events: WebhookEventType[];
  isEnabled?: boolean;
}

export function useCreateEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: EndpointBody) =>
      (await http.post<Envelope<WebhookEndpointCreated>>('webhook/create', body)).data,
    onSettled: () => client.invalidateQueries({ queryKey: hooks }),
  });
}

export function useUpdateEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: EndpointBody & { id: number }) =>
      (await http.put<Envelope<WebhookEndpointItem>>(`webhook/${id}`, body)).data,
    onSettled: () => client.invalidateQueries({ queryKey: hooks }),
  });
}

export function useDeleteEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await http.delete<Envelope<null>>(`webhook/${id}`)).data,
    onSettled: () => client.invalidateQueries({ queryKey: hooks }),
  });
}

export function useResend() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryId: number) =>
      (await http.post<Envelope<WebhookAttemptItem>>(`webhook/deliveries/${deliveryId}/resend`)).data,
    onSettled: () => client.invalidateQueries({ queryKey: hooks }),
    meta: { errorMessage: serverMessageOrSaveError },
  });
}
