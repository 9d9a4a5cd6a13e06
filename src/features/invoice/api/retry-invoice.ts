/** 'Riprova' on a payment waiting for data: POST invoice/retry/{paymentId}; a 409 lists what is still missing. */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { Invoice } from '../../../../contract/schemas/invoice';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { reasonsOrMessage } from './invoice-failure';
import { invoicePaths, useInvalidateInvoices } from './invoice-queries';

export async function retryInvoice(paymentId: number): Promise<Envelope<Invoice>> {
  const res = await http.post<Envelope<Invoice>>(invoicePaths.retry(paymentId));
  return res.data;
}

/** Variables: the payment's id. Toasts the server's message and refreshes the tenant's invoices. */
export function useRetryInvoice() {
  const invalidate = useInvalidateInvoices();
  return useMutation({
    mutationFn: retryInvoice,
    onSuccess: (env) => {
      notify.success(env.message ?? '');
      void invalidate();
    },
    meta: { errorMessage: reasonsOrMessage, logLabel: 'Fattura del pagamento non emessa:' },
  });
}
