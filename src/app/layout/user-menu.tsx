import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { roleCan } from '../../../contract/access';
import { roleNameById } from '../../../contract/enums';
import { TwoFactorDialog, twoFactorText } from '../../features/auth/two-factor-dialog';
import { messages } from '../../../contract/messages';
import { logout } from '../../lib/logout';
import { type StoredUser } from '../../lib/session';
import { ChevronDownIcon, LogoutIcon, ShieldIcon } from '../../components/icons';
import { usePopover } from './use-popover';

const MENU_ID = 'user-menu';

/**
 * The user menu: e-mail and role, 'Accesso in due passaggi' for Admin and SuperAdmin (issue 23),
 * then 'Logout' (spec §2). Arrow keys move between items.
 */
export function UserMenu({ user }: { user: StoredUser }) {
  const { open, setOpen, close, rootRef, triggerRef } = usePopover();
  const menuRef = useRef<HTMLDivElement>(null);
  const [twoFactorOpen, setTwoFactorOpen] = useState(false);
  const closeTwoFactor = useCallback(() => setTwoFactorOpen(false), []);
  const staff = roleCan(user.role, 'twoFactor', 'edit');

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  function onMenuKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      (e.key === 'Home' ? items[0] : items[items.length - 1])?.focus();
    } else if (e.key === 'Tab') {
      close();
    }
  }

  const initial = user.email.charAt(0).toUpperCase();
  return (
    <div ref={rootRef} className="relative">
      <button
        ref={triggerRef}
        type="button"
        className="flex items-center gap-2 rounded-lg p-1 text-sm text-slate-700 transition-colors hover:bg-slate-100 sm:pr-2"
        // The visible text first (WCAG 2.5.3, label in name): the e-mail, then what the button opens.
        aria-label={`${user.email} – Menu utente`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? MENU_ID : undefined}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span
          aria-hidden="true"
          className="flex h-7 w-7 items-center justify-center rounded-full bg-linear-to-br from-brand-sky to-brand-indigo text-xs font-semibold text-white"
        >
          {initial}
        </span>
        {/* The whole e-mail where there is room; cut with an ellipsis (whole on hover) only when not. */}
        <span className="hidden max-w-[16rem] truncate md:inline xl:max-w-none" title={user.email}>
          {user.email}
        </span>
        <ChevronDownIcon className="hidden h-4 w-4 text-slate-400 sm:block" />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={MENU_ID}
          role="menu"
          aria-label="Menu utente"
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-50 mt-2 w-64 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg"
        >
          <div className="border-b border-slate-100 px-4 py-3" role="none">
            <p className="truncate text-sm font-medium text-slate-900">{user.email}</p>
            <p className="text-xs text-slate-500">{roleNameById[user.role]}</p>
          </div>
          <div className="p-1" role="none">
            {staff && (
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-50 focus:bg-slate-50 focus:outline-none"
                onClick={() => {
                  setOpen(false);
                  setTwoFactorOpen(true);
                }}
              >
                <ShieldIcon className="h-4 w-4 text-slate-400" />
                {twoFactorText.title}
              </button>
            )}
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-50 focus:bg-slate-50 focus:outline-none"
              onClick={() => {
                setOpen(false);
                void logout();
              }}
            >
              <LogoutIcon className="h-4 w-4 text-slate-400" />
              {messages.layout.logout}
            </button>
          </div>
        </div>
      )}
      {twoFactorOpen && <TwoFactorDialog onClose={closeTwoFactor} />}
    </div>
  );
}
