/** 'Salva limiti' (SuperAdmin): PUT apikey/settings, the tenant's limits; the screen shows the saved values. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { ApiSettings } from '../../../../contract/integrations';
import { http } from '../../../lib/http';
import { apiKeyKeys } from './api-key-queries';

export async function saveApiSettings(body: ApiSettings): Promise<Envelope<ApiSettings>> {
  return (await http.put<Envelope<ApiSettings>>('apikey/settings', body)).data;
}

/** Variables: the limits. A refusal is shown on the form's fields (no toast: no meta.errorMessage). */
export function useSaveApiSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveApiSettings,
    onSuccess: (env) => {
      if (env.data) client.setQueryData([...apiKeyKeys, 'settings'], env.data);
    },
  });
}
