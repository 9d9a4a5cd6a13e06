import { lazy, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { BypassNotAllowed } from '../features/tenant/bypass-not-allowed';
import { getLastEndReason, loginPathFor, useSession } from '../lib/session';
import { useSelectedTenantId } from '../lib/tenant-store';
import { isCustomer } from '../../contract/access';
import { canAccess, type AppRoute } from './route-table';
import { ForbiddenPage, NotFoundPage } from './status-pages';

const LandingPage = lazy(() => import('../features/landing/landing-page'));
const TenantSelectionScreen = lazy(() => import('../features/tenant/tenant-selection-screen'));
const RootLayout = lazy(() => import('./layout/root-layout'));

/**
 * Every non-public path (spec §2, §4): no session → the landing page at /, /login elsewhere;
 * a stray bypassTenant → its message; no tenant → the full-screen tenant selection;
 * otherwise the root layout.
 */
export function AuthGate() {
  const session = useSession();
  const tenantId = useSelectedTenantId();
  const { pathname } = useLocation();
  const [params] = useSearchParams();

  if (!session) {
    if (pathname === '/') return <LandingPage />;
    return <Navigate to={loginPathFor(getLastEndReason())} replace />;
  }
  if (params.get('bypassTenant') === 'true') return <BypassNotAllowed />;
  if (tenantId === null) return <TenantSelectionScreen />;
  return <RootLayout />;
}

/** /login is for signed-out people; a signed-in one goes home. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  return session ? <Navigate to="/" replace /> : children;
}

/**
 * A table row's screen, only for the roles it allows (spec §2, §6). Staff refused a screen read
 * 'Accesso negato'; a customer is never told the back office exists: 'Pagina non trovata' (issue 28).
 */
export function RouteScreen({ route }: { route: AppRoute }) {
  const session = useSession();
  const role = session?.user.role;
  if (!canAccess(route, role)) return isCustomer(role) ? <NotFoundPage /> : <ForbiddenPage />;
  const Screen = route.screen;
  return <Screen routeLabel={route.label} />;
}
