/** 'Emetti nota di credito': POST invoice/creditNote/{id} {reason}, a TD04 reversing the whole invoice. */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { Invoice } from '../../../../contract/schemas/invoice';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { reasonsOrMessage } from './invoice-failure';
import { invoicePaths, useInvalidateInvoices } from './invoice-queries';

export async function issueCreditNote(id: number, reason: string): Promise<Envelope<Invoice>> {
  const res = await http.post<Envelope<Invoice>>(invoicePaths.creditNote(id), { reason });
  return res.data;
}

/** Variables: the invoice's id and the reason. Toasts the server's message and refreshes the tenant's invoices. */
export function useIssueCreditNote() {
  const invalidate = useInvalidateInvoices();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => issueCreditNote(id, reason),
    onSuccess: (env) => {
      notify.success(env.message ?? '');
      void invalidate();
    },
    meta: { errorMessage: reasonsOrMessage, logLabel: 'Nota di credito non emessa:' },
  });
}
