/** 'Salva' / 'Riattiva': PUT webhook/{id} with the endpoint's fields. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { WebhookEndpointItem } from '../../../../contract/integrations';
import { http } from '../../../lib/http';
import type { EndpointBody } from './create-webhook-endpoint';
import { webhookKeys } from './webhook-queries';

export async function updateWebhookEndpoint({
  id,
  ...body
}: EndpointBody & { id: number }): Promise<Envelope<WebhookEndpointItem>> {
  return (await http.put<Envelope<WebhookEndpointItem>>(`webhook/${id}`, body)).data;
}

/** Variables: the endpoint with its id. A refusal is left to the screen (the dialog shows it). */
export function useUpdateEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateWebhookEndpoint,
    onSettled: () => client.invalidateQueries({ queryKey: webhookKeys }),
  });
}
