import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role, type RoleId } from '../../../contract/enums';
import { apiGet, apiPost, ok, server } from '../msw/server';
import { currentUrl, renderApp } from './harness';
import { sidebarEntriesByRole } from './sidebar-entries';

const tenants = [
  { id: 1, name: 'Acme S.r.l.' },
  { id: 2, name: 'Beta S.p.A.' },
];

/** SuperAdmin screens load the tenant list for the top-bar selector. */
function withTenantList() {
  server.use(apiGet('tenant/getAll', () => ok({ items: tenants, totalCount: tenants.length })));
}

async function openSidebar(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Apri menu principale' }));
  return screen.findByRole('dialog', { name: 'Menu principale' });
}

describe('role guard (spec §2, §6)', () => {
  // An allowed path shows its own screen (named by its h1); staff refused one read the 403 page.
  it.each([
    ['/tenant', Role.Admin, 'Lista Tenants'],
    ['/user-wizard', Role.Admin, 'Creazione Utente Wizard'],
    ['/hangfire', Role.Admin, null],
    ['/hangfire', Role.SuperAdmin, 'Status aggiornamento subscription'],
    ['/subscription', Role.Admin, 'Gestisci Sottoscrizioni'],
    ['/my/invoices', Role.Admin, null],
    ['/my/billing', Role.SuperAdmin, null],
    ['/my/invoices', Role.User, 'Le mie fatture'],
  ] as [string, RoleId, string | null][])('%s as role %i → screen: %s', async (path, role, heading) => {
    withTenantList();
    renderApp(path, { role, tenantId: 1 });
    if (heading) {
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      expect(screen.queryByText('Accesso negato')).not.toBeInTheDocument();
    } else {
      expect(await screen.findByRole('heading', { name: 'Accesso negato' })).toBeInTheDocument();
      expect(
        screen.queryByRole('heading', { level: 1, name: /Lista|Wizard|Configura|Status|piano|fatture/ }),
      ).not.toBeInTheDocument();
    }
  });

  // Issue 28: a customer is never shown the back office, not even that it exists: every admin
  // URL (the spec's 'no limit' lists included) reads 'Pagina non trovata', breadcrumb too.
  it.each([
    '/tenant',
    '/user/3',
    '/user-wizard',
    '/plan/new',
    '/paymentprovider',
    '/subscription',
    '/subscription/new',
    '/subscription/9',
    '/region',
    '/province/4',
    '/municipality',
    '/address',
    '/feature',
    '/planfeature/new',
    '/invoice',
    '/apikey',
    '/hangfire',
  ])('%s as a customer → Pagina non trovata', async (path) => {
    withTenantList();
    renderApp(path, { role: Role.User, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Pagina non trovata' })).toBeInTheDocument();
    expect(screen.queryByText('Accesso negato')).not.toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Percorso' }));
    expect(crumbs.getByText('Pagina non trovata')).toBeInTheDocument();
  });

  it('an unknown path inside the app shows the 404 page', async () => {
    renderApp('/non-esiste', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { name: 'Pagina non trovata' })).toBeInTheDocument();
  });
});

describe('sidebar (spec §2, Layout)', () => {
  it.each(sidebarEntriesByRole)('role %i sees exactly its entries', async (role, labels) => {
    withTenantList();
    const { user } = renderApp('/', { role, tenantId: 1 });
    const dialog = await openSidebar(user);
    const links = within(dialog)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual(labels);
  });

  it('is hidden from assistive tech while closed', async () => {
    renderApp('/', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('button', { name: 'Apri menu principale' });
    expect(screen.queryByRole('dialog', { name: 'Menu principale' })).not.toBeInTheDocument();
  });

  it('a link navigates and closes it', async () => {
    const { user, router } = renderApp('/', { role: Role.Admin, tenantId: 1 });
    const dialog = await openSidebar(user);
    await user.click(within(dialog).getByRole('link', { name: 'Lista Utenti' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/user'));
    expect(screen.queryByRole('dialog', { name: 'Menu principale' })).not.toBeInTheDocument();
  });

  it('a click outside closes it', async () => {
    const { user } = renderApp('/', { role: Role.Admin, tenantId: 1 });
    await openSidebar(user);
    await user.click(screen.getByTestId('sidebar-backdrop'));
    expect(screen.queryByRole('dialog', { name: 'Menu principale' })).not.toBeInTheDocument();
  });

  it('traps focus, closes on Escape and gives focus back to the toggle', async () => {
    withTenantList();
    const { user } = renderApp('/', { role: Role.User, tenantId: 1 });
    const dialog = await openSidebar(user);
    const close = within(dialog).getByRole('button', { name: 'Chiudi menu' });
    expect(close).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('link', { name: 'Area clienti' })).toHaveFocus();
    await user.tab();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(close).toHaveFocus(); // wrapped around, still inside
    await user.tab({ shift: true });
    expect(within(dialog).getByRole('link', { name: 'I miei dati' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Menu principale' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apri menu principale' })).toHaveFocus();
  });
});

describe('top bar', () => {
  it('breadcrumb: Home plus labelled segments, the last one current', async () => {
    renderApp('/tenant/5', { role: Role.Admin, tenantId: 1 });
    const nav = await screen.findByRole('navigation', { name: 'Percorso' });
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Lista Tenants' })).toHaveAttribute('href', '/tenant');
    const last = within(nav).getByText('Dettaglio Tenant');
    expect(last).toHaveAttribute('aria-current', 'page');
    expect(within(nav).queryByRole('link', { name: 'Dettaglio Tenant' })).not.toBeInTheDocument();
  });

  it('breadcrumb labels a create page and a list page', async () => {
    renderApp('/subscription/new', { role: Role.Admin, tenantId: 1 });
    const nav = await screen.findByRole('navigation', { name: 'Percorso' });
    expect(within(nav).getByRole('link', { name: 'Gestisci Sottoscrizioni' })).toBeInTheDocument();
    expect(within(nav).getByText('Crea Sottoscrizione')).toHaveAttribute('aria-current', 'page');
  });

  it('icon buttons have Italian names; the logo leads home', async () => {
    renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('button', { name: 'Notifiche' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apri menu principale' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rinnova, vai alla home' })).toHaveAttribute('href', '/');
  });

  it('only a SuperAdmin gets the compact tenant selector', async () => {
    withTenantList();
    renderApp('/', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('heading', { name: /^Benvenuto, .+\. Cosa vuoi fare oggi con Rinnova\?$/ });
    expect(screen.queryByLabelText('Tenant attuale:')).not.toBeInTheDocument();
  });

  it('user menu shows the e-mail; Logout ends the session on the server, clears it here and goes to /login', async () => {
    const logoutCalls: (string | null)[] = [];
    server.use(
      apiPost('user/Logout', ({ request }) => {
        logoutCalls.push(request.headers.get('authorization'));
        return ok(null, 'Disconnessione effettuata.');
      }),
    );
    const { user, router, queryClient } = renderApp('/subscription', {
      role: Role.Admin,
      tenantId: 1,
      email: 'mario@rinnova.test',
    });
    queryClient.setQueryData(['tenant', 1, 'plan', 'list', {}], { items: [] });
    await user.click(await screen.findByRole('button', { name: /Menu utente/ }));
    const menu = screen.getByRole('menu', { name: 'Menu utente' });
    expect(within(menu).getByText('mario@rinnova.test')).toBeInTheDocument();
    // An Admin's menu: 'Accesso in due passaggi' first (focused), then Logout.
    expect(within(menu).getByRole('menuitem', { name: 'Accesso in due passaggi' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    const logout = within(menu).getByRole('menuitem', { name: 'Logout' });
    expect(logout).toHaveFocus();

    await user.keyboard('{Enter}');

    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(window.localStorage.getItem('selectedTenantId')).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    await waitFor(() => expect(logoutCalls).toEqual(['Bearer test-token']));
  });

  it('user menu closes on Escape, focus back on its button', async () => {
    const { user } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    const button = await screen.findByRole('button', { name: /Menu utente/ });
    await user.click(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it("a User's home is their 'Area clienti' (no business figures, no link to the back office)", async () => {
    withTenantList();
    renderApp('/', { role: Role.User, tenantId: 1, email: 'luca@rinnova.test' });
    await screen.findByRole('heading', { level: 1, name: 'Area clienti' });
    const main = within(screen.getByRole('main'));
    expect(main.queryByText('Abbonamenti attivi')).not.toBeInTheDocument();
    expect(main.queryByRole('link', { name: /Regioni|Province|Comuni/ })).not.toBeInTheDocument();
    expect(await main.findByText('Nessun abbonamento.')).toBeInTheDocument();
    expect(main.getByRole('link', { name: 'Tutte le fatture' })).toHaveAttribute('href', '/my/invoices');
    expect(document.title).toBe('Area clienti · Rinnova');
  });
});
