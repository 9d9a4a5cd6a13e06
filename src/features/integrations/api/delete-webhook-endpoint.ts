/** 'Elimina' on an endpoint: DELETE webhook/{id}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import { http } from '../../../lib/http';
import { webhookKeys } from './webhook-queries';

export async function deleteWebhookEndpoint(id: number): Promise<Envelope<null>> {
  return (await http.delete<Envelope<null>>(`webhook/${id}`)).data;
}

/** Variables: the endpoint's id. Refreshes the webhooks either way. */
export function useDeleteEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhookEndpoint,
    onSettled: () => client.invalidateQueries({ queryKey: webhookKeys }),
  });
}
