/** 'Reinvia' on a delivery: POST webhook/deliveries/{id}/resend, one manual attempt now. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { WebhookAttemptItem } from '../../../../contract/integrations';
import { integrationMessages as m } from '../../../../contract/messages';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { serverMessageOrSaveError } from './integration-failure';
import { webhookKeys } from './webhook-queries';

export async function resendWebhookDelivery(deliveryId: number): Promise<Envelope<WebhookAttemptItem>> {
  return (await http.post<Envelope<WebhookAttemptItem>>(`webhook/deliveries/${deliveryId}/resend`)).data;
}

/**
 * Variables: the delivery's id. The call answers how the attempt went: 'Consegnato' or the
 * endpoint's refusal as a toast. Refreshes the webhooks either way.
 */
export function useResend() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resendWebhookDelivery,
    onSuccess: (env) =>
      env.data?.succeeded ? notify.success(m.deliveryResent) : notify.error(m.deliveryResendFailed),
    onSettled: () => client.invalidateQueries({ queryKey: webhookKeys }),
    meta: { errorMessage: serverMessageOrSaveError, logLabel: 'Reinvio del webhook non riuscito:' },
  });
}
