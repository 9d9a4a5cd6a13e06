import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { renderApp } from '../app/harness';
import { apiPost, apiPut, fail, server } from '../msw/server';
import { actionButtons, answerSwal, payment, rowOf, subscription, subscriptionServer } from './fixtures';

const A = {
  link: 'Genera link di pagamento',
  bank: 'Imposta pagamento con bonifico',
  transfers: 'Gestisci bonifici',
  confirm: 'Conferma attivazione',
  cancel: 'Cancella sottoscrizione',
};

afterEach(() => {
  vi.restoreAllMocks();
  document.querySelector('.swal2-container')?.remove();
});

/** One row per status, without allowedActions: the SPA computes them with the contract's state machine. */
function rowsPerStatus() {
  return [
    subscription(1, 1, {
      payments: [payment({ id: 601, providerSubscriptionId: 'I-PAYPAL-1', paidAt: '2026-01-15T10:00:00Z' })],
    }),
    subscription(2, 2),
    subscription(3, 3),
    subscription(4, 4, { payments: [payment({ id: 604, approvedAmount: 20 })] }),
    subscription(5, 5),
    // Active without a provider id: nothing to cancel at the provider, so no cancel.
    subscription(6, 1),
    // BankTransferPending, fully approved: activation can be confirmed.
    subscription(7, 4, { payments: [payment({ id: 607, approvedAmount: 50 })] }),
  ];
}

describe('subscription list: actions per status (spec §2, §4)', () => {
  it.each([
    [1, [A.cancel]],
    [2, [A.link, A.bank]],
    [3, []],
    [4, [A.transfers]],
    [5, []],
    [6, []],
    [7, [A.transfers, A.confirm]],
  ] as [number, string[]][])('row %i shows exactly %j', async (id, expected) => {
    subscriptionServer(rowsPerStatus());
    renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    const row = await rowOf(`Cliente ${id}`);
    expect(actionButtons(row)).toEqual(expected);
    // Edit, never delete: subscriptions are cancelled, not deleted.
    expect(within(row).getByRole('link', { name: 'Modifica' })).toHaveAttribute(
      'href',
      `/subscription/${id}`,
    );
    expect(within(row).queryByRole('button', { name: 'Elimina' })).not.toBeInTheDocument();
  });

  it('follows the server’s allowedActions when it sends them', async () => {
    subscriptionServer([
      subscription(1, 4, {
        allowedActions: ['manageBankTransfers'],
        payments: [payment({ approvedAmount: 50 })],
      }),
      subscription(2, 2, { allowedActions: ['setBankTransfer'] }),
    ]);
    renderApp('/subscription', { role: Role.SuperAdmin, tenantId: 1 });
    expect(actionButtons(await rowOf('Cliente 1'))).toEqual([A.transfers]);
    expect(actionButtons(await rowOf('Cliente 2'))).toEqual([A.bank]);
  });

  it("a User finds no list at all: their subscriptions are the area's cards (issue 28)", async () => {
    subscriptionServer([subscription(2, 2)]);
    renderApp('/subscription', { role: Role.User, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Pagina non trovata' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('subscription list: columns and filters', () => {
  it('customer (e-mail when nameless), plan, amount, dates, status badge with the enum name; Canceled reads N/D', async () => {
    subscriptionServer([
      subscription(1, 4, { user: { id: 9, name: null, email: 'senza.nome@example.it' }, amountDue: 12345.5 }),
      subscription(2, 5),
    ]);
    renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    const row = await rowOf('senza.nome@example.it');
    const cells = within(row).getAllByRole('cell');
    expect(cells.map((c) => c.textContent?.replace(/\s/g, ' '))).toEqual(
      expect.arrayContaining([
        'Pro',
        '12.345,50 €',
        '15/01/2026',
        '15/02/2026',
        'In attesa di bonifico bancario',
      ]),
    );
    expect(within(row).getByText('In attesa di bonifico bancario')).toHaveAttribute(
      'title',
      'BankTransferPending',
    );
    expect(
      within(row)
        .getByText('12.345,50 €', { normalizer: (s) => s.replace(/\s/g, ' ') })
        .closest('td'),
    ).toHaveClass('text-right');
    const canceled = await rowOf('Cliente 2');
    expect(within(canceled).getByText(messages.common.notAvailable)).toBeInTheDocument();
  });

  it('filters by status (the five statuses), sending filters[status]', async () => {
    const { calls } = subscriptionServer([subscription(1, 4)]);
    const { user } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    await rowOf('Cliente 1');
    const status = screen.getByRole('combobox', { name: 'Stato' });
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Filtra per Stato', ...Object.values(messages.subscriptionStatus)]);
    await user.selectOptions(status, '4');
    await user.click(screen.getByRole('button', { name: messages.common.search }));
    await waitFor(() => expect(calls.list.at(-1)?.get('filters[status]')).toBe('4'));
    expect(calls.list.at(-1)?.get('page')).toBe('1');
    // The plan and customer pickers ask for nothing until opened.
    expect(screen.getByRole('combobox', { name: 'Piano' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Cliente' })).toBeInTheDocument();
  });
});

describe('subscription list: actions', () => {
  it('Imposta pagamento con bonifico: asks to confirm (irreversible), then PUTs and refreshes', async () => {
    const { calls } = subscriptionServer([subscription(2, 2)]);
    const { user } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    const row = await rowOf('Cliente 2');

    await user.click(within(row).getByRole('button', { name: A.bank }));
    expect(await answerSwal('Annulla')).toMatch(/irreversibile/);
    expect(calls.setBankTransfer).toEqual([]);

    const listCalls = calls.list.length;
    await user.click(within(row).getByRole('button', { name: A.bank }));
    await answerSwal('Sì, imposta il bonifico');
    await waitFor(() => expect(calls.setBankTransfer).toEqual(['2']));
    expect(await screen.findByText('Pagamento impostato su bonifico bancario.')).toBeInTheDocument();
    await waitFor(() => expect(calls.list.length).toBeGreaterThan(listCalls));
  });

  it('shows the server’s message when the move is refused (409, no IBAN)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    subscriptionServer([subscription(2, 2)]);
    const noIban =
      'Aggiungi l’IBAN nei dati di fatturazione del tenant (Lista Tenants → Dati di fatturazione).';
    server.use(apiPut('subscription/setPaymentWithBankTransfer/:id', () => fail(409, noIban)));
    const { user } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    await user.click(within(await rowOf('Cliente 2')).getByRole('button', { name: A.bank }));
    await answerSwal('Sì, imposta il bonifico');
    expect(await screen.findByText(noIban)).toBeInTheDocument();
  });

  it('Genera link di pagamento: POSTs the payment id and shows the link with Copia', async () => {
    const { calls } = subscriptionServer([subscription(2, 2)]);
    const { user } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    await user.click(within(await rowOf('Cliente 2')).getByRole('button', { name: A.link }));
    const dialog = await screen.findByRole('dialog', { name: 'Link di pagamento' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(calls.tokens).toEqual([{ paymentId: 502 }]);
    const link = `${window.location.origin}/payment?token=tok-abc123&bypassTenant=true`;
    expect(within(dialog).getByRole('textbox', { name: 'Link di pagamento' })).toHaveValue(link);
    await user.click(within(dialog).getByRole('button', { name: 'Copia' }));
    expect(await within(dialog).findByText('Link copiato negli appunti.')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(link);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('a failed payment link shows the server message, or the catalogue’s when there is none', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    subscriptionServer([subscription(2, 2)]);
    server.use(apiPost('PaymentToken/create', () => fail(500, null)));
    const { user } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    await user.click(within(await rowOf('Cliente 2')).getByRole('button', { name: A.link }));
    expect(await screen.findByText(messages.subscription.paymentLinkError)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Conferma attivazione PUTs setActiveNoRenewal; a 409 shows the server message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls } = subscriptionServer([
      subscription(7, 4, { payments: [payment({ approvedAmount: 50 })] }),
    ]);
    const { user } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    await user.click(within(await rowOf('Cliente 7')).getByRole('button', { name: A.confirm }));
    await waitFor(() => expect(calls.setActive).toEqual(['7']));
    expect(await screen.findByText(/Attivazione confermata/)).toBeInTheDocument();

    const refused = 'I bonifici approvati non coprono l’importo dovuto.';
    server.use(apiPut('subscription/setActiveNoRenewal/:id', () => fail(409, refused)));
    await user.click(within(await rowOf('Cliente 7')).getByRole('button', { name: A.confirm }));
    expect(await screen.findByText(refused)).toBeInTheDocument();
  });

  it('Cancella sottoscrizione asks to confirm, then DELETEs cancel/{id}', async () => {
    const { calls } = subscriptionServer([
      subscription(1, 1, { payments: [payment({ providerSubscriptionId: 'I-PAYPAL-1' })] }),
    ]);
    const { user } = renderApp('/subscription', { role: Role.Admin, tenantId: 1 });
    await user.click(within(await rowOf('Cliente 1')).getByRole('button', { name: A.cancel }));
    await answerSwal('Sì, cancella');
    await waitFor(() => expect(calls.cancel).toEqual(['1']));
    expect(await screen.findByText('Sottoscrizione cancellata.')).toBeInTheDocument();
  });
});
