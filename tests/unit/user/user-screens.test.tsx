import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import type { User } from '../../../contract/schemas/user';
import { currentUrl, renderApp } from '../app/harness';
import { fakeEntityServer, fakeGeographySelects, pickOption } from '../components/fixtures';
import { apiDelete, fail, server } from '../msw/server';

const mario: User = {
  id: 5,
  name: 'Mario Rossi',
  email: 'mario@example.it',
  pec: 'mario@pec.it',
  phone: '+39 333 1234567',
  sdi: 'M5UXCR1',
  vatCode: '01234567897',
  fiscalCode: null,
  countryCode: 'IT',
  billingCity: null,
  paOfficeCode: null,
  publicAdministration: false,
  cig: null,
  withholdingAgent: true,
  isCompany: true,
  isActive: false,
  roleId: 2,
  roleName: 'Admin',
  billingAddress: {
    street: 'Via Roma 1',
    zip: '20017',
    regionId: 3,
    region: { id: 3, name: 'Lombardia' },
    provinceId: 15,
    province: { id: 15, name: 'Milano', abbreviation: 'MI' },
    municipalityId: 200,
    municipality: { id: 200, name: 'Rho' },
  },
};

describe('user list (spec §2)', () => {
  it('shows the nine columns in order, with Sì/No badges and the role name', async () => {
    fakeEntityServer('user', [mario]);
    renderApp('/user', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Lista Utenti' })).toBeInTheDocument();
    const table = screen.getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      '',
      'Nome completo',
      'Indirizzo email',
      'Indirizzo PEC',
      'Azienda',
      'Codice SDI',
      'Partita IVA',
      'Numero di telefono',
      'Ruolo utente',
      'Utente Attivo',
      'Azioni',
    ]);
    const row = (await within(table).findByRole('cell', { name: 'Mario Rossi' })).closest(
      'tr',
    ) as HTMLElement;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(1, 10)).toEqual([
      'Mario Rossi',
      'mario@example.it',
      'mario@pec.it',
      'Sì',
      'M5UXCR1',
      '01234567897',
      '+39 333 1234567',
      'Admin',
      'No',
    ]);
    expect(screen.getByRole('link', { name: 'Crea Nuovo Utente' })).toHaveAttribute('href', '/user-wizard');
  });

  it('a failed delete shows the spec message with the server error', async () => {
    fakeEntityServer('user', [mario]);
    server.use(
      apiDelete('user/Delete/:id', () => fail(409, 'Impossibile eliminare: l’elemento è ancora in uso.')),
    );
    const { user } = renderApp('/user', { role: Role.Admin, tenantId: 1 });
    const row = (await screen.findByRole('cell', { name: 'Mario Rossi' })).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Elimina' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sì, elimina!' }));
    expect(
      await screen.findByText(
        messages.user.deleteError('Impossibile eliminare: l’elemento è ancora in uso.'),
      ),
    ).toBeInTheDocument();
  });
});

describe('user detail /user/{id} (spec §2, §4)', () => {
  it('a non-numeric id opens the wizard', async () => {
    fakeGeographySelects();
    const { router } = renderApp('/user/new', { role: Role.Admin, tenantId: 1 });
    await waitFor(() => expect(currentUrl(router)).toBe('/user-wizard'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Creazione Utente Wizard' }),
    ).toBeInTheDocument();
  });

  it('has two accessible tabs: user data and billing address', async () => {
    fakeEntityServer('user', [mario]);
    fakeGeographySelects();
    const { user } = renderApp('/user/5', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Modifica Utente' })).toBeInTheDocument();
    const tablist = await screen.findByRole('tablist', { name: 'Modifica Utente' });
    const tabs = within(tablist).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Dati utente', 'Indirizzo di fatturazione']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(tabs[1]).toHaveAttribute('tabindex', '-1');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Nome completo' })).toHaveValue('Mario Rossi'),
    );
    expect(screen.getByRole('tabpanel', { name: 'Dati utente' })).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Via' })).not.toBeInTheDocument();

    // Arrow keys move between tabs (roving focus).
    tabs[0]!.focus();
    await user.keyboard('{ArrowRight}');
    expect(tabs[1]).toHaveFocus();
    expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
    const billing = screen.getByRole('tabpanel', { name: 'Indirizzo di fatturazione' });
    expect(within(billing).getByRole('textbox', { name: 'Via' })).toHaveValue('Via Roma 1');
    expect(within(billing).getByRole('textbox', { name: 'CAP' })).toHaveValue('20017');
    expect(await within(billing).findByText('Lombardia')).toBeInTheDocument();
    expect(await within(billing).findByText('Milano')).toBeInTheDocument();
    expect(await within(billing).findByText('Rho')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Nome completo' })).not.toBeInTheDocument();
  });

  it('region → province → municipality clear and disable as spec §4 says; Salva sends them flat', async () => {
    const { calls } = fakeEntityServer('user', [mario]);
    fakeGeographySelects();
    const { user } = renderApp('/user/5', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('tab', { name: 'Indirizzo di fatturazione' }));
    expect(await screen.findByText('Rho')).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Comune' })).toBeEnabled();

    // A new region clears province and municipality, and disables the municipality.
    await pickOption(user, 'Regione', 'Piemonte');
    await waitFor(() => expect(screen.queryByText('Milano')).not.toBeInTheDocument());
    expect(screen.queryByText('Rho')).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Provincia' })).toBeEnabled();
    expect(screen.getByRole('combobox', { name: 'Comune' })).toBeDisabled();
    await pickOption(user, 'Provincia', 'Torino');
    await pickOption(user, 'Comune', 'Moncalieri');
    // Picking the province again clears the municipality only.
    await pickOption(user, 'Provincia', 'Torino');
    await waitFor(() => expect(screen.queryByText('Moncalieri')).not.toBeInTheDocument());
    expect(screen.getByText('Piemonte')).toBeInTheDocument();
    await pickOption(user, 'Comune', 'Moncalieri');

    await user.click(screen.getByRole('button', { name: 'Salva' }));
    expect(await screen.findByText(messages.user.updated)).toBeInTheDocument();
    expect(calls.updated).toEqual([
      {
        id: 5,
        name: 'Mario Rossi',
        email: 'mario@example.it',
        pec: 'mario@pec.it',
        phone: '+39 333 1234567',
        sdi: 'M5UXCR1',
        vatCode: '01234567897',
        fiscalCode: '',
        paOfficeCode: '',
        cig: '',
        roleId: 2,
        isCompany: true,
        publicAdministration: false,
        withholdingAgent: true,
        isActive: false,
        street: 'Via Roma 1',
        zip: '20017',
        region: 1,
        province: 1,
        municipality: 100,
        countryCode: 'IT',
        billingCity: '',
      },
    ]);
  });

  it('without a region the province and the municipality are disabled', async () => {
    fakeEntityServer('user', [{ ...mario, billingAddress: null }]);
    fakeGeographySelects();
    const { user } = renderApp('/user/5', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('tab', { name: 'Indirizzo di fatturazione' }));
    expect(await screen.findByRole('combobox', { name: 'Regione' })).toBeEnabled();
    expect(screen.getByRole('combobox', { name: 'Provincia' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Comune' })).toBeDisabled();
    await pickOption(user, 'Regione', 'Lombardia');
    expect(screen.getByRole('combobox', { name: 'Provincia' })).toBeEnabled();
    expect(screen.getByRole('combobox', { name: 'Comune' })).toBeDisabled();
  });
});
