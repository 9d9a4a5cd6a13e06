/**
 * The app's registry, in react-admin's `<Resource>` shape: each entity's declaration
 * (src/entities/<name>/<name>.resource.ts: its name, labels, routes and access) bound to the
 * module that draws its screens, plus the screens that are not an entity's. The route table
 * (route-table.ts: routes, sidebar, breadcrumb, guard) is generated from this list, in this order
 * (the sidebar's). Adding an admin entity is one line here; its facts live in its declaration.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ResourceName } from '../../contract/access';
import { messages } from '../../contract/messages';
import { addressResource } from '../entities/address/address.resource';
import { featureResource } from '../entities/feature/feature.resource';
import { municipalityResource } from '../entities/municipality/municipality.resource';
import { paymentProviderResource } from '../entities/payment-provider/payment-provider.resource';
import { planFeatureResource } from '../entities/plan-feature/plan-feature.resource';
import { planResource } from '../entities/plan/plan.resource';
import { couponResource } from '../entities/coupon/coupon.resource';
import { provinceResource } from '../entities/province/province.resource';
import { regionResource } from '../entities/region/region.resource';
import { subscriptionResource } from '../entities/subscription/subscription.resource';
import { tenantResource } from '../entities/tenant/tenant.resource';
import { userResource } from '../entities/user/user.resource';
import type { ResourceScreens } from '../components/resource-screens';
import { accessOf, type ResourceDef, type ScreenProps } from '../lib/resource';

type Screen = LazyExoticComponent<ComponentType<ScreenProps>>;

/** Who opens a route: any signed-in person, or the roles allowed `action` on `resource` (contract/access.ts). */
export type RouteAccess = 'open' | { resource: ResourceName; action: string };

/** One row of the route table (spec §2): path, Italian label, sidebar flag, access, screen. */
export interface AppRoute {
  /** Absolute path; `:id` marks a detail page ('new' or any id). */
  path: string;
  /** Italian label: sidebar entry and breadcrumb segment. */
  label: string;
  inSidebar: boolean;
  access: RouteAccess;
  screen: Screen;
}

export type ScreensModule = ResourceScreens;

/**
 * An entity's declaration and, when they are not the generic list and form
 * (components/resource-screens.tsx), the module that draws its screens.
 */
export interface ResourceBinding {
  resource: ResourceDef;
  screens?: () => Promise<ScreensModule>;
}

/** The module that draws a binding's screens: its own, or the generic ones of its declaration. */
export function screensOf({ resource, screens }: ResourceBinding): () => Promise<ScreensModule> {
  return screens ?? (() => import('../components/resource-screens').then((m) => m.resourceScreens(resource)));
}

/**
 * A resource's routes, from its declaration: `/{name}`, `/{name}/new` when it declares a create
 * route, `/{name}/:id`; guarded by `can(name, 'list')` or open, as the declaration says.
 */
function routesOf(binding: ResourceBinding): AppRoute[] {
  const def = binding.resource;
  const load = screensOf(binding);
  const routes = def.routes;
  const name = accessOf(def);
  if (!routes || !name) throw new Error(`La risorsa ${def.name} non dichiara le sue route.`);
  const access: RouteAccess = routes.access === 'open' ? 'open' : { resource: name, action: 'list' };
  const list = lazy(() => load().then((m) => ({ default: m.ListScreen })));
  const form = lazy(() => load().then((m) => ({ default: m.FormScreen })));
  const base = `/${def.name}`;
  return [
    {
      path: base,
      label: routes.list.label,
      inSidebar: routes.list.sidebar ?? false,
      access,
      screen: list,
    },
    ...(routes.create
      ? [
          {
            path: `${base}/new`,
            label: routes.create.label,
            inSidebar: routes.create.sidebar ?? false,
            access,
            screen: form,
          },
        ]
      : []),
    { path: `${base}/:id`, label: routes.edit.label, inSidebar: false, access, screen: form },
  ];
}

/** A screen that is not an entity's list or form. */
function page(path: string, label: string, access: RouteAccess, screen: Screen, inSidebar = false): AppRoute {
  return { path, label, inSidebar, access, screen };
}

/** Every entity with screens, by the name of its declaration: the generic ones unless bound to its own. */
export const resourceBindings = {
  tenant: { resource: tenantResource, screens: () => import('../features/tenant/tenant-screens') },
  region: { resource: regionResource },
  province: { resource: provinceResource },
  municipality: { resource: municipalityResource },
  user: { resource: userResource, screens: () => import('../entities/user/user.pages') },
  subscription: {
    resource: subscriptionResource,
    screens: () => import('../features/subscription/subscription-screens'),
  },
  paymentProvider: { resource: paymentProviderResource },
  address: { resource: addressResource },
  plan: { resource: planResource, screens: () => import('../features/plan/plan-screens') },
  planFeature: { resource: planFeatureResource },
  coupon: { resource: couponResource, screens: () => import('../features/coupon/coupon-screens') },
  feature: { resource: featureResource },
} satisfies Record<string, ResourceBinding>;

/** The customer area's screens (issue 28): a User's own, in their sidebar's order. */
const customerArea = { resource: 'customerArea', action: 'list' } as const;

export const registry: readonly AppRoute[] = [
  // The area's home is the index route (app/home-page.tsx draws it for a User); this row gives it
  // its sidebar entry. The route tree leaves '/' to the index route.
  page(
    '/',
    'Area clienti',
    customerArea,
    lazy(() => import('../features/customer-area/customer-home-page')),
    true,
  ),
  page(
    '/my/invoices',
    'Le mie fatture',
    customerArea,
    lazy(() => import('../features/customer-area/my-invoices-page')),
    true,
  ),
  page(
    '/my/billing',
    'Dati di fatturazione',
    customerArea,
    lazy(() => import('../features/customer-area/billing-data-page')),
    true,
  ),
  page(
    '/my/data',
    'I miei dati',
    { resource: 'customerArea', action: 'list' },
    lazy(() => import('../features/customer-area/my-data-page')),
    true,
  ),
  ...routesOf(resourceBindings.tenant),
  ...routesOf(resourceBindings.region),
  ...routesOf(resourceBindings.province),
  ...routesOf(resourceBindings.municipality),
  ...routesOf(resourceBindings.user),
  page(
    '/user-wizard',
    messages.wizard.title,
    { resource: 'user', action: 'create' },
    lazy(() => import('../features/user-wizard/user-wizard-page')),
  ),
  ...routesOf(resourceBindings.subscription),
  // The tenant's invoices, for staff; a customer has 'Le mie fatture' (/my/invoices).
  page(
    '/invoice',
    'Fatture',
    { resource: 'invoice', action: 'manage' },
    lazy(() => import('../features/invoice/invoice-list-page')),
    true,
  ),
  // Collection of payments (issue 29): the overdue payments and the tenant's ladder (Admins).
  page(
    '/collection',
    'Incassi in sospeso',
    { resource: 'collection', action: 'list' },
    lazy(() => import('../features/collection/overdue-page')),
    true,
  ),
  page(
    '/collection/settings',
    'Solleciti',
    { resource: 'collection', action: 'edit' },
    lazy(() => import('../features/collection/ladder-page')),
  ),
  ...routesOf(resourceBindings.paymentProvider),
  ...routesOf(resourceBindings.address),
  ...routesOf(resourceBindings.plan),
  // Coupons (issue 30): after the plans they discount.
  ...routesOf(resourceBindings.coupon),
  ...routesOf(resourceBindings.planFeature),
  ...routesOf(resourceBindings.feature),
  page(
    '/apikey',
    'Chiavi API',
    { resource: 'apikey', action: 'list' },
    lazy(() => import('../features/integrations/api-keys-page')),
    true,
  ),
  page(
    '/apikey/:id',
    'Registro chiamate',
    { resource: 'apikey', action: 'list' },
    lazy(() => import('../features/integrations/api-key-log-page')),
  ),
  page(
    '/webhook',
    'Webhook',
    { resource: 'webhook', action: 'list' },
    lazy(() => import('../features/integrations/webhooks-page')),
    true,
  ),
  page(
    '/hangfire',
    'Status aggiornamento subscription',
    { resource: 'hangfire', action: 'list' },
    lazy(() => import('../features/hangfire/hangfire-page')),
    true,
  ),
];
