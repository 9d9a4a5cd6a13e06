/** 'Carica ricevuta SdI (XML)': POST invoice/sdiReceipt {xml}; the invoice is the one its NomeFile names. */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { Invoice } from '../../../../contract/schemas/invoice';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { messageAndReasons } from './invoice-failure';
import { invoicePaths, useInvalidateInvoices } from './invoice-queries';

/** An SdI receipt (XML file) for one of the tenant's invoices. */
export async function uploadSdiReceipt(xml: string): Promise<Envelope<Invoice>> {
  const res = await http.post<Envelope<Invoice>>(invoicePaths.sdiReceipt, { xml });
  return res.data;
}

/** Variables: the chosen file (sent as its text). Toasts the server's message and refreshes the tenant's invoices. */
export function useUploadSdiReceipt() {
  const invalidate = useInvalidateInvoices();
  return useMutation({
    mutationFn: async (file: File) => uploadSdiReceipt(await file.text()),
    onSuccess: (env) => {
      notify.success(env.message ?? '');
      void invalidate();
    },
    meta: { errorMessage: messageAndReasons, logLabel: 'Ricevuta SdI non registrata:' },
  });
}
