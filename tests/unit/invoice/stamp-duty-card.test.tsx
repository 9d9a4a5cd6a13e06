import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { renderApp } from '../app/harness';
import { invoiceServer } from './invoice-fixtures';

const thisYear = new Date().getFullYear();

async function card() {
  return screen.findByRole('region', { name: 'Imposta di bollo (F24)' });
}

describe('Imposta di bollo (F24) on /invoice', () => {
  it('Admin: the four quarters with documents, total, codice tributo and deadline; the year is chosen', async () => {
    const { stampDutyYears } = invoiceServer();
    const { user } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const region = await card();
    const quarters = await within(region).findAllByRole('listitem');
    expect(quarters).toHaveLength(4);
    const [q1, q2, q3, q4] = quarters as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(within(q1).getByRole('heading', { name: '1° trimestre' })).toBeInTheDocument();
    expect(q1).toHaveTextContent('Codice tributo 2521');
    expect(q1).toHaveTextContent('4,00 €');
    expect(q1).toHaveTextContent('1 fattura, 1 nota di credito');
    expect(q1).toHaveTextContent(`Scadenza 31/05/${thisYear}`);
    expect(q1).toHaveTextContent(`o entro il 30/11/${thisYear} (sotto 5.000 €)`);
    expect(q2).toHaveTextContent('Codice tributo 2522');
    expect(q2).toHaveTextContent('2,00 €');
    expect(q2).toHaveTextContent(`Scadenza 30/09/${thisYear}`);
    expect(q3).toHaveTextContent('Nessun documento');
    expect(q3).toHaveTextContent(`Scadenza 30/11/${thisYear}`);
    expect(q4).toHaveTextContent('Codice tributo 2524');
    expect(q4).toHaveTextContent(/Scadenza 2[89]\/02\//);
    expect(q4).toHaveTextContent(`/${thisYear + 1}`);
    expect(region).toHaveTextContent(`Totale ${thisYear}: 6,00 €`);
    expect(stampDutyYears).toEqual([String(thisYear)]);

    await user.selectOptions(within(region).getByRole('combobox', { name: 'Anno' }), String(thisYear - 1));
    await waitFor(() => expect(region).toHaveTextContent(`Totale ${thisYear - 1}: 6,00 €`));
    expect(region).toHaveTextContent(`Scadenza 31/05/${thisYear - 1}`);
    expect(stampDutyYears).toEqual([String(thisYear), String(thisYear - 1)]);
  });

  it('a User has no bollo card', async () => {
    const { stampDutyYears } = invoiceServer();
    renderApp('/invoice', { role: Role.User, tenantId: 1 });
    // The tenant's invoices are staff's; a customer has 'Le mie fatture' (issue 28).
    expect(await screen.findByRole('heading', { level: 1, name: 'Pagina non trovata' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Imposta di bollo (F24)' })).not.toBeInTheDocument();
    expect(stampDutyYears).toEqual([]);
  });
});
