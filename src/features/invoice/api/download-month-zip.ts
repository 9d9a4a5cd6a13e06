/** 'Scarica ZIP' (Admin): GET invoice/zip?month=YYYY-MM, the month's XML files for the accountant. */
import { useMutation } from '@tanstack/react-query';
import { downloadFile, downloadMessageOr } from '../../../lib/download-file';
import { downloadFailed } from '../../../entities/invoice/invoice-downloads';
import { invoicePaths } from './invoice-queries';

export function downloadMonthZip(month: string): Promise<string> {
  return downloadFile(invoicePaths.zip, { fileName: `fatture_${month}.zip`, params: { month } });
}

/** Variables: the month ('YYYY-MM'). */
export function useDownloadMonthZip() {
  return useMutation({
    mutationFn: downloadMonthZip,
    meta: { errorMessage: downloadMessageOr(downloadFailed), logLabel: 'ZIP delle fatture non scaricato:' },
  });
}
