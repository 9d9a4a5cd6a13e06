/** 'I miei dati' (issue 28): GET user/me/data?format=json|pdf, saved under the server's file name. */
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import { customerAreaMessages } from '../../../../contract/messages';
import type { MyDataFileFormat } from '../../../../contract/schemas/my-data';
import { downloadErrorMessage, downloadFile } from '../../../lib/download-file';

export function downloadMyData(format: MyDataFileFormat): Promise<string> {
  return downloadFile(apiPaths.user.myData, {
    params: { format },
    fileName: `rinnova-i-miei-dati.${format}`,
  });
}

/** Variables: the format. A failure toasts the call's text and the server's reason (read from the bytes). */
export function useDownloadMyData() {
  return useMutation({
    mutationFn: downloadMyData,
    meta: {
      errorMessage: (error: unknown) => {
        const reason = downloadErrorMessage(error);
        return reason ? `${customerAreaMessages.myDataFailed} ${reason}` : customerAreaMessages.myDataFailed;
      },
      logLabel: 'I miei dati non scaricati:',
    },
  });
}
