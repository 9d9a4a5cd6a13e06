import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { getSelectedTenantId } from '../../../src/lib/tenant-store';
import { currentUrl, renderApp } from '../app/harness';
import { apiGet, ok, server } from '../msw/server';

const sellers = [
  { id: 1, name: 'Demo Srl' },
  { id: 2, name: 'Studio Rossi' },
];

function withSellers(items = sellers) {
  server.use(apiGet('tenant/getAll', () => ok({ items, totalCount: items.length })));
}

describe("a customer's 'Fornitore' (issue 28)", () => {
  it('signed in without a seller chosen: the selection screen speaks of sellers, not tenants', async () => {
    withSellers();
    renderApp('/', { role: Role.User, tenantId: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Scegli il fornitore' })).toBeInTheDocument();
    expect(
      screen.getByText('Sei cliente di più fornitori: scegli di quale aprire l’area clienti.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Fornitore')).toBeInTheDocument();
    expect(await screen.findByText('Seleziona un fornitore')).toBeInTheDocument();
    expect(screen.queryByText(/tenant/i)).not.toBeInTheDocument();
  });

  it("a customer of two sellers switches from the top bar and lands on the other's area", async () => {
    withSellers();
    const { user, router } = renderApp('/my/invoices', { role: Role.User, tenantId: 1 });
    const picker = await screen.findByRole('combobox', { name: 'Fornitore' });
    await waitFor(() => expect(picker).toHaveValue('1'));
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Demo Srl', 'Studio Rossi']);
    await user.selectOptions(picker, '2');
    await waitFor(() => expect(getSelectedTenantId()).toBe(2));
    expect(currentUrl(router)).toBe('/');
  });

  it('a customer of one seller has no picker; staff never see it', async () => {
    withSellers([sellers[0]!]);
    renderApp('/', { role: Role.User, tenantId: 1 });
    await screen.findByRole('heading', { level: 1, name: 'Area clienti' });
    expect(screen.queryByRole('combobox', { name: 'Fornitore' })).not.toBeInTheDocument();
  });
});
