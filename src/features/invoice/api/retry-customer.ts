/**
 * 'Riprova' on a customer's waiting payments: POST invoice/retryCustomer/{userId}, every one of
 * them, oldest first; a 409 lists what is still missing.
 */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { reasonsOrMessage } from './invoice-failure';
import { invoicePaths, useInvalidateInvoices } from './invoice-queries';

export interface RetryCustomerResult {
  issued: { paymentId: number; invoiceId: number; number: string }[];
  waiting: number;
}

export async function retryCustomer(userId: number): Promise<Envelope<RetryCustomerResult>> {
  const res = await http.post<Envelope<RetryCustomerResult>>(invoicePaths.retryCustomer(userId));
  return res.data;
}

/** Variables: the customer's id. Toasts the server's message and refreshes the tenant's invoices. */
export function useRetryCustomer() {
  const invalidate = useInvalidateInvoices();
  return useMutation({
    mutationFn: retryCustomer,
    onSuccess: (env) => {
      notify.success(env.message ?? '');
      void invalidate();
    },
    meta: { errorMessage: reasonsOrMessage, logLabel: 'Fatture del cliente non emesse:' },
  });
}
