/** 'Revoca': POST apikey/{id}/revoke; from then on every call with the key is refused. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { ApiKeyItem } from '../../../../contract/integrations';
import { http } from '../../../lib/http';
import { apiKeyKeys } from './api-key-queries';
import { serverMessageOrSaveError } from './integration-failure';

export async function revokeApiKey(id: number): Promise<Envelope<ApiKeyItem>> {
  return (await http.post<Envelope<ApiKeyItem>>(`apikey/${id}/revoke`)).data;
}

/** Variables: the key's id. Refreshes the keys either way. */
export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSettled: () => client.invalidateQueries({ queryKey: apiKeyKeys }),
    meta: { errorMessage: serverMessageOrSaveError, logLabel: 'Revoca della chiave API non riuscita:' },
  });
}
