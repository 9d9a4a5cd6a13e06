/**
 * An invoice's downloads (the back office's 'Fatture' and the customer's 'Le mie fatture'):
 * GET invoice/xml/{id} (FatturaPA, saved under the invoice's file name) or invoice/pdf/{id} (the
 * courtesy PDF, named as the server names it).
 */
import { useMutation } from '@tanstack/react-query';
import type { Invoice } from '../../../contract/schemas/invoice';
import { downloadFile, downloadMessageOr } from '../../lib/download-file';

export type InvoiceFile = 'xml' | 'pdf';

/** The courtesy PDF's name, as the server names it. */
export const pdfFileName = (i: Pick<Invoice, 'documentType' | 'number'>) =>
  `${i.documentType === 'TD04' ? 'Nota_di_credito' : 'Fattura'}_${i.number.replace('/', '-')}.pdf`;

type Row = Pick<Invoice, 'id' | 'documentType' | 'number' | 'fileName'>;

export function downloadInvoice(invoice: Row, kind: InvoiceFile): Promise<string> {
  return kind === 'xml'
    ? downloadFile(`invoice/xml/${invoice.id}`, { fileName: invoice.fileName })
    : downloadFile(`invoice/pdf/${invoice.id}`, { fileName: pdfFileName(invoice) });
}

/** Text shared by the invoice downloads' failure toast. */
export const downloadFailed = 'Download non riuscito. Riprova.';

/** Variables: the row and which file. A failure toasts the server's reason, else 'Download non riuscito'. */
export function useDownloadInvoice() {
  return useMutation({
    mutationFn: ({ invoice, kind }: { invoice: Row; kind: InvoiceFile }) => downloadInvoice(invoice, kind),
    meta: {
      errorMessage: downloadMessageOr(downloadFailed),
      logLabel: 'Download della fattura non riuscito:',
    },
  });
}
