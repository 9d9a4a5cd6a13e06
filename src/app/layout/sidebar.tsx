import { useCallback, useRef, type RefObject } from 'react';
import { NavLink } from 'react-router-dom';
import type { RoleId } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { ArrowRightIcon, CloseIcon } from '../../components/icons';
import { sidebarRoutes } from '../route-table';
import { useFocusTrap } from '../../lib/use-focus-trap';

export const SIDEBAR_ID = 'app-sidebar';

/**
 * The right slide-in 'Menu principale' (spec §2): sidebar rows the role may see, no id paths.
 * A link, a click outside or Escape closes it; focus stays inside while open and goes back to
 * the toggle afterwards. Kept mounted (inert when closed) so the 300 ms slide plays both ways.
 */
export function Sidebar({
  open,
  onClose,
  role,
  toggleRef,
}: {
  open: boolean;
  onClose: () => void;
  role: RoleId | undefined;
  toggleRef: RefObject<HTMLButtonElement | null>;
}) {
  const panelRef = useRef<HTMLElement>(null);
  const close = useCallback(() => onClose(), [onClose]);
  useFocusTrap(panelRef, open, close, toggleRef);
  const entries = sidebarRoutes(role);

  return (
    <div
      className={`fixed inset-0 z-40 transition-[visibility] duration-300 ${open ? 'visible' : 'invisible'}`}
      aria-hidden={!open}
      inert={!open}
    >
      <div
        data-testid="sidebar-backdrop"
        className={`absolute inset-0 bg-slate-900/30 backdrop-blur-[1px] transition-opacity duration-300 ${open ? 'opacity-100' : 'opacity-0'}`}
        onClick={onClose}
      />
      <aside
        ref={panelRef}
        id={SIDEBAR_ID}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${SIDEBAR_ID}-title`}
        tabIndex={-1}
        className={`absolute top-0 right-0 flex h-full w-80 max-w-[85vw] flex-col bg-white shadow-2xl transition-transform duration-300 ease-out ${open ? 'translate-x-0' : 'translate-x-full'}`}
      >
        <div className="h-1 bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo" />
        <div className="flex items-center justify-between border-b border-slate-100 px-5 py-4">
          <h2 id={`${SIDEBAR_ID}-title`} className="text-base font-semibold text-slate-900">
            {messages.layout.sidebarTitle}
          </h2>
          <button type="button" className="icon-btn" aria-label="Chiudi menu" onClick={onClose}>
            <CloseIcon className="h-5 w-5" />
          </button>
        </div>
        <nav aria-label={messages.layout.sidebarTitle} className="flex-1 overflow-y-auto px-3 py-4">
          <ul className="space-y-1">
            {entries.map((route) => (
              <li key={route.path}>
                <NavLink
                  to={route.path}
                  end
                  onClick={onClose}
                  className={({ isActive }) =>
                    `group flex items-center justify-between rounded-lg px-3 py-2.5 text-sm font-medium transition-colors ${
                      isActive
                        ? 'bg-blue-50 text-brand-ink'
                        : 'text-slate-700 hover:bg-slate-50 hover:text-slate-900'
                    }`
                  }
                >
                  {route.label}
                  <ArrowRightIcon className="h-4 w-4 opacity-0 transition-opacity group-hover:opacity-60" />
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
    </div>
  );
}
