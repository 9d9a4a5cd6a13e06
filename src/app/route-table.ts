import { matchPath } from 'react-router-dom';
import { isCustomer, roleCan, type ActionOf, type ResourceName } from '../../contract/access';
import type { RoleId } from '../../contract/enums';
import { messages } from '../../contract/messages';
import type { ScreenProps } from '../lib/resource';
import { registry, type AppRoute } from './registry';

export type { AppRoute, ScreenProps };

/**
 * The spec's route table (§2), generated from the registry (registry.ts): the route tree, the
 * sidebar, the breadcrumb and the guard all read it.
 */
export const appRoutes: readonly AppRoute[] = registry;

/** Public paths: reachable without a session (spec §2). `/` is public only without a session. */
export const publicPaths = [
  '/login',
  '/login/link',
  '/register',
  '/reset-password',
  '/payment',
  '/payment/process',
  '/widget/plan',
  '/widget/confirm',
] as const;

/**
 * Whether `role` may open `route`: an open route any signed-in person, else as the access table
 * says. A customer opens the area's screens only: the spec's 'no limit' back-office screens
 * (geography, subscriptions, features) are staff's, and a customer is never shown them (issue 28).
 */
export function canAccess(route: Pick<AppRoute, 'access'>, role: RoleId | null | undefined): boolean {
  if (isCustomer(role)) return route.access !== 'open' && route.access.resource === 'customerArea';
  if (route.access === 'open') return true;
  const { resource, action } = route.access;
  return roleCan(role, resource, action as ActionOf<ResourceName>);
}

/** Sidebar entries of a role: flagged rows, never login nor a path with an id parameter. */
export function sidebarRoutes(role: RoleId | null | undefined): AppRoute[] {
  return appRoutes.filter(
    (r) => r.inSidebar && !r.path.includes(':') && r.path !== '/login' && canAccess(r, role),
  );
}

/** The table row a pathname opens (a static path like /tenant/new wins over /tenant/:id). */
export function findRoute(pathname: string): AppRoute | undefined {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const matches = appRoutes.filter((r) => matchPath({ path: r.path, end: true }, normalized));
  return matches.find((r) => !r.path.includes(':')) ?? matches[0];
}

export interface Crumb {
  label: string;
  /** Absent when no screen lives at that prefix. */
  to?: string;
}

/**
 * 'Home' plus one crumb per path segment that has a screen, labelled from the table (spec §2,
 * 'Top bar'). A raw path segment is never shown: a path no screen answers reads 'Pagina non
 * trovata', and a prefix without a screen of its own is left out.
 */
export function breadcrumbFor(pathname: string, role?: RoleId | null): Crumb[] {
  const crumbs: Crumb[] = [{ label: messages.layout.home, to: '/' }];
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0) return crumbs;
  // A customer's screen that is not theirs reads as no screen at all (RouteScreen's 404).
  const shown = (route: AppRoute | undefined) =>
    route && (!isCustomer(role) || canAccess(route, role)) ? route : undefined;
  if (!shown(findRoute(pathname))) return [...crumbs, { label: messages.layout.pageNotFound }];
  segments.forEach((_, i) => {
    const to = `/${segments.slice(0, i + 1).join('/')}`;
    const route = shown(findRoute(to));
    if (route) crumbs.push({ label: route.label, to });
  });
  return crumbs;
}
