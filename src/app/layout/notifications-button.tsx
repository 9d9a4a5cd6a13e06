import { BellIcon } from '../../components/icons';
import { usePopover } from './use-popover';

const PANEL_ID = 'notifications-panel';

/** The top bar's bell (spec §2). No notification feed exists yet: the panel says so. */
export function NotificationsButton() {
  const { open, setOpen, rootRef, triggerRef } = usePopover();
  return (
    <div ref={rootRef} className="relative">
      <button
        ref={triggerRef}
        type="button"
        className="icon-btn"
        aria-label="Notifiche"
        aria-expanded={open}
        aria-controls={open ? PANEL_ID : undefined}
        onClick={() => setOpen((v) => !v)}
      >
        <BellIcon className="h-5 w-5" />
      </button>
      {open && (
        <div
          id={PANEL_ID}
          role="region"
          aria-label="Notifiche"
          className="absolute right-0 z-50 mt-2 w-72 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-lg"
        >
          <p className="font-medium text-slate-900">Notifiche</p>
          <p className="mt-1 text-slate-500">Nessuna nuova notifica.</p>
        </div>
      )}
    </div>
  );
}
