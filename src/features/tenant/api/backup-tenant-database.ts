/** 'Scarica backup': GET tenant/{id}/database/backup, saved under the server's file name. */
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../lib/download-file';
import { notify } from '../../../lib/notify';
import { tenantDatabaseText as t } from '../tenant-database-text';
import { operationFailure } from './tenant-database-queries';

/** Downloads the backup; answers the saved file's name. */
export function backupTenantDatabase(id: number): Promise<string> {
  return downloadFile(`tenant/${id}/database/backup`, { fileName: `tenant-${id}.backup` });
}

/** Variables: the tenant's id. Toasts the saved file's name, or the server's reason. */
export function useBackupTenantDatabase() {
  return useMutation({
    mutationFn: backupTenantDatabase,
    onSuccess: (fileName) => notify.success(t.backupSaved(fileName)),
    meta: operationFailure('backup', t.backupFailed),
  });
}
