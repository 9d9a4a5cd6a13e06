/** 'Ruota': POST apikey/{id}/rotate {graceHours}; a new key, the old one valid for the grace hours. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { ApiKeyCreated, ApiKeyItem } from '../../../../contract/integrations';
import { http } from '../../../lib/http';
import { apiKeyKeys } from './api-key-queries';
import { serverMessageOrSaveError } from './integration-failure';

export async function rotateApiKey(input: {
  id: number;
  graceHours: number;
}): Promise<Envelope<{ created: ApiKeyCreated; previous: ApiKeyItem }>> {
  return (
    await http.post<Envelope<{ created: ApiKeyCreated; previous: ApiKeyItem }>>(`apikey/${input.id}/rotate`, {
      graceHours: input.graceHours,
    })
  ).data;
}

/** Variables: the key's id and the grace hours. Refreshes the keys either way. */
export function useRotateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rotateApiKey,
    onSettled: () => client.invalidateQueries({ queryKey: apiKeyKeys }),
    meta: { errorMessage: serverMessageOrSaveError, logLabel: 'Rotazione della chiave API non riuscita:' },
  });
}
