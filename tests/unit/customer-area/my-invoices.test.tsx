import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import type { Invoice } from '../../../contract/schemas/invoice';
import { renderApp } from '../app/harness';
import { invoice } from '../invoice/invoice-fixtures';
import { api, apiGet, ok, server } from '../msw/server';

const tenants = [{ id: 1, name: 'Demo Srl' }];

/** Three invoices over two years and a credit note, newest first, as the server answers a User. */
const mine: Invoice[] = [
  {
    ...invoice,
    id: 12,
    number: '2026/000012',
    issueDate: '2026-05-02',
    documentType: 'TD04',
    documentTypeName: 'Nota di credito',
    fileName: 'IT09876540155_0QGLT.xml',
    relatedInvoice: { id: 11, number: '2026/000011' },
  },
  { ...invoice, id: 11, number: '2026/000011', issueDate: '2026-04-02', fileName: 'IT09876540155_0QGLS.xml' },
  {
    ...invoice,
    id: 5,
    number: '2025/000005',
    issueDate: '2025-11-02',
    total: 24.4,
    fileName: 'IT09876540155_0QGLR.xml',
  },
];

/** invoice/getAll as the server answers it: newest first, `filters[from|to]`, pages. */
function invoiceApi() {
  const asked: URLSearchParams[] = [];
  const downloads: string[] = [];
  server.use(
    apiGet('tenant/getAll', () => ok({ items: tenants, totalCount: tenants.length })),
    http.get(api('invoice/getAll'), ({ request }) => {
      const q = new URL(request.url).searchParams;
      asked.push(q);
      const from = q.get('filters[from]') ?? '0000';
      const to = q.get('filters[to]') ?? '9999';
      const rows = mine.filter((i) => i.issueDate >= from && i.issueDate <= to);
      const size = Number(q.get('pageSize'));
      const page = Number(q.get('page'));
      return HttpResponse.json({
        success: true,
        message: null,
        data: { items: rows.slice((page - 1) * size, page * size), totalCount: rows.length },
      });
    }),
    http.get(api('invoice/:kind/:id'), ({ params }) => {
      downloads.push(`${String(params.kind)} ${String(params.id)}`);
      return new HttpResponse('<xml/>', { headers: { 'Content-Type': 'application/octet-stream' } });
    }),
  );
  return { asked, downloads };
}

let saved: string[] = [];
beforeEach(() => {
  saved = [];
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:fattura');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => vi.restoreAllMocks());

describe('Le mie fatture (/my/invoices, issue 28)', () => {
  it('every invoice and credit note with PDF and XML, filtered by year', async () => {
    const { asked, downloads } = invoiceApi();
    const { user } = renderApp('/my/invoices', { role: Role.User, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Le mie fatture' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Le mie fatture' });
    await within(list).findByText('Fattura 2025/000005');
    expect(within(list).getByText('Nota di credito 2026/000012')).toBeInTheDocument();
    expect(within(list).getByText(/storna la fattura 2026\/000011/)).toBeInTheDocument();
    // A credit note takes the money back: shown negative.
    expect(within(list).getAllByText('-12,08 €')).toHaveLength(1);

    // The years run from the newest invoice's to the oldest's.
    const year = screen.getByRole('combobox', { name: 'Anno' });
    await waitFor(() => expect(within(year).getAllByRole('option')).toHaveLength(3));
    expect(
      within(year)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Tutti gli anni', '2026', '2025']);

    await user.selectOptions(year, '2025');
    await waitFor(() => expect(screen.queryByText('Fattura 2026/000011')).not.toBeInTheDocument());
    expect(screen.getByText('Fattura 2025/000005')).toBeInTheDocument();
    const last = asked.at(-1)!;
    expect(last.get('filters[from]')).toBe('2025-01-01');
    expect(last.get('filters[to]')).toBe('2025-12-31');

    await user.click(screen.getByRole('button', { name: 'Scarica l’XML di 2025/000005' }));
    await waitFor(() => expect(saved).toEqual(['IT09876540155_0QGLR.xml']));
    await user.click(screen.getByRole('button', { name: 'Scarica il PDF di 2025/000005' }));
    await waitFor(() => expect(saved).toEqual(['IT09876540155_0QGLR.xml', 'Fattura_2025-000005.pdf']));
    expect(downloads).toEqual(['xml 5', 'pdf 5']);
  });

  it('a year without invoices says so; a customer with none reads it plainly', async () => {
    invoiceApi();
    mine.splice(0, mine.length);
    renderApp('/my/invoices', { role: Role.User, tenantId: 1 });
    expect(await screen.findByText('Nessuna fattura.')).toBeInTheDocument();
    expect(within(screen.getByRole('combobox', { name: 'Anno' })).getAllByRole('option')).toHaveLength(1);
  });
});
