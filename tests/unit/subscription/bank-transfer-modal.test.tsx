import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import type { BankTransfer } from '../../../contract/schemas/subscription';
import { renderApp } from '../app/harness';
import { HttpResponse } from 'msw';
import { apiDelete, apiGet, apiPost, apiPut, deferred, fail, ok, server } from '../msw/server';
import { answerSwal, payment, rowOf, subscription, subscriptionServer } from './fixtures';

const PAYMENT_ID = 604;
const instructions = {
  beneficiary: 'Acme S.r.l.',
  iban: 'IT60X0542811101000000123456',
  amountDue: 50,
  currency: 'EUR',
  causale: 'RNV-4-604',
};

afterEach(() => {
  vi.restoreAllMocks();
  document.querySelector('.swal2-container')?.remove();
});

/** A BankTransferPending subscription and its payment's transfers, kept in memory. */
function transferServer(initial: BankTransfer[] = []) {
  subscriptionServer([subscription(4, 4, { payments: [payment({ id: PAYMENT_ID })] })]);
  const rows = [...initial];
  const calls = {
    list: [] as URLSearchParams[],
    created: [] as unknown[],
    updated: [] as unknown[],
    deleted: [] as string[],
  };
  let nextId = 900;
  server.use(
    apiGet('subscription/bankTransferInstructions/:id', () => ok(instructions)),
    apiGet('BankTransfer/getAll', ({ request }) => {
      calls.list.push(new URL(request.url).searchParams);
      return ok({ items: rows, totalCount: rows.length });
    }),
    apiPost('BankTransfer/create', async ({ request }) => {
      const body = (await request.json()) as {
        paymentId: number;
        amount: number;
        approvalDate: string | null;
      };
      calls.created.push(body);
      const row = {
        id: nextId++,
        createdAt: '2026-01-20T10:00:00Z',
        ...body,
        approvalDate: body.approvalDate ? '2026-01-10T09:30:00Z' : null,
      };
      rows.push(row);
      return ok(row);
    }),
    apiPut('BankTransfer/update', async ({ request }) => {
      const body = (await request.json()) as BankTransfer;
      calls.updated.push(body);
      const i = rows.findIndex((r) => r.id === body.id);
      rows[i] = { ...rows[i]!, ...body };
      return ok(rows[i]);
    }),
    apiDelete('BankTransfer/delete/:id', ({ params }) => {
      calls.deleted.push(String(params.id));
      const i = rows.findIndex((r) => String(r.id) === params.id);
      rows.splice(i, 1);
      return ok(null);
    }),
  );
  return { rows, calls };
}

async function openModal() {
  const app = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
  await app.user.click(within(await rowOf('Cliente 4')).getByRole('button', { name: 'Gestisci bonifici' }));
  const dialog = await screen.findByRole('dialog', { name: 'Gestisci bonifici' });
  return { ...app, dialog };
}

const approved = (euros: string) => (content: string, el: Element | null) =>
  el?.getAttribute('data-testid') === 'approved-total' && content.replace(/\s/g, ' ') === euros;

describe('bank-transfer modal (spec §4 BankTransferPending, §8 inline table)', () => {
  it('shows the instructions, loads page 1 size 100 of the payment, and the approved total; Escape closes', async () => {
    const { calls } = transferServer([
      {
        id: 1,
        paymentId: PAYMENT_ID,
        amount: 20,
        approvalDate: '2026-01-10T09:30:00Z',
        createdAt: '2026-01-10T09:00:00Z',
      },
      { id: 2, paymentId: PAYMENT_ID, amount: 5, approvalDate: null, createdAt: '2026-01-11T09:00:00Z' },
    ]);
    const { dialog, user } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(await within(dialog).findByText('Acme S.r.l.')).toBeInTheDocument();
    expect(within(dialog).getByText('IT60X0542811101000000123456')).toBeInTheDocument();
    expect(within(dialog).getByText('RNV-4-604')).toBeInTheDocument();
    expect(Object.fromEntries(calls.list[0]!.entries())).toEqual({
      paymentId: String(PAYMENT_ID),
      page: '1',
      pageSize: '100',
    });

    const table = within(dialog).getByRole('table', { name: 'Bonifici registrati' });
    // Rome's wall clock: 09:30 UTC in January is 10:30.
    expect(await within(table).findByText('10/01/2026 10:30')).toBeInTheDocument();
    expect(within(table).getByText('Da approvare')).toBeInTheDocument();
    expect(within(dialog).getByText(approved('20,00 €'))).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('adds a row: POST with the amount (Italian comma) and the datetime-local value → "Elemento salvato con successo!"', async () => {
    const { calls } = transferServer();
    const { dialog, user } = await openModal();
    expect(await within(dialog).findByText(/Nessun bonifico registrato/)).toBeInTheDocument();
    // Nothing to export yet: no 'Esporta' until a transfer is recorded.
    expect(within(dialog).queryByRole('button', { name: 'Esporta' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Aggiungi bonifico' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Importo (€)' }), '20,50');
    fireEvent.change(within(dialog).getByLabelText('Data di approvazione'), {
      target: { value: '2026-01-10T10:30' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Salva' }));

    expect(await screen.findByText(messages.inlineTable.saved)).toBeInTheDocument();
    expect(calls.created).toEqual([
      { paymentId: PAYMENT_ID, amount: 20.5, approvalDate: '2026-01-10T10:30' },
    ]);
    const table = within(dialog).getByRole('table', { name: 'Bonifici registrati' });
    expect(
      await within(table).findByText('20,50 €', { normalizer: (s) => s.replace(/\s/g, ' ') }),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(approved('20,50 €'))).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Esporta' })).toBeInTheDocument();
  });

  it("'Esporta' downloads the payment's transfers as CSV or Excel from the server, with a progress bar", async () => {
    transferServer([
      { id: 1, paymentId: PAYMENT_ID, amount: 20, approvalDate: null, createdAt: '2026-01-10T09:00:00Z' },
    ]);
    const saved: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const requests: Request[] = [];
    const gate = deferred();
    server.use(
      apiGet('BankTransfer/export', async ({ request }) => {
        requests.push(request);
        await gate.promise;
        const xlsx = new URL(request.url).searchParams.get('format') === 'xlsx';
        return new HttpResponse(xlsx ? new Uint8Array([0x50, 0x4b, 3, 4]) : '\uFEFFPagamento\r\n604\r\n', {
          headers: {
            'content-type': xlsx
              ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
              : 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="bonifici-demo-srl-2026-11-23.${xlsx ? 'xlsx' : 'csv'}"`,
          },
        });
      }),
    );
    const { dialog, user } = await openModal();
    await user.click(await within(dialog).findByRole('button', { name: 'Esporta' }));
    const menu = within(dialog).getByRole('menu', { name: 'Esporta' });
    await user.click(within(menu).getByRole('menuitem', { name: 'Excel (XLSX)' }));
    expect(await within(dialog).findByRole('progressbar', { name: 'Esportazione…' })).toBeInTheDocument();
    gate.resolve();
    await waitFor(() => expect(saved).toEqual(['bonifici-demo-srl-2026-11-23.xlsx']));
    expect(within(dialog).queryByRole('progressbar')).not.toBeInTheDocument();
    const sent = new URL(requests[0]!.url).searchParams;
    expect(Object.fromEntries(sent.entries())).toEqual({ paymentId: String(PAYMENT_ID), format: 'xlsx' });
    expect(requests[0]!.headers.get('x-tenant-id')).toBe('1');

    await user.click(within(dialog).getByRole('button', { name: 'Esporta' }));
    await user.click(within(dialog).getByRole('menuitem', { name: 'CSV' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toBe('bonifici-demo-srl-2026-11-23.csv');
    expect(new URL(requests[1]!.url).searchParams.get('format')).toBe('csv');
    // The modal stays open on the transfers.
    expect(within(dialog).getByRole('table', { name: 'Bonifici registrati' })).toBeInTheDocument();
  });

  it('a refused save (400): "Errore nel salvataggio" and the field message under the amount, prefix removed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls } = transferServer();
    server.use(
      apiPost('BankTransfer/create', () =>
        fail(400, 'I dati inviati non sono validi.', null, [
          'amount: Il totale dei bonifici supera l’importo dovuto.',
        ]),
      ),
    );
    const { dialog, user } = await openModal();
    await user.click(await within(dialog).findByRole('button', { name: 'Aggiungi bonifico' }));
    const amount = within(dialog).getByRole('textbox', { name: 'Importo (€)' });
    await user.type(amount, '80');
    await user.click(within(dialog).getByRole('button', { name: 'Salva' }));

    expect(await screen.findByText(messages.inlineTable.saveError)).toBeInTheDocument();
    expect(within(dialog).getByText('Il totale dei bonifici supera l’importo dovuto.')).toBeInTheDocument();
    expect(within(dialog).queryByText(/^amount:/)).not.toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription('Il totale dei bonifici supera l’importo dovuto.');
    expect(calls.created).toEqual([]);
  });

  it('edits a row with PUT update (id, paymentId, amount, approvalDate)', async () => {
    const { calls } = transferServer([
      { id: 1, paymentId: PAYMENT_ID, amount: 20, approvalDate: null, createdAt: '2026-01-10T09:00:00Z' },
    ]);
    const { dialog, user } = await openModal();
    await user.click(await within(dialog).findByRole('button', { name: /Modifica bonifico/ }));
    const amount = within(dialog).getByRole('textbox', { name: 'Importo (€)' });
    expect(amount).toHaveValue('20,00');
    await user.clear(amount);
    await user.type(amount, '25');
    fireEvent.change(within(dialog).getByLabelText('Data di approvazione'), {
      target: { value: '2026-01-12T08:00' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Salva' }));
    expect(await screen.findByText(messages.inlineTable.saved)).toBeInTheDocument();
    expect(calls.updated).toEqual([
      { id: 1, paymentId: PAYMENT_ID, amount: 25, approvalDate: '2026-01-12T08:00' },
    ]);
  });

  it('deletes a row after confirmation → "Elemento eliminato!"; a failed delete → "Errore durante la cancellazione"', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls } = transferServer([
      { id: 1, paymentId: PAYMENT_ID, amount: 20, approvalDate: null, createdAt: '2026-01-10T09:00:00Z' },
      { id: 2, paymentId: PAYMENT_ID, amount: 7, approvalDate: null, createdAt: '2026-01-11T09:00:00Z' },
    ]);
    const { dialog, user } = await openModal();
    await user.click(await within(dialog).findByRole('button', { name: /Elimina bonifico 20,00/ }));
    await answerSwal('Sì, elimina!');
    expect(await screen.findByText(messages.inlineTable.deleted)).toBeInTheDocument();
    expect(calls.deleted).toEqual(['1']);
    await waitFor(() =>
      expect(
        within(dialog).queryByRole('button', { name: /Elimina bonifico 20,00/ }),
      ).not.toBeInTheDocument(),
    );

    server.use(
      apiDelete('BankTransfer/delete/:id', () => fail(409, 'Operazione in conflitto con lo stato attuale.')),
    );
    await user.click(within(dialog).getByRole('button', { name: /Elimina bonifico 7,00/ }));
    await answerSwal('Sì, elimina!');
    expect(await screen.findByText(messages.inlineTable.deleteError)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /Elimina bonifico 7,00/ })).toBeInTheDocument();
  });

  it('without an IBAN the instructions say where to add it (409 message)', async () => {
    transferServer();
    const noIban = 'Il tenant non ha un IBAN: aggiungilo in Lista Tenants → Dati di fatturazione.';
    server.use(apiGet('subscription/bankTransferInstructions/:id', () => fail(409, noIban)));
    const { dialog } = await openModal();
    expect(await within(dialog).findByText(noIban)).toBeInTheDocument();
  });
});
