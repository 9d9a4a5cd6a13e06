import { lazy, Suspense, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import type { StoredUser } from '../../lib/session';
import { MenuIcon } from '../../components/icons';
import { Breadcrumb } from './breadcrumb';
import { NotificationsButton } from './notifications-button';
import { SIDEBAR_ID } from './sidebar';
import { UserMenu } from './user-menu';

const TenantTopBarSelector = lazy(() => import('../../features/tenant/tenant-top-bar-selector'));
const SupplierPicker = lazy(() => import('../../features/tenant/supplier-picker'));

/** Logo, breadcrumb, SuperAdmin tenant selector (a customer's 'Fornitore'), bell, user menu, sidebar toggle (spec §2). */
export function TopBar({
  user,
  isSuperAdmin,
  isCustomer = false,
  sidebarOpen,
  onToggleSidebar,
  toggleRef,
}: {
  user: StoredUser;
  isSuperAdmin: boolean;
  /** A customer: their 'Fornitore' picker when they buy from several sellers (issue 28). */
  isCustomer?: boolean;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  toggleRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 sm:px-6 lg:px-8">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded-lg"
          aria-label="Rinnova, vai alla home"
        >
          <img src="/logo.svg" alt="" className="h-8 w-8" />
          <span className="hidden text-base font-semibold tracking-tight text-slate-900 sm:inline">
            Rinnova
          </span>
        </Link>
        <span aria-hidden="true" className="hidden h-5 w-px bg-slate-200 md:block" />
        <Breadcrumb className="order-last w-full pb-1 md:order-none md:w-auto md:flex-1 md:pb-0" />
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          {isSuperAdmin && (
            <div className="hidden md:block">
              <Suspense fallback={<span className="text-xs text-slate-500">…</span>}>
                <TenantTopBarSelector />
              </Suspense>
            </div>
          )}
          {isCustomer && (
            <Suspense fallback={null}>
              <SupplierPicker />
            </Suspense>
          )}
          <NotificationsButton />
          <UserMenu user={user} />
          <button
            ref={toggleRef}
            type="button"
            className="icon-btn"
            aria-label={sidebarOpen ? 'Chiudi menu principale' : 'Apri menu principale'}
            aria-expanded={sidebarOpen}
            aria-controls={SIDEBAR_ID}
            onClick={onToggleSidebar}
          >
            <MenuIcon className="h-5 w-5" />
          </button>
        </div>
      </div>
    </header>
  );
}
