/** 'Crea chiave': POST apikey/create; the secret is in the answer, shown once. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { ApiKeyCreated, ApiKeyScope } from '../../../../contract/integrations';
import { http } from '../../../lib/http';
import { apiKeyKeys } from './api-key-queries';

export interface NewKey {
  name: string;
  mode: 'live' | 'test';
  scopes: ApiKeyScope[];
  expiresAt: string | null;
}

export async function createApiKey(body: NewKey): Promise<Envelope<ApiKeyCreated>> {
  return (await http.post<Envelope<ApiKeyCreated>>('apikey/create', body)).data;
}

/** Variables: the new key. A refusal is shown in the dialog (no toast: no meta.errorMessage). */
export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSettled: () => client.invalidateQueries({ queryKey: apiKeyKeys }),
  });
}
