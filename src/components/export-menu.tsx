import { useEffect, useId, useRef, useState } from 'react';
import { reportMessages } from '../../contract/messages';
import { downloadErrorMessage, downloadFile } from '../lib/download-file';
import { isHandledByInterceptor } from '../lib/http-errors';
import { notify } from '../lib/notify';
import { ChevronDownIcon, DownloadIcon } from './icons';
import { uiText } from './ui-text';

export type ExportFormat = 'csv' | 'xlsx';

export interface ExportMenuProps {
  /** The export call, e.g. 'subscription/export'. */
  path: string;
  /** The list's current criteria (searchTerm, filters[...], sort), without paging. */
  params?: Record<string, string | number>;
  /** The name when the server sends none. */
  fileName: string;
}

const bytes = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 1 });
function sizeLabel(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${bytes.format(n / 1024)} KB`;
  return `${bytes.format(n / (1024 * 1024))} MB`;
}

/**
 * 'Esporta' (issue 14): CSV or Excel of the whole list the screen shows (its search, filters and
 * order, every page), produced by the server. While the file downloads the button shows the
 * progress; a failure is an Italian toast with the server's reason when it gives one.
 */
export function ExportMenu({ path, params, fileName }: ExportMenuProps) {
  const [open, setOpen] = useState(false);
  const [progress, setProgress] = useState<{ loaded: number; total?: number } | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !rootRef.current?.contains(e.target as Node))
        setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  async function run(format: ExportFormat) {
    setOpen(false);
    setProgress({ loaded: 0 });
    try {
      await downloadFile(path, {
        params: { ...params, format },
        fileName: `${fileName}.${format}`,
        onProgress: setProgress,
      });
    } catch (error) {
      console.error('Esportazione non riuscita:', error);
      if (!isHandledByInterceptor(error)) {
        const reason = downloadErrorMessage(error);
        notify.error(reason ? `${reportMessages.exportFailed} ${reason}` : reportMessages.exportFailed);
      }
    } finally {
      setProgress(null);
    }
  }

  const busy = progress !== null;
  const percent = progress?.total
    ? Math.min(100, Math.round((progress.loaded / progress.total) * 100))
    : null;
  return (
    <div ref={rootRef} className="relative">
      <button
        type="button"
        className="btn-secondary"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={busy}
        onClick={() => setOpen((o) => !o)}
      >
        <DownloadIcon className="h-4 w-4" />
        {busy
          ? `${uiText.exporting}${percent !== null ? ` ${percent} %` : progress.loaded > 0 ? ` ${sizeLabel(progress.loaded)}` : ''}`
          : uiText.exportMenu}
        {!busy && <ChevronDownIcon className="h-4 w-4" />}
      </button>
      {busy && (
        <div
          role="progressbar"
          aria-label={uiText.exporting}
          aria-valuemin={0}
          aria-valuemax={100}
          {...(percent !== null ? { 'aria-valuenow': percent } : {})}
          className="absolute inset-x-1 -bottom-1.5 h-1 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className={`h-full rounded-full bg-brand-blue ${percent === null ? 'w-1/3 animate-pulse' : ''}`}
            style={percent !== null ? { width: `${percent}%` } : undefined}
          />
        </div>
      )}
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={uiText.exportMenu}
          className="absolute right-0 z-30 mt-2 w-56 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-lg"
        >
          <button
            type="button"
            role="menuitem"
            aria-label={uiText.exportCsv}
            className="flex w-full flex-col items-start px-4 py-2 text-left text-sm hover:bg-slate-50 focus:bg-slate-50 focus:outline-none"
            onClick={() => void run('csv')}
          >
            <span className="font-medium text-slate-900">{uiText.exportCsv}</span>
            <span className="text-xs text-slate-500">{uiText.exportCsvHint}</span>
          </button>
          <button
            type="button"
            role="menuitem"
            aria-label={uiText.exportXlsx}
            className="flex w-full flex-col items-start px-4 py-2 text-left text-sm hover:bg-slate-50 focus:bg-slate-50 focus:outline-none"
            onClick={() => void run('xlsx')}
          >
            <span className="font-medium text-slate-900">{uiText.exportXlsx}</span>
            <span className="text-xs text-slate-500">{uiText.exportXlsxHint}</span>
          </button>
        </div>
      )}
    </div>
  );
}
