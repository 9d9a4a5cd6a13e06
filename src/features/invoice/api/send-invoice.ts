/** 'Invia allo SdI': POST invoice/send/{id}; the server enqueues the send, its outcome shows in the invoice's log. */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { Invoice } from '../../../../contract/schemas/invoice';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { messageAndReasons } from './invoice-failure';
import { invoicePaths, useInvalidateInvoices } from './invoice-queries';

export async function sendInvoice(id: number): Promise<Envelope<Invoice>> {
  const res = await http.post<Envelope<Invoice>>(invoicePaths.send(id));
  return res.data;
}

/** Variables: the invoice's id. Toasts the server's message and refreshes the tenant's invoices. */
export function useSendInvoice() {
  const invalidate = useInvalidateInvoices();
  return useMutation({
    mutationFn: sendInvoice,
    onSuccess: (env) => {
      notify.success(env.message ?? '');
      void invalidate();
    },
    meta: { errorMessage: messageAndReasons, logLabel: 'Invio della fattura allo SdI non riuscito:' },
  });
}
