import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import { Role, type RoleId } from '../../contract/enums';
import { messages } from '../../contract/messages';

import type { ScreenProps } from '../lib/resource';

export type { ScreenProps };

/**
 * One row of the spec's route table (§2). The table is written once, here: the route tree,
 * the sidebar, the breadcrumb and the role guard all read it.
 */
export interface AppRoute {
  /** Absolute path; `:id` marks a detail page ('new' or any id). */
  path: string;
  /** Italian label: sidebar entry and breadcrumb segment. */
  label: string;
  inSidebar: boolean;
  /** Roles allowed to open it; absent = any signed-in user. */
  roles?: readonly RoleId[];
  screen: LazyExoticComponent<ComponentType<ScreenProps>>;
}

const adminOnly = [Role.Admin, Role.SuperAdmin] as const;
const superAdminOnly = [Role.SuperAdmin] as const;

const regionList = lazy(() =>
  import('../entities/region/region.pages').then((m) => ({ default: m.ListScreen })),
);
const regionForm = lazy(() =>
  import('../entities/region/region.pages').then((m) => ({ default: m.FormScreen })),
);
const provinceList = lazy(() =>
  import('../entities/province/province.pages').then((m) => ({ default: m.ListScreen })),
);
const provinceForm = lazy(() =>
  import('../entities/province/province.pages').then((m) => ({ default: m.FormScreen })),
);
const municipalityList = lazy(() =>
  import('../entities/municipality/municipality.pages').then((m) => ({ default: m.ListScreen })),
);
const municipalityForm = lazy(() =>
  import('../entities/municipality/municipality.pages').then((m) => ({ default: m.FormScreen })),
);

/** The list and form screens of an entity's pages module (`src/entities/<name>/<name>.pages.tsx`). */
type PagesModule = { ListScreen: ComponentType<ScreenProps>; FormScreen: ComponentType<ScreenProps> };
function entityScreens(load: () => Promise<PagesModule>) {
  return {
    list: lazy(() => load().then((m) => ({ default: m.ListScreen }))),
    form: lazy(() => load().then((m) => ({ default: m.FormScreen }))),
  };
}
const tenant = entityScreens(() => import('../entities/tenant/tenant.pages'));
const user = entityScreens(() => import('../entities/user/user.pages'));
const paymentProvider = entityScreens(() => import('../entities/payment-provider/payment-provider.pages'));
const address = entityScreens(() => import('../entities/address/address.pages'));
const plan = entityScreens(() => import('../entities/plan/plan.pages'));
const planFeature = entityScreens(() => import('../entities/plan-feature/plan-feature.pages'));
const feature = entityScreens(() => import('../entities/feature/feature.pages'));
const subscription = entityScreens(() => import('../entities/subscription/subscription.pages'));
const invoiceList = lazy(() => import('../features/invoice/invoice-list-page'));
const userWizard = lazy(() => import('../features/user-wizard/user-wizard-page'));
const hangfire = lazy(() => import('../features/hangfire/hangfire-page'));
const apiKeys = lazy(() => import('../features/integrations/api-keys-page'));
const apiKeyLog = lazy(() => import('../features/integrations/api-key-log-page'));
const webhooks = lazy(() => import('../features/integrations/webhooks-page'));

export const appRoutes: readonly AppRoute[] = [
  { path: '/tenant', label: 'Lista Tenants', inSidebar: true, roles: adminOnly, screen: tenant.list },
  { path: '/tenant/new', label: 'Dettaglio Tenant', inSidebar: false, roles: adminOnly, screen: tenant.form },
  { path: '/tenant/:id', label: 'Dettaglio Tenant', inSidebar: false, roles: adminOnly, screen: tenant.form },

  { path: '/region', label: 'Regioni', inSidebar: false, screen: regionList },
  { path: '/region/new', label: 'Nuova regione', inSidebar: false, screen: regionForm },
  { path: '/region/:id', label: 'Dettaglio regione', inSidebar: false, screen: regionForm },
  { path: '/province', label: 'Province', inSidebar: false, screen: provinceList },
  { path: '/province/new', label: 'Nuova provincia', inSidebar: false, screen: provinceForm },
  { path: '/province/:id', label: 'Dettaglio provincia', inSidebar: false, screen: provinceForm },
  { path: '/municipality', label: 'Comuni', inSidebar: false, screen: municipalityList },
  { path: '/municipality/new', label: 'Nuovo comune', inSidebar: false, screen: municipalityForm },
  { path: '/municipality/:id', label: 'Dettaglio comune', inSidebar: false, screen: municipalityForm },

  { path: '/user', label: 'Lista Utenti', inSidebar: true, roles: adminOnly, screen: user.list },
  { path: '/user/:id', label: 'Dettaglio Utente', inSidebar: false, roles: adminOnly, screen: user.form },
  {
    path: '/user-wizard',
    label: messages.wizard.title,
    inSidebar: false,
    roles: adminOnly,
    screen: userWizard,
  },

  { path: '/subscription', label: 'Gestisci Sottoscrizioni', inSidebar: true, screen: subscription.list },
  { path: '/subscription/new', label: 'Crea Sottoscrizione', inSidebar: true, screen: subscription.form },
  {
    path: '/subscription/:id',
    label: 'Dettaglio Sottoscrizione',
    inSidebar: false,
    screen: subscription.form,
  },

  // Admins see the tenant's invoices, a User their own (the server decides which rows).
  { path: '/invoice', label: 'Fatture', inSidebar: true, screen: invoiceList },

  {
    path: '/paymentprovider',
    label: 'Configura PayPal',
    inSidebar: true,
    roles: adminOnly,
    screen: paymentProvider.list,
  },
  {
    path: '/paymentprovider/new',
    label: 'Nuova configurazione PayPal',
    inSidebar: false,
    roles: adminOnly,
    screen: paymentProvider.form,
  },
  {
    path: '/paymentprovider/:id',
    label: 'Dettaglio configurazione PayPal',
    inSidebar: false,
    roles: adminOnly,
    screen: paymentProvider.form,
  },

  { path: '/address', label: 'Indirizzi', inSidebar: false, screen: address.list },
  { path: '/address/new', label: 'Nuovo indirizzo', inSidebar: false, screen: address.form },
  { path: '/address/:id', label: 'Dettaglio indirizzo', inSidebar: false, screen: address.form },

  {
    path: '/plan',
    label: 'Gestisci piani di abbonamento',
    inSidebar: true,
    roles: adminOnly,
    screen: plan.list,
  },
  { path: '/plan/new', label: 'Nuovo piano', inSidebar: false, roles: adminOnly, screen: plan.form },
  { path: '/plan/:id', label: 'Dettaglio piano', inSidebar: false, roles: adminOnly, screen: plan.form },

  { path: '/planfeature', label: 'Funzionalità dei piani', inSidebar: false, screen: planFeature.list },
  {
    path: '/planfeature/new',
    label: 'Nuova funzionalità del piano',
    inSidebar: false,
    screen: planFeature.form,
  },
  {
    path: '/planfeature/:id',
    label: 'Dettaglio funzionalità del piano',
    inSidebar: false,
    screen: planFeature.form,
  },
  { path: '/feature', label: 'Funzionalità', inSidebar: false, screen: feature.list },
  { path: '/feature/new', label: 'Nuova funzionalità', inSidebar: false, screen: feature.form },
  { path: '/feature/:id', label: 'Dettaglio funzionalità', inSidebar: false, screen: feature.form },

  // Integrations (issue 15).
  { path: '/apikey', label: 'Chiavi API', inSidebar: true, roles: adminOnly, screen: apiKeys },
  { path: '/apikey/:id', label: 'Registro chiamate', inSidebar: false, roles: adminOnly, screen: apiKeyLog },
  { path: '/webhook', label: 'Webhook', inSidebar: true, roles: adminOnly, screen: webhooks },

  {
    path: '/hangfire',
    label: 'Status aggiornamento subscription',
    inSidebar: true,
    roles: superAdminOnly,
    screen: hangfire,
  },
];

/** Public paths: reachable without a session (spec §2). `/` is public only without a session. */
export const publicPaths = [
  '/login',
  '/register',
  '/reset-password',
  '/payment',
  '/payment/process',
  '/widget/plan',
  '/widget/confirm',
] as const;

export function canAccess(route: Pick<AppRoute, 'roles'>, role: RoleId | null | undefined): boolean {
  if (!route.roles) return true;
  return role !== null && role !== undefined && route.roles.includes(role);
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
export function breadcrumbFor(pathname: string): Crumb[] {
  const crumbs: Crumb[] = [{ label: messages.layout.home, to: '/' }];
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0) return crumbs;
  if (!findRoute(pathname)) return [...crumbs, { label: messages.layout.pageNotFound }];
  segments.forEach((_, i) => {
    const to = `/${segments.slice(0, i + 1).join('/')}`;
    const route = findRoute(to);
    if (route) crumbs.push({ label: route.label, to });
  });
  return crumbs;
}
