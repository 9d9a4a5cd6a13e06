import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { appRoutes, breadcrumbFor, canAccess, findRoute, sidebarRoutes } from '../../../src/app/route-table';
import { sidebarEntriesByRole } from './sidebar-entries';

describe('route table (spec §2)', () => {
  it('holds every path of the spec table', () => {
    const paths = appRoutes.map((r) => r.path);
    const expected = [
      '/tenant',
      '/tenant/new',
      '/tenant/:id',
      '/region',
      '/region/new',
      '/region/:id',
      '/province',
      '/province/new',
      '/province/:id',
      '/municipality',
      '/municipality/new',
      '/municipality/:id',
      '/user',
      '/user/:id',
      '/user-wizard',
      '/subscription',
      '/subscription/:id',
      '/subscription/new',
      '/invoice',
      '/collection',
      '/collection/settings',
      '/paymentprovider',
      '/paymentprovider/new',
      '/paymentprovider/:id',
      '/address',
      '/address/new',
      '/address/:id',
      '/plan',
      '/plan/new',
      '/plan/:id',
      // Coupons (issue 30).
      '/coupon',
      '/coupon/new',
      '/coupon/:id',
      '/planfeature',
      '/planfeature/new',
      '/planfeature/:id',
      '/feature',
      '/feature/new',
      '/feature/:id',
      '/hangfire',
      '/apikey',
      '/apikey/:id',
      '/webhook',
      // The customer area (issue 28): its home '/' (the index route draws it), invoices, billing data.
      '/',
      '/my/invoices',
      '/my/billing',
      '/my/data',
    ];
    expect([...paths].sort()).toEqual([...expected].sort());
  });

  it('limits roles as the spec says', () => {
    const allowed = (path: string) => {
      const route = findRoute(path);
      if (!route) throw new Error(`no route at ${path}`);
      return ([Role.SuperAdmin, Role.Admin, Role.User] as const).filter((role) => canAccess(route, role));
    };
    const admins = [Role.SuperAdmin, Role.Admin];
    expect(allowed('/tenant')).toEqual(admins);
    expect(allowed('/tenant/new')).toEqual(admins);
    expect(allowed('/user/7')).toEqual(admins);
    expect(allowed('/user-wizard')).toEqual(admins);
    expect(allowed('/plan/3')).toEqual(admins);
    expect(allowed('/coupon')).toEqual(admins);
    expect(allowed('/coupon/new')).toEqual(admins);
    expect(allowed('/paymentprovider/new')).toEqual(admins);
    expect(allowed('/hangfire')).toEqual([Role.SuperAdmin]);
    expect(allowed('/apikey')).toEqual(admins);
    expect(allowed('/apikey/3')).toEqual(admins);
    expect(allowed('/webhook')).toEqual(admins);
    // 'No limit' in the spec's table: any member of the staff; a customer opens the area only
    // (issue 28: the back office is not shown to them).
    for (const path of [
      '/subscription',
      '/subscription/new',
      '/subscription/9',
      '/region/4',
      '/address',
      '/planfeature/new',
      '/feature',
    ]) {
      expect(allowed(path)).toEqual(admins);
    }
    expect(allowed('/invoice')).toEqual(admins);
    for (const path of ['/', '/my/invoices', '/my/billing', '/my/data'])
      expect(allowed(path)).toEqual([Role.User]);
  });

  it.each(sidebarEntriesByRole)('sidebar entries of role %i', (role, labels) => {
    expect(sidebarRoutes(role).map((r) => r.label)).toEqual(labels);
  });

  it('never lists a path with an id parameter in the sidebar', () => {
    expect(sidebarRoutes(Role.SuperAdmin).some((r) => r.path.includes(':'))).toBe(false);
  });

  it('prefers the static /x/new row over /x/:id', () => {
    expect(findRoute('/subscription/new')?.label).toBe('Crea Sottoscrizione');
    expect(findRoute('/subscription/12')?.label).toBe('Dettaglio Sottoscrizione');
    expect(findRoute('/region/')?.label).toBe('Regioni');
  });

  it('builds breadcrumbs from the table; never a raw path segment', () => {
    expect(breadcrumbFor('/')).toEqual([{ label: 'Home', to: '/' }]);
    expect(breadcrumbFor('/tenant/5')).toEqual([
      { label: 'Home', to: '/' },
      { label: 'Lista Tenants', to: '/tenant' },
      { label: 'Dettaglio Tenant', to: '/tenant/5' },
    ]);
    expect(breadcrumbFor('/region/new').map((c) => c.label)).toEqual(['Home', 'Regioni', 'Nuova regione']);
    // A path no screen answers reads 'Pagina non trovata', not its segments.
    expect(breadcrumbFor('/sconosciuto/new/42').map((c) => c.label)).toEqual(['Home', 'Pagina non trovata']);
    expect(breadcrumbFor('/region/abc/def').map((c) => c.label)).toEqual(['Home', 'Pagina non trovata']);
    // A customer's own screen, and the back office as a customer sees it: no such page.
    expect(breadcrumbFor('/my/invoices', Role.User).map((c) => c.label)).toEqual(['Home', 'Le mie fatture']);
    expect(breadcrumbFor('/region/12', Role.User).map((c) => c.label)).toEqual([
      'Home',
      'Pagina non trovata',
    ]);
    expect(breadcrumbFor('/region/12/')).toEqual([
      { label: 'Home', to: '/' },
      { label: 'Regioni', to: '/region' },
      { label: 'Dettaglio regione', to: '/region/12' },
    ]);
  });
});
