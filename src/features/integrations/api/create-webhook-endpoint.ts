/** 'Crea endpoint': POST webhook/create; the signing secret is in the answer, shown once. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { WebhookEndpointCreated, WebhookEventType } from '../../../../contract/integrations';
import { http } from '../../../lib/http';
import { webhookKeys } from './webhook-queries';

export interface EndpointBody {
  url: string;
  description?: string | null;
  events: WebhookEventType[];
  isEnabled?: boolean;
}

export async function createWebhookEndpoint(body: EndpointBody): Promise<Envelope<WebhookEndpointCreated>> {
  return (await http.post<Envelope<WebhookEndpointCreated>>('webhook/create', body)).data;
}

/** Variables: the endpoint. A refusal is shown in the dialog (no toast: no meta.errorMessage). */
export function useCreateEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createWebhookEndpoint,
    onSettled: () => client.invalidateQueries({ queryKey: webhookKeys }),
  });
}
