import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { SECRET_MASK } from '../../../contract/schemas/payment-provider';
import type { User } from '../../../contract/schemas/user';
import { validationMessages } from '../../../contract/validation/italian';
import { renderApp } from '../app/harness';
import { fakeEntityServer, fakeGeographySelects } from './fixtures';
import { apiPost, apiPut, fail, recordRequests, server } from '../msw/server';

const paypal = {
  id: 3,
  name: 'PayPal',
  apiUrl: 'https://api-m.sandbox.paypal.com',
  apiKey: 'AZ-client-id',
  apiSecret: SECRET_MASK,
};

const toasts = () =>
  screen
    .queryAllByRole('alert')
    .filter((a) => a.closest('.Toastify'))
    .map((t) => t.textContent);

/** Visible text a person can read: no internal field key such as `apiUrl:` or `vatCode:`. */
function expectNoInternalKey() {
  expect(document.body.textContent).not.toMatch(/\b(apiUrl|apiKey|apiSecret|vatCode|name|zip|sdi):\s/);
}

describe('payment-provider form validates on the client like the plan form', () => {
  it('new: every required field marked (the secret too), one message per problem, nothing sent', async () => {
    const { calls } = fakeEntityServer('paymentprovider', []);
    const requests = recordRequests();
    const { user } = renderApp('/paymentprovider/new', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: /Crea Nuovo/ })).toBeInTheDocument();
    for (const label of ['Nome', 'URL API', 'Client ID (API key)', 'Secret API']) {
      const text = screen.getByText(label, { selector: 'label' });
      expect(text.textContent).toBe(`${label}*`);
    }
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(validationMessages.providerNameRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.apiUrlRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.apiKeyRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.apiSecretRequired)).toBeInTheDocument();
    // One message per problem: an empty URL is 'required', not also 'invalid'.
    expect(screen.queryByText(validationMessages.apiUrlInvalid)).not.toBeInTheDocument();
    expect(screen.getAllByText(/obbligatori/).length).toBe(4);

    await user.type(screen.getByRole('textbox', { name: 'URL API' }), 'ftp://paypal');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(validationMessages.apiUrlInvalid)).toBeInTheDocument();
    expect(calls.created).toEqual([]);
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('edit: the secret is not required (empty keeps the stored one) and shows no required mark', async () => {
    const { calls } = fakeEntityServer('paymentprovider', [paypal]);
    const { user } = renderApp('/paymentprovider/3', { role: Role.Admin, tenantId: 1 });
    const name = await screen.findByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveValue('PayPal'));
    expect(screen.getByText('Secret API', { selector: 'label' }).textContent).toBe('Secret API');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls.updated).toHaveLength(1));
    expect(calls.updated[0]).not.toHaveProperty('apiSecret');
    expect(screen.queryByText(validationMessages.apiSecretRequired)).not.toBeInTheDocument();
  });

  it('a server field error lands on its field; no toast or message shows the key', async () => {
    fakeEntityServer('paymentprovider', [paypal]);
    server.use(
      apiPut('paymentprovider/Update', () =>
        fail(400, 'I dati inviati non sono validi.', null, [
          `apiUrl: ${validationMessages.apiUrlInvalid}`,
          'Un errore senza campo.',
        ]),
      ),
    );
    const { user } = renderApp('/paymentprovider/3', { role: Role.Admin, tenantId: 1 });
    const name = await screen.findByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveValue('PayPal'));
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    const url = screen.getByRole('textbox', { name: 'URL API' });
    await waitFor(() => expect(url).toHaveAccessibleDescription(validationMessages.apiUrlInvalid));
    expect(url).toHaveFocus();
    // What names no field is listed under the form, without a key.
    const box = screen.getByText('Il server ha rifiutato i dati:').closest('[role="alert"]') as HTMLElement;
    expect(
      within(box)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Un errore senza campo.']);
    await waitFor(() => expect(toasts()).toEqual([messages.http.saveError]));
    expectNoInternalKey();
  });
});

const mario: User = {
  id: 5,
  name: 'Mario Rossi',
  email: 'mario@example.it',
  pec: null,
  phone: null,
  sdi: null,
  vatCode: null,
  fiscalCode: null,
  countryCode: 'IT',
  billingCity: null,
  paOfficeCode: null,
  publicAdministration: false,
  cig: null,
  withholdingAgent: true,
  isCompany: true,
  isActive: true,
  roleId: 3,
  roleName: 'User',
  billingAddress: null,
};

describe('user form: server errors on their fields, across tabs; Partita IVA formats', () => {
  it('vatCode and billingAddress.zip land on Partita IVA and CAP (each in its tab)', async () => {
    fakeEntityServer('user', [mario]);
    fakeGeographySelects();
    server.use(
      apiPut('user/Update', () =>
        fail(400, 'I dati inviati non sono validi.', null, [
          `billingAddress.zip: ${validationMessages.zipRequired}`,
          `vatCode: ${validationMessages.vatInvalid}`,
        ]),
      ),
    );
    const { user } = renderApp('/user/5', { role: Role.Admin, tenantId: 1 });
    const name = await screen.findByRole('textbox', { name: 'Nome completo' });
    await waitFor(() => expect(name).toHaveValue('Mario Rossi'));
    await user.type(screen.getByRole('textbox', { name: 'Partita IVA' }), '12345678901');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    const vat = screen.getByRole('textbox', { name: 'Partita IVA' });
    await waitFor(() => expect(vat).toHaveAccessibleDescription(validationMessages.vatInvalid));
    // The message says which formats are expected.
    expect(validationMessages.vatInvalid).toMatch(/11 cifre.*DE123456789/);
    const billing = screen.getByRole('tab', { name: /Indirizzo di fatturazione/ });
    await user.click(billing);
    expect(screen.getByRole('textbox', { name: 'CAP' })).toHaveAccessibleDescription(
      validationMessages.zipRequired,
    );
    expectNoInternalKey();
  });

  it('an error only on a hidden tab opens that tab', async () => {
    fakeEntityServer('user', [mario]);
    fakeGeographySelects();
    server.use(
      apiPut('user/Update', () =>
        fail(400, 'I dati inviati non sono validi.', null, [
          `billingAddress.zip: ${validationMessages.zipRequired}`,
        ]),
      ),
    );
    const { user } = renderApp('/user/5', { role: Role.Admin, tenantId: 1 });
    const name = await screen.findByRole('textbox', { name: 'Nome completo' });
    await waitFor(() => expect(name).toHaveValue('Mario Rossi'));
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: /Indirizzo di fatturazione/ })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    );
    expect(screen.getByRole('textbox', { name: 'CAP' })).toHaveAccessibleDescription(
      validationMessages.zipRequired,
    );
  });

  it('the fieldErrors map of the envelope is used as well (a backend that sends only that)', async () => {
    fakeEntityServer('plan', []);
    // The plan's 'Anteprima fattura' reads the tenant's fiscal profile.
    fakeEntityServer('tenant', [
      {
        id: 1,
        name: 'Demo Srl',
        taxRegime: 'RF01',
        pensionFund: null,
        withholdingTax: null,
        stampDutyToCustomer: false,
        ossRegistered: false,
      },
    ]);
    server.use(
      apiPost('plan/Create', () =>
        fail(409, validationMessages.planNameTaken, null, undefined, {
          name: validationMessages.planNameTaken,
        }),
      ),
    );
    const { user } = renderApp('/plan/new', { role: Role.Admin, tenantId: 1 });
    await user.type(await screen.findByRole('textbox', { name: 'Nome' }), 'Pro');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Ricorrenza' }), '1');
    await user.type(screen.getByRole('textbox', { name: 'Costo ricorrente (IVA esclusa)' }), '5');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    const name = screen.getByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveAccessibleDescription(validationMessages.planNameTaken));
  });
});
