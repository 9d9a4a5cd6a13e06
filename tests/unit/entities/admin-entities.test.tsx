import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { SECRET_MASK } from '../../../contract/schemas/payment-provider';
import { validationMessages } from '../../../contract/validation/italian';
import { renderApp } from '../app/harness';
import { fakeEntityServer, fakeSelectServer } from '../components/fixtures';
import { apiDelete, fail, server } from '../msw/server';

const paypal = {
  id: 3,
  name: 'PayPal',
  apiUrl: 'https://api-m.sandbox.paypal.com',
  apiKey: 'AZ-client-id',
  apiSecret: SECRET_MASK,
  kind: 'paypal',
  mode: 'sandbox',
  webhookId: 'WH-1',
  isActive: true,
};

/** The password box of the secret (no textbox role: found by its label). */
const secretInput = () => screen.getByLabelText(/^Secret API/);

describe('payment provider (spec §2 Configura PayPal, api-contract: apiSecret write-only)', () => {
  it('lists name, URL, client id and the secret as the server sends it (masked)', async () => {
    fakeEntityServer('paymentprovider', [paypal, { ...paypal, id: 4, name: 'Stripe', apiSecret: null }]);
    renderApp('/paymentprovider', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Configura PayPal' })).toBeInTheDocument();
    const row = (await screen.findByRole('cell', { name: 'PayPal' })).closest('tr') as HTMLElement;
    expect(within(row).getByRole('cell', { name: 'AZ-client-id' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: SECRET_MASK })).toBeInTheDocument();
    const stripe = screen.getByRole('cell', { name: 'Stripe' }).closest('tr') as HTMLElement;
    expect(within(stripe).getByText('N/D')).toBeInTheDocument();
  });

  it('edit: the secret box starts empty with a hint; left empty, the body leaves the secret out', async () => {
    const { calls } = fakeEntityServer('paymentprovider', [paypal]);
    const { user } = renderApp('/paymentprovider/3', { role: Role.Admin, tenantId: 1 });
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Client ID (API key)' })).toHaveValue('AZ-client-id'),
    );
    expect(secretInput()).toHaveAttribute('type', 'password');
    expect(secretInput()).toHaveValue('');
    expect(secretInput()).toHaveAccessibleDescription(/lascia vuoto per mantenerlo/);
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    expect(await screen.findByText(messages.http.updated)).toBeInTheDocument();
    expect(calls.updated).toEqual([
      {
        id: 3,
        name: 'PayPal',
        kind: 'paypal',
        apiUrl: 'https://api-m.sandbox.paypal.com',
        apiKey: 'AZ-client-id',
        mode: 'sandbox',
        webhookId: 'WH-1',
        isActive: true,
      },
    ]);
    expect(calls.updated[0]).not.toHaveProperty('apiSecret');
  });

  it('edit: a new secret is sent', async () => {
    const { calls } = fakeEntityServer('paymentprovider', [paypal]);
    const { user } = renderApp('/paymentprovider/3', { role: Role.Admin, tenantId: 1 });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveValue('PayPal'));
    await user.type(secretInput(), 'nuovo-secret');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() =>
      expect(calls.updated).toEqual([expect.objectContaining({ id: 3, apiSecret: 'nuovo-secret' })]),
    );
  });

  it('create: no hint, the secret is part of the body', async () => {
    const { calls } = fakeEntityServer('paymentprovider', []);
    const { user } = renderApp('/paymentprovider/new', { role: Role.Admin, tenantId: 1 });
    await user.type(await screen.findByRole('textbox', { name: 'Nome' }), 'PayPal');
    expect(secretInput()).not.toHaveAccessibleDescription();
    await user.type(screen.getByRole('textbox', { name: 'URL API' }), 'https://api-m.paypal.com');
    await user.type(screen.getByRole('textbox', { name: 'Client ID (API key)' }), 'id');
    await user.type(secretInput(), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    await waitFor(() =>
      expect(calls.created).toEqual([
        {
          name: 'PayPal',
          kind: 'paypal',
          mode: 'sandbox',
          apiUrl: 'https://api-m.paypal.com',
          apiKey: 'id',
          apiSecret: 's3cret',
          webhookId: '',
          isActive: true,
        },
      ]),
    );
  });
});

describe('tenant (spec §2, §8)', () => {
  it("'Lista Tenants', 'Dettaglio Tenant'; a failed delete shows the error", async () => {
    fakeEntityServer('tenant', [{ id: 1, name: 'Acme S.r.l.', configuration: null }]);
    server.use(
      apiDelete('tenant/Delete/:id', () => fail(409, 'Impossibile eliminare: l’elemento è ancora in uso.')),
    );
    const { user } = renderApp('/tenant', { role: Role.SuperAdmin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Lista Tenants' })).toBeInTheDocument();
    const row = (await within(screen.getByRole('table')).findByRole('cell', { name: 'Acme S.r.l.' })).closest(
      'tr',
    ) as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Elimina' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sì, elimina!' }));
    expect(
      await screen.findByText(
        messages.user.deleteError('Impossibile eliminare: l’elemento è ancora in uso.'),
      ),
    ).toBeInTheDocument();

    await user.click(within(row).getByRole('link', { name: 'Modifica' }));
    // The heading is rendered again once the tenant has loaded: look it up in the current document.
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Dettaglio Tenant' })).toBeInTheDocument(),
    );
  });

  it('an Admin may edit but not create or delete tenants', async () => {
    fakeEntityServer('tenant', [{ id: 1, name: 'Acme S.r.l.', configuration: null }]);
    renderApp('/tenant', { role: Role.Admin, tenantId: 1 });
    const row = (
      await within(await screen.findByRole('table')).findByRole('cell', { name: 'Acme S.r.l.' })
    ).closest('tr') as HTMLElement;
    expect(within(row).getByRole('link', { name: 'Modifica' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Elimina' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Crea Nuovo Tenant' })).not.toBeInTheDocument();
  });
});

describe('tenant billing profile (tab Dati di fatturazione)', () => {
  it('shows the Italian fields in a second tab, RF01 by default, and saves the profile with the tenant', async () => {
    const { calls } = fakeEntityServer('tenant', [
      {
        id: 1,
        name: 'Acme S.r.l.',
        configuration: null,
        taxRegime: 'RF01',
        regionId: null,
        provinceId: null,
      },
    ]);
    fakeSelectServer('region', []);
    const { user } = renderApp('/tenant/1', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('tab', { name: 'Dati di fatturazione' }));
    for (const label of [
      'Ragione sociale',
      'Partita IVA',
      'Codice fiscale',
      'Indirizzo (via)',
      'CAP',
      'PEC',
      'IBAN',
      'Intestatario del conto',
    ]) {
      expect(screen.getByRole('textbox', { name: label })).toBeInTheDocument();
    }
    // The searchable selects load lazily (a disabled placeholder until their chunk is in).
    for (const label of ['Regione', 'Provincia', 'Comune'])
      expect(await screen.findByRole('combobox', { name: label })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Provincia' })).toBeDisabled();
    const regime = screen.getByRole('combobox', { name: 'Regime fiscale' });
    await waitFor(() => expect(regime).toHaveValue('RF01'));
    const labels = within(regime)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(labels).toContain('RF01 – Ordinario');
    expect(labels).toContain('RF19 – Forfettario');

    await user.selectOptions(regime, 'RF19');
    await user.type(screen.getByRole('textbox', { name: 'IBAN' }), 'IT60X0542811101000000123456');
    const oss = screen.getByRole('checkbox', { name: /Regime OSS: ai privati UE l’IVA del loro Stato/ });
    expect(oss).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls.updated).toHaveLength(1));
    expect(calls.updated[0]).toMatchObject({ id: 1, taxRegime: 'RF19', iban: 'IT60X0542811101000000123456' });
    // No cassa chosen: the contract's pensionFund goes as null, not as an empty object.
    expect(calls.updated[0]).toMatchObject({
      pensionFund: null,
      withholdingTax: null,
      stampDutyToCustomer: false,
      ossRegistered: false,
    });
  });

  it('sends the cassa as the contract’s { type, rate }, and shows the stored one', async () => {
    const { calls } = fakeEntityServer('tenant', [
      {
        id: 1,
        name: 'Studio Bianchi',
        configuration: null,
        taxRegime: 'RF01',
        pensionFund: { type: 'TC22', rate: 4 },
        withholdingTax: 'RT01',
        stampDutyToCustomer: false,
        regionId: null,
        provinceId: null,
      },
    ]);
    fakeSelectServer('region', []);
    const { user } = renderApp('/tenant/1', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('tab', { name: 'Dati di fatturazione' }));
    const fund = screen.getByRole('combobox', { name: 'Cassa previdenziale o rivalsa INPS' });
    await waitFor(() => expect(fund).toHaveValue('TC22'));
    expect(screen.getByRole('textbox', { name: 'Aliquota della cassa (%)' })).toHaveValue('4,00');
    expect(screen.getByRole('combobox', { name: 'Ritenuta d’acconto' })).toHaveValue('RT01');
    await user.selectOptions(fund, 'TC04');
    await user.click(screen.getByRole('checkbox', { name: /Regime OSS/ }));
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls.updated).toHaveLength(1));
    expect(calls.updated[0]).toMatchObject({
      pensionFund: { type: 'TC04', rate: 4 },
      withholdingTax: 'RT01',
      ossRegistered: true,
    });
  });
});

describe('address (spec §5: street and ZIP marked required)', () => {
  it('checks street, ZIP and municipality before sending', async () => {
    const { calls } = fakeEntityServer('address', []);
    fakeSelectServer('municipality', [{ value: 200, label: 'Rho' }]);
    // Addresses are written by Admins (contract/access.ts, as the server enforces).
    const { user } = renderApp('/address/new', { role: Role.Admin, tenantId: 1 });
    const street = await screen.findByRole('textbox', { name: 'Via' });
    expect(street.closest('div')).toHaveTextContent('Via*');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(messages.wizard.streetRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.zipRequired)).toBeInTheDocument();
    expect(screen.getByText(messages.wizard.municipalityRequired)).toBeInTheDocument();
    expect(calls.created).toEqual([]);
  });

  it('offers a User no form at all: the back office is no page to a customer (issue 28)', async () => {
    fakeEntityServer('address', []);
    fakeSelectServer('municipality', [{ value: 200, label: 'Rho' }]);
    renderApp('/address/new', { role: Role.User, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Pagina non trovata' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Via' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Crea' })).not.toBeInTheDocument();
  });
});
