/** 'Report PDF' (issue 14): GET report/pdf?month=YYYY-MM, saved as report-YYYY-MM.pdf (or the server's name). */
import { useMutation } from '@tanstack/react-query';
import { reportMessages } from '../../../../contract/messages';
import { downloadFile } from '../../../lib/download-file';
import { reportFailure } from './report-failure';

export function downloadReport(month: string): Promise<string> {
  return downloadFile('report/pdf', { params: { month }, fileName: `report-${month}.pdf` });
}

/** Variables: the month ('YYYY-MM'). */
export function useDownloadReport() {
  return useMutation({
    mutationFn: downloadReport,
    meta: { errorMessage: reportFailure(reportMessages.reportFailed), logLabel: 'Report PDF non scaricato:' },
  });
}
