/** 'Genera link di pagamento': a payment token for the payment to pay, as the public page's URL. */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import { messages } from '../../../../contract/messages';
import { paymentUrlOf } from '../../../../contract/schemas/payment';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { useSelectedTenantId } from '../../../lib/tenant-store';

/** POST PaymentToken/create {paymentId}: the link the customer opens (valid 1 hour, once). */
export async function createPaymentLink(paymentId: number, tenantId: number | null): Promise<string> {
  const data = await unwrap<{ token: string }>(
    http.post<Envelope<{ token: string }>>(apiPaths.paymentToken.create, { paymentId }, { tenantId }),
  );
  if (!data?.token) throw new Error('token mancante nella risposta');
  return paymentUrlOf(window.location.origin, data.token);
}

/** Variables: the payment's id (undefined: the subscription has none, which fails like a refused call). */
export function useCreatePaymentLink() {
  const tenantId = useSelectedTenantId();
  return useMutation({
    mutationFn: (paymentId: number | undefined) => {
      if (paymentId === undefined) throw new Error('nessun pagamento');
      return createPaymentLink(paymentId, tenantId);
    },
    meta: {
      errorMessage: serverMessageOr(messages.subscription.paymentLinkError),
      logLabel: 'Azione sulla sottoscrizione non riuscita:',
    },
  });
}
