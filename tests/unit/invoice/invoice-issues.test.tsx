import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { invoiceMessages, messages } from '../../../contract/messages';
import type { InvoiceIssues } from '../../../contract/schemas/invoice';
import type { User } from '../../../contract/schemas/user';
import { currentUrl, renderApp } from '../app/harness';
import { fakeEntityServer, fakeGeographySelects } from '../components/fixtures';
import { invoiceServer, missingCf, waiting } from './invoice-fixtures';

/** Anna Neri as the user form reads her: no codice fiscale, no address. */
const anna: User = {
  id: 5,
  name: 'Anna Neri',
  email: 'anna.neri@example.it',
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
  withholdingAgent: false,
  isCompany: false,
  isActive: true,
  roleId: 3,
  roleName: 'User',
  billingAddress: null,
};

async function panel() {
  return screen.findByRole('region', { name: /Pagamenti senza fattura/ });
}
/** The panel's row of a customer. */
function rowOf(region: HTMLElement, name: string): HTMLElement {
  return within(region).getByText(name).closest('li')!;
}

// The first render loads the lazy route and its list: seconds on a loaded 2-core machine.
describe('Pagamenti senza fattura (/invoice, Admin)', () => {
  it('one row per customer: payments waiting and their total, what is missing said once, the other reasons', async () => {
    invoiceServer(waiting);
    renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const region = await panel();
    expect(within(region).getByRole('heading', { name: 'Pagamenti senza fattura (3)' })).toBeInTheDocument();
    const rows = within(within(region).getByRole('list', { name: 'Pagamenti senza fattura' })).getAllByRole(
      'listitem',
    );
    expect(rows).toHaveLength(2);

    const anna = rowOf(region, 'Anna Neri');
    expect(anna).toHaveTextContent('2 pagamenti in attesa · 24,16 €');
    expect(within(anna).getByText('Mancano: codice fiscale, indirizzo, CAP, comune')).toBeInTheDocument();
    expect(within(region).getAllByText(/^Mancano:/)).toHaveLength(1);
    // The four sentences per payment are not repeated any more.
    expect(region).not.toHaveTextContent(missingCf);
    expect(within(anna).getByRole('link', { name: 'Completa i dati' })).toBeInTheDocument();
    expect(within(anna).getByRole('button', { name: 'Riprova' })).toBeInTheDocument();

    const bianchi = rowOf(region, 'Bianchi Consulting Srl');
    expect(bianchi).toHaveTextContent('1 pagamento in attesa · 12,08 €');
    expect(bianchi).toHaveTextContent('Fattura non emessa: il file FatturaPA non supera i controlli.');
    expect(within(bianchi).queryByRole('link', { name: 'Completa i dati' })).not.toBeInTheDocument();
    expect(within(region).queryByText(/Dati di fatturazione del venditore/)).not.toBeInTheDocument();
  });

  it('Riprova retries all the customer’s payments and says what is still missing', async () => {
    const { retried } = invoiceServer(waiting);
    const { user } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const anna = rowOf(await panel(), 'Anna Neri');
    await user.click(within(anna).getByRole('button', { name: 'Riprova' }));
    expect(await screen.findByText(missingCf)).toBeInTheDocument(); // the toast
    expect(retried).toEqual(['5']);
  });

  it('Completa i dati opens the customer’s form on the first missing field; Salva comes back to the invoices', async () => {
    invoiceServer(waiting);
    const { calls } = fakeEntityServer<User>('user', [anna]);
    fakeGeographySelects();
    const { user, router } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const row = rowOf(await panel(), 'Anna Neri');
    await user.click(within(row).getByRole('link', { name: 'Completa i dati' }));
    expect(currentUrl(router)).toBe('/user/5?focus=fiscalCode');
    const fiscalCode = await screen.findByRole('textbox', { name: 'Codice fiscale' });
    await waitFor(() => expect(fiscalCode).toHaveFocus());

    await user.type(fiscalCode, 'NRENNA80A41H501T');
    await user.click(screen.getByRole('button', { name: messages.common.save }));
    await waitFor(() => expect(currentUrl(router)).toBe('/invoice'), { timeout: 3000 });
    expect(calls.updated).toEqual([expect.objectContaining({ id: 5, fiscalCode: 'NRENNA80A41H501T' })]);
  });

  it('a missing address opens the address tab on the field; a comune without its provincia starts at the regione', async () => {
    const onlyAddress: InvoiceIssues = {
      ...waiting,
      customers: waiting.customers.map((c) =>
        c.customer.id === 5 ? { ...c, missing: [{ key: 'municipality', label: 'comune' }] } : c,
      ),
    };
    invoiceServer(onlyAddress);
    fakeEntityServer<User>('user', [{ ...anna, fiscalCode: 'NRENNA80A41H501T' }]);
    fakeGeographySelects();
    const { user, router } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const row = rowOf(await panel(), 'Anna Neri');
    expect(row).toHaveTextContent(invoiceMessages.missingFields(['comune']));
    expect(row).toHaveTextContent('Manca: comune');
    await user.click(within(row).getByRole('link', { name: 'Completa i dati' }));
    expect(currentUrl(router)).toBe('/user/5?focus=municipality');
    expect(
      await screen.findByRole('tab', { name: 'Indirizzo di fatturazione', selected: true }),
    ).toBeInTheDocument();
    const region = await screen.findByRole('combobox', { name: 'Regione' });
    await waitFor(() => expect(region).toHaveFocus());
  });

  it('the seller’s missing data: one line, linked to the tenant’s Dati di fatturazione', async () => {
    invoiceServer({
      ...waiting,
      seller: {
        tenantId: 1,
        missing: [
          { key: 'legalName', label: 'ragione sociale' },
          { key: 'zip', label: 'CAP' },
        ],
      },
    });
    renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const region = await panel();
    expect(region).toHaveTextContent('Dati di fatturazione del venditore. Mancano: ragione sociale, CAP');
    expect(within(region).getByRole('link', { name: 'Completa i dati di fatturazione' })).toHaveAttribute(
      'href',
      '/tenant/1?focus=legalName',
    );
    // A customer whose own data are complete waits for the seller's.
    expect(rowOf(region, 'Bianchi Consulting Srl')).not.toHaveTextContent('premi Riprova');
  });

  it('nothing waiting: no panel', async () => {
    invoiceServer();
    renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('table', { name: 'Fatture' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Pagamenti senza fattura/ })).not.toBeInTheDocument();
  });
});
