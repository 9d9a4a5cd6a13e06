/** The reads of 'Webhook' (issue 15): the endpoints and one endpoint's recent deliveries. */
import { useQuery } from '@tanstack/react-query';
import type { WebhookDeliveryItem, WebhookEndpointItem } from '../../../../contract/integrations';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Every query of the webhooks starts with this (a write refreshes them all). */
export const webhookKeys = ['webhook'] as const;

export function useEndpoints() {
  return useQuery({
    queryKey: [...webhookKeys, 'list'],
    queryFn: () => unwrap<WebhookEndpointItem[]>(http.get('webhook/list')),
  });
}

export function useDeliveries(endpointId: number | null) {
  return useQuery({
    queryKey: [...webhookKeys, endpointId, 'deliveries'],
    queryFn: () => unwrap<WebhookDeliveryItem[]>(http.get(`webhook/${endpointId}/deliveries`)),
    enabled: endpointId !== null,
    refetchInterval: 5_000,
  });
}
