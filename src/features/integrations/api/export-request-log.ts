/** 'Esporta CSV' on a key's request log: GET apikey/{id}/logs/export with the log's filters. */
import { useMutation } from '@tanstack/react-query';
import { messages } from '../../../../contract/messages';
import { downloadMessageOr } from '../../../lib/download-file';
import { http } from '../../../lib/http';
import type { LogFilters } from './api-key-queries';

export async function exportRequestLog(id: number, filters: LogFilters): Promise<void> {
  const params: Record<string, string> = {};
  if (filters.status) params.status = filters.status;
  if (filters.method) params.method = filters.method;
  if (filters.path) params.path = filters.path;
  const res = await http.get<ArrayBuffer>(`apikey/${id}/logs/export`, {
    params,
    responseType: 'arraybuffer',
  });
  const url = URL.createObjectURL(new Blob([res.data], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `chiave-${id}-registro.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

/** Variables: the key's id and the filters shown. A failure toasts the server's reason, else the load error. */
export function useExportRequestLog() {
  return useMutation({
    mutationFn: ({ id, filters }: { id: number; filters: LogFilters }) => exportRequestLog(id, filters),
    meta: {
      errorMessage: downloadMessageOr(messages.http.loadError),
      logLabel: 'Esportazione del registro non riuscita:',
    },
  });
}
