import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { confirmAction, confirmTyped } from '../../components/confirm-delete';
import { DownloadIcon, SendIcon, UploadIcon } from '../../components/icons';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { useBackupTenantDatabase } from './api/backup-tenant-database';
import { useDeleteTenant } from './api/delete-tenant';
import { useExportTenantDatabase } from './api/export-tenant-database';
import { useMoveTenantDatabase } from './api/move-tenant-database';
import { useRestoreTenantDatabase } from './api/restore-tenant-database';
import { useTenantDatabaseServers } from './api/tenant-database-queries';
import { tenantDatabaseText as t } from './tenant-database-text';

type Operation = 'backup' | 'export' | 'restore' | 'move' | 'remove';

/** A server's name as a person reads it ('control' is the control server). */
/** A server's name as shown: the two the app names itself in words, a configured one as it is. */
export const serverLabel = (server: string) =>
  server === 'control' ? t.controlServer : server === 'embedded' ? t.embeddedServer : server;
/** True for a configured server's name (shown in monospace), false for the app's own two. */
export const isNamedServer = (server: string) => server !== 'control' && server !== 'embedded';

/**
 * The operations on a tenant's own database (issue 25), for a SuperAdmin: backup and full export
 * as downloads, restore from a chosen backup file, move to another configured server. One at a
 * time: while one runs every button waits and the running one says so. A failure is a toast with
 * the server's Italian reason; after a restore or a move the tenant's detail is read again.
 */
export function TenantDatabaseActions({
  tenantId,
  tenantName,
  entity,
  server,
}: {
  tenantId: number;
  /** What a SuperAdmin types to confirm the tenant's deletion. */
  tenantName: string;
  /** The entity whose cached detail shows the card (refreshed after a restore or a move). */
  entity: string;
  /** The server the tenant's database is on now. */
  server: string;
}) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const selectedTenantId = useSelectedTenantId();
  const backupCall = useBackupTenantDatabase();
  const exportCall = useExportTenantDatabase();
  const restoreCall = useRestoreTenantDatabase();
  const moveCall = useMoveTenantDatabase();
  const removeCall = useDeleteTenant();
  const pending: Record<Operation, boolean> = {
    backup: backupCall.isPending,
    export: exportCall.isPending,
    restore: restoreCall.isPending,
    move: moveCall.isPending,
    remove: removeCall.isPending,
  };
  const busy = (Object.keys(pending) as Operation[]).find((op) => pending[op]) ?? null;
  const servers = useTenantDatabaseServers(true);
  // A move needs somewhere to go: more than one configured server, and one the tenant is not on.
  const others = (servers.data?.length ?? 0) > 1 ? (servers.data ?? []).filter((s) => s !== server) : [];
  const [target, setTarget] = useState<string>('');
  const chosenTarget = others.includes(target) ? target : (others[0] ?? '');

  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.entity(selectedTenantId, entity) });

  const backup = () => backupCall.mutate(tenantId);

  const exportAll = () => exportCall.mutate(tenantId);

  async function restore(e: ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    const file = input.files?.[0];
    // Cleared at once: choosing the same file again is a new choice.
    input.value = '';
    if (!file || busy) return;
    const confirmed = await confirmAction({
      title: t.restoreConfirm.title,
      text: t.restoreConfirm.text,
      subject: file.name,
      subjectLabel: t.restoreConfirm.subjectLabel,
      confirmText: t.restoreConfirm.confirm,
      cancelText: t.cancel,
    });
    if (!confirmed) return;
    restoreCall.mutate({ id: tenantId, file }, { onSettled: () => void refresh() });
  }

  async function move() {
    if (!chosenTarget || busy) return;
    const confirmed = await confirmAction({
      title: t.moveConfirm.title,
      text: t.moveConfirm.text,
      subject: `${serverLabel(server)} → ${serverLabel(chosenTarget)}`,
      subjectLabel: t.moveConfirm.subjectLabel,
      confirmText: t.moveConfirm.confirm,
      cancelText: t.cancel,
      tone: 'primary',
    });
    if (!confirmed) return;
    moveCall.mutate({ id: tenantId, server: chosenTarget }, { onSettled: () => void refresh() });
  }

  /** The tenant deleted (an export kept on the server first): back to the list, every list read again. */
  async function remove() {
    if (busy) return;
    const confirmed = await confirmTyped({
      title: t.removeConfirm.title,
      text: t.removeConfirm.text,
      subject: tenantName,
      subjectLabel: t.removeConfirm.subjectLabel,
      confirmText: t.removeConfirm.confirm,
      cancelText: t.cancel,
      expected: tenantName,
      inputLabel: t.removeConfirm.inputLabel,
      mismatch: t.removeConfirm.mismatch,
    });
    if (!confirmed) return;
    removeCall.mutate(
      { id: tenantId, name: tenantName },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries();
          navigate('/tenant');
        },
      },
    );
  }

  const label = (operation: Operation, idle: string, running: string, icon: ReactNode) => (
    <>
      {busy === operation ? <Spinner /> : icon}
      {busy === operation ? running : idle}
    </>
  );
  const buttonClass = 'btn-secondary w-full sm:w-auto';

  return (
    <div className="mt-6 border-t border-slate-200 pt-5">
      <h3 className="text-sm font-semibold text-slate-900">{t.operations}</h3>
      <p id={`${id}-hint`} className="mt-1 text-sm text-slate-500">
        {t.operationsHint}
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        <button
          type="button"
          className={buttonClass}
          disabled={busy !== null}
          aria-busy={busy === 'backup'}
          aria-describedby={`${id}-hint`}
          onClick={() => void backup()}
        >
          {label('backup', t.backup, t.backingUp, <DownloadIcon className="h-4 w-4" />)}
        </button>
        <button
          type="button"
          className={buttonClass}
          disabled={busy !== null}
          aria-busy={busy === 'export'}
          aria-describedby={`${id}-hint`}
          onClick={() => void exportAll()}
        >
          {label('export', t.exportAll, t.exporting, <DownloadIcon className="h-4 w-4" />)}
        </button>
        {/* A real file input, visually hidden, named by the label drawn as a button. */}
        <div>
          <input
            id={`${id}-restore`}
            type="file"
            accept=".backup"
            className="peer sr-only"
            disabled={busy !== null}
            onChange={(e) => void restore(e)}
          />
          <label
            htmlFor={`${id}-restore`}
            className={`${buttonClass} cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-blue peer-disabled:cursor-not-allowed peer-disabled:opacity-60`}
          >
            {label('restore', t.restore, t.restoring, <UploadIcon className="h-4 w-4" />)}
          </label>
        </div>
      </div>
      {others.length > 0 && (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="sm:w-64">
            <label className="label" htmlFor={`${id}-target`}>
              {t.moveTarget}
            </label>
            <select
              id={`${id}-target`}
              className="input"
              value={chosenTarget}
              disabled={busy !== null}
              onChange={(e) => setTarget(e.target.value)}
            >
              {others.map((s) => (
                <option key={s} value={s}>
                  {serverLabel(s)}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className={buttonClass}
            disabled={busy !== null}
            aria-busy={busy === 'move'}
            onClick={() => void move()}
          >
            {label('move', t.move, t.moving, <SendIcon className="h-4 w-4" />)}
          </button>
        </div>
      )}
      <div className="mt-5 border-t border-slate-200 pt-4">
        <button
          type="button"
          className="btn-danger w-full sm:w-auto"
          disabled={busy !== null}
          aria-busy={busy === 'remove'}
          onClick={() => void remove()}
        >
          {label('remove', t.remove, t.removing, null)}
        </button>
      </div>
    </div>
  );
}

function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-blue"
    />
  );
}
