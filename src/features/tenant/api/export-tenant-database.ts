/** 'Esporta tutti i dati': POST tenant/{id}/database/export, the full export as a zip. */
import { useMutation } from '@tanstack/react-query';
import { downloadFilePost } from '../../../lib/download-file';
import { notify } from '../../../lib/notify';
import { tenantDatabaseText as t } from '../tenant-database-text';
import { operationFailure } from './tenant-database-queries';

/** Downloads the full export (zip); answers the saved file's name. */
export function exportTenantDatabase(id: number): Promise<string> {
  return downloadFilePost(`tenant/${id}/database/export`, undefined, { fileName: `tenant-${id}.zip` });
}

/** Variables: the tenant's id. Toasts the saved file's name, or the server's reason. */
export function useExportTenantDatabase() {
  return useMutation({
    mutationFn: exportTenantDatabase,
    onSuccess: (fileName) => notify.success(t.exportSaved(fileName)),
    meta: operationFailure('export', t.exportFailed),
  });
}
