import { useCan } from '../../lib/access';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { findRoute } from '../route-table';
import { useShellToasts } from '../providers';
import { PageSpinner } from '../../components/spinner';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

const TenantMobileDropdown = lazy(() => import('../../features/tenant/tenant-mobile-dropdown'));
const TwoFactorPrompt = lazy(() =>
  import('../../features/auth/two-factor-dialog').then((m) => ({ default: m.TwoFactorPrompt })),
);

/** The signed-in shell with a tenant selected: top bar, slide-in sidebar, content (spec §2). */
export default function RootLayout() {
  const session = useSession();
  const { pathname } = useLocation();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  const can = useCan();
  const isSuperAdmin = can('tenant', 'switchAny');
  const customer = can('customerArea', 'list');
  const tenantId = useSelectedTenantId();
  useShellToasts();

  useEffect(() => {
    const label = pathname === '/' && !customer ? 'Dashboard' : findRoute(pathname)?.label;
    document.title = label ? `${label} · Rinnova` : 'Rinnova';
  }, [pathname, customer]);

  if (!session) return null;
  return (
    <div className="min-h-screen bg-slate-50">
      <a
        href="#contenuto"
        className="sr-only z-50 rounded-lg bg-white px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Vai al contenuto
      </a>
      <TopBar
        user={session.user}
        isSuperAdmin={isSuperAdmin}
        isCustomer={customer}
        sidebarOpen={sidebarOpen}
        onToggleSidebar={() => setSidebarOpen((v) => !v)}
        toggleRef={toggleRef}
      />
      <Sidebar open={sidebarOpen} onClose={closeSidebar} role={session.user.role} toggleRef={toggleRef} />
      <main
        id="contenuto"
        tabIndex={-1}
        // The SuperAdmin's fixed bottom tenant bar (small screens) publishes its height; the last
        // lines of every page scroll clear of it. 0 when the bar is not showing.
        className="mx-auto w-full max-w-7xl px-4 pt-6 pb-[calc(1.5rem+var(--tenant-bar-height,0px))] focus:outline-none sm:px-6 lg:px-8 lg:pt-8 lg:pb-[calc(2rem+var(--tenant-bar-height,0px))]"
      >
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      {isSuperAdmin && (
        <Suspense fallback={null}>
          <TenantMobileDropdown />
        </Suspense>
      )}
      {can('twoFactor', 'prompt') && (
        <Suspense fallback={null}>
          <TwoFactorPrompt tenantId={tenantId} />
        </Suspense>
      )}
    </div>
  );
}
