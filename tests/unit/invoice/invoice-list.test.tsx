import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { pecMessages } from '../../../contract/messages';
import type { InvoiceSend, PecStatus } from '../../../contract/schemas/invoice';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';
import { invoice, invoiceServer } from './invoice-fixtures';

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

// The first render loads the lazy route and its list: seconds on a loaded 2-core machine.
describe('Fatture (/invoice)', () => {
  it('Admin: the invoice row with its SdI routing, XML and PDF downloads under their file names', async () => {
    const { downloads } = invoiceServer();
    const { user } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Fatture' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Fatture' });
    const row = (await within(table).findByText('2026/000003')).closest('tr')!;
    expect(row).toHaveTextContent('Codice SDI M5UXCR1');
    expect(row).toHaveTextContent('12,08 €');
    await user.click(within(row).getByRole('button', { name: 'Scarica XML (FatturaPA)' }));
    await waitFor(() => expect(saved).toEqual(['IT09876540155_0QGLQ.xml']));
    await user.click(within(row).getByRole('button', { name: 'Scarica PDF di cortesia' }));
    await waitFor(() => expect(saved).toEqual(['IT09876540155_0QGLQ.xml', 'Fattura_2026-000003.pdf']));
    expect(downloads).toEqual(['xml 3', 'pdf 3']);
    expect(screen.getByRole('button', { name: 'Scarica ZIP' })).toBeInTheDocument();
    expect(screen.queryByText('Pagamenti senza fattura', { exact: false })).not.toBeInTheDocument();
  });

  it('Admin: Invio allo SdI without PEC settings explains the intermediary and offers no send', async () => {
    invoiceServer();
    const notConfigured: PecStatus = {
      configured: false,
      missing: [pecMessages.fieldHost],
      sender: null,
      sdiPec: 'sdi01@pec.fatturapa.it',
      autoSend: false,
    };
    server.use(
      apiGet('invoice/pecStatus', () => ok(notConfigured)),
      apiGet('invoice/sends/:id', () => ok({ items: [], totalCount: 0 })),
    );
    const { user } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const table = await screen.findByRole('table', { name: 'Fatture' });
    const row = (await within(table).findByText('2026/000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Invio allo SdI (PEC)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invio allo SdI · 2026/000003' });
    expect(await within(dialog).findByRole('note')).toHaveTextContent('consegnalo al tuo intermediario');
    expect(within(dialog).getByText('Nessun invio finora.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Invia allo SdI' })).not.toBeInTheDocument();
  });

  it('Admin: the log of sends with the Italian error, and Riprova l’invio enqueues the send', async () => {
    invoiceServer();
    const failed: InvoiceSend = {
      id: 7,
      at: '2026-03-10T09:05:00.000Z',
      to: 'sdi01@pec.fatturapa.it',
      status: 'failed',
      statusName: 'Non riuscito',
      messageId: null,
      error: pecMessages.errorAuth,
    };
    const sent: string[] = [];
    server.use(
      apiGet('invoice/pecStatus', () =>
        ok({
          configured: true,
          missing: [],
          sender: 'demosrl@pec.example.it',
          sdiPec: 'sdi01@pec.fatturapa.it',
          autoSend: false,
        }),
      ),
      apiGet('invoice/sends/:id', () => ok({ items: [failed], totalCount: 1 })),
      apiPost('invoice/send/:id', ({ params }) => {
        sent.push(String(params.id));
        return ok(invoice, pecMessages.queued(invoice.number));
      }),
    );
    const { user } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const table = await screen.findByRole('table', { name: 'Fatture' });
    const row = (await within(table).findByText('2026/000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Invio allo SdI (PEC)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invio allo SdI · 2026/000003' });
    expect(await within(dialog).findByText(pecMessages.errorAuth)).toBeInTheDocument();
    expect(within(dialog).getByText('Non riuscito')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'Dalla PEC demosrl@pec.example.it alla PEC dello SdI sdi01@pec.fatturapa.it.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Riprova l’invio' }));
    expect(await screen.findByText(pecMessages.queued('2026/000003'))).toBeInTheDocument();
    expect(sent).toEqual(['3']);
  });

  it('a refused download toasts the server’s message once (its envelope arrives as bytes)', async () => {
    invoiceServer();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(apiGet('invoice/pdf/:id', () => fail(404, 'Fattura non trovata.')));
    const { user } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const table = await screen.findByRole('table', { name: 'Fatture' });
    const row = (await within(table).findByText('2026/000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Scarica PDF di cortesia' }));
    expect(await screen.findByText('Fattura non trovata.')).toBeInTheDocument();
    expect(screen.getAllByText('Fattura non trovata.')).toHaveLength(1);
    expect(saved).toEqual([]);
  });

  it('a refused send toasts the server’s message once, said once', async () => {
    invoiceServer();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      apiGet('invoice/pecStatus', () =>
        ok({
          configured: true,
          missing: [],
          sender: 'a@pec.it',
          sdiPec: 'sdi01@pec.fatturapa.it',
          autoSend: false,
        }),
      ),
      apiGet('invoice/sends/:id', () => ok({ items: [], totalCount: 0 })),
      apiPost('invoice/send/:id', () => fail(409, 'Fattura già inviata allo SdI.')),
    );
    const { user } = renderApp('/invoice', { role: Role.Admin, tenantId: 1 });
    const table = await screen.findByRole('table', { name: 'Fatture' });
    const row = (await within(table).findByText('2026/000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Invio allo SdI (PEC)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invio allo SdI · 2026/000003' });
    await user.click(await within(dialog).findByRole('button', { name: 'Invia allo SdI' }));
    const toast = await screen.findByText('Fattura già inviata allo SdI.', { exact: false });
    expect(toast).toHaveTextContent(/^Fattura già inviata allo SdI\.$/);
    expect(screen.getAllByText('Fattura già inviata allo SdI.', { exact: false })).toHaveLength(1);
  });
});
