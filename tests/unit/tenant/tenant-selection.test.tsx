import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { config } from '../../../src/lib/config';
import { currentUrl, renderApp } from '../app/harness';
import { apiGet, deferred, fail, ok, recordRequests, server } from '../msw/server';

const tenants = [
  { id: 4, name: 'Acme S.r.l.' },
  { id: 9, name: 'Beta S.p.A.' },
];

function tenantList(items = tenants) {
  server.use(apiGet('tenant/getAll', () => ok({ items, totalCount: items.length })));
}

/** The top-bar selector and the mobile dropdown load lazily, each on its own: wait for the one wanted. */
async function labelled(tag: 'INPUT' | 'SELECT') {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = screen.getAllByLabelText(messages.tenant.current).find((el) => el.tagName === tag);
    expect(found).toBeDefined();
  });
  return found!;
}

afterEach(() => {
  vi.restoreAllMocks();
  document.querySelector('.swal2-container')?.remove();
});

describe('tenant selection screen (signed in, no tenant)', () => {
  it('shows the loading text, then lets the user pick a tenant', async () => {
    const gate = deferred();
    server.use(
      apiGet('tenant/getAll', async () => {
        await gate.promise;
        return ok({ items: tenants, totalCount: 2 });
      }),
    );
    const calls = recordRequests();
    const { user, router } = renderApp('/region', { role: Role.Admin });

    expect(await screen.findByRole('heading', { name: 'Scegli il tenant' })).toBeInTheDocument();
    expect(document.querySelector('main img[src="/logo.svg"]')).not.toBeNull();
    expect((await screen.findAllByText(messages.tenant.loading)).length).toBeGreaterThan(0);
    gate.resolve();

    const input = await screen.findByLabelText(messages.tenant.current);
    await waitFor(() => expect(screen.getByText(messages.tenant.placeholder)).toBeInTheDocument());
    await user.click(input);
    await user.type(input, 'Beta');
    await user.click(await screen.findByText('Beta S.p.A.'));

    expect(await screen.findByText(messages.tenant.selected)).toBeInTheDocument();
    expect(window.localStorage.getItem('selectedTenantId')).toBe('9');
    await waitFor(() => expect(currentUrl(router)).toBe('/'));

    const url = new URL(calls[0]!.url);
    expect(url.pathname).toBe('/api/tenant/getAll');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('pageSize')).toBe('100');
    expect(calls[0]!.headers.get('x-tenant-id')).toBeNull();
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer test-token');
  });

  it('a failed tenant list: toast, then /login with history replaced', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(apiGet('tenant/getAll', () => fail(500, 'Errore interno')));
    const { router } = renderApp('/subscription', { role: Role.Admin });
    // A 5xx is retried once before it counts as a failure.
    expect(
      await screen.findByText(messages.tenant.loadError, undefined, { timeout: 4000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('a user without tenants is told to write to the developer', async () => {
    tenantList([]);
    renderApp('/', { role: Role.User });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Nessun tenant associato al tuo account.');
    expect(within(alert).getByRole('link', { name: config.supportEmail })).toHaveAttribute(
      'href',
      `mailto:${config.supportEmail}`,
    );
  });

  it('offers a way out (logout)', async () => {
    tenantList();
    const { user, router } = renderApp('/', { role: Role.User });
    await user.click(await screen.findByRole('button', { name: messages.layout.logout }));
    await waitFor(() => expect(currentUrl(router)).toBe('/login'));
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});

describe('SuperAdmin tenant switching', () => {
  it('the top-bar selector shows the current tenant and switching clears the cache', async () => {
    tenantList();
    const { user, router, queryClient } = renderApp('/subscription', { role: Role.SuperAdmin, tenantId: 4 });
    queryClient.setQueryData(['tenant', 4, 'plan', 'list', { page: 1 }], { items: [{ id: 1 }] });

    const topBar = await labelled('INPUT');
    await waitFor(() => expect(screen.getAllByText('Acme S.r.l.').length).toBeGreaterThan(0));
    await user.click(topBar);
    await waitFor(() => expect(screen.getAllByRole('option', { name: 'Beta S.p.A.' })).toHaveLength(2));
    const menuOption = screen
      .getAllByRole('option', { name: 'Beta S.p.A.' })
      .find((el) => el.tagName !== 'OPTION')!;
    await user.click(menuOption);

    expect(await screen.findByText(messages.tenant.selected)).toBeInTheDocument();
    expect(window.localStorage.getItem('selectedTenantId')).toBe('9');
    expect(queryClient.getQueryData(['tenant', 4, 'plan', 'list', { page: 1 }])).toBeUndefined();
    await waitFor(() => expect(currentUrl(router)).toBe('/'));
  });

  it('the mobile bottom dropdown names the current tenant and switches too', async () => {
    tenantList();
    const { user } = renderApp('/', { role: Role.SuperAdmin, tenantId: 4 });
    const select = (await labelled('SELECT')) as HTMLSelectElement;
    await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe('Acme S.r.l.'));
    await user.selectOptions(select, '9');
    expect(await screen.findByText(messages.tenant.selected)).toBeInTheDocument();
    expect(window.localStorage.getItem('selectedTenantId')).toBe('9');
  });

  it("the mobile dropdown says 'nessuna tenant selezionata' when the tenant is unknown", async () => {
    tenantList();
    renderApp('/', { role: Role.SuperAdmin, tenantId: 77 });
    const select = (await labelled('SELECT')) as HTMLSelectElement;
    await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe(messages.tenant.none));
  });
});

describe('mobile bottom bar and the page end (390 px layout fix)', () => {
  it('the bar publishes its height; <main> pads its bottom by it, and the variable goes with the bar', async () => {
    tenantList();
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(57);
    const { unmount } = renderApp('/', { role: Role.SuperAdmin, tenantId: 4 });
    await labelled('SELECT');
    await waitFor(() =>
      expect(document.documentElement.style.getPropertyValue('--tenant-bar-height')).toBe('57px'),
    );
    expect(document.getElementById('contenuto')?.className).toContain(
      'pb-[calc(1.5rem+var(--tenant-bar-height,0px))]',
    );
    unmount();
    expect(document.documentElement.style.getPropertyValue('--tenant-bar-height')).toBe('');
  });

  it('no bar (not a SuperAdmin): nothing is reserved', async () => {
    tenantList();
    renderApp('/', { role: Role.Admin, tenantId: 4 });
    expect(await screen.findByRole('main')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: messages.tenant.current })).not.toBeInTheDocument();
    expect(document.documentElement.style.getPropertyValue('--tenant-bar-height')).toBe('');
  });
});

describe('tenant bypass (spec §4, §5)', () => {
  it('on /payment with bypassTenant=true: first tenant stored, back to /payment (replace)', async () => {
    tenantList();
    const { router } = renderApp('/payment?token=tok1&bypassTenant=true', { role: Role.Admin });
    await waitFor(() => expect(currentUrl(router)).toBe('/payment?token=tok1'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(window.localStorage.getItem('selectedTenantId')).toBe('4');
  });

  it('/payment/process redirects to /payment as well', async () => {
    tenantList();
    const { router } = renderApp('/payment/process?bypassTenant=true&token=t2', { role: Role.Admin });
    await waitFor(() => expect(currentUrl(router)).toBe('/payment?token=t2'));
    expect(window.localStorage.getItem('selectedTenantId')).toBe('4');
  });

  it('without a session the payment page is shown as is', async () => {
    server.use(apiGet('PaymentToken/validate', () => fail(200, messages.payment.tokenInvalid)));
    const calls = recordRequests();
    renderApp('/payment?token=tok1&bypassTenant=true');
    expect(await screen.findByRole('heading', { name: 'Pagamento' })).toBeInTheDocument();
    expect(await within(screen.getByRole('main')).findByRole('alert')).toHaveTextContent(
      messages.payment.tokenInvalid,
    );
    // Only the token check: no tenant list, no tenant selected.
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual(['/api/PaymentToken/validate']);
  });

  it('anywhere else bypassTenant=true shows its message', async () => {
    renderApp('/subscription?bypassTenant=true', { role: Role.Admin, tenantId: 4 });
    expect(await within(await screen.findByRole('main')).findByRole('alert')).toHaveTextContent(
      messages.tenant.bypassOnlyOnPayment,
    );
    // Spec §8: every message is a toast unless stated (the bypass one is in §5, named by §8).
    await waitFor(() =>
      expect(
        [...document.querySelectorAll('.Toastify__toast')].filter(
          (t) => t.textContent === messages.tenant.bypassOnlyOnPayment,
        ),
      ).toHaveLength(1),
    );
  });
});
