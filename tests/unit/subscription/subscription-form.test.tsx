import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import type { Plan } from '../../../contract/schemas/plan';
import { currentUrl, renderApp } from '../app/harness';
import { fakeSelectServer } from '../components/fixtures';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';
import { payment, subscription, subscriptionServer } from './fixtures';

const pro: Plan = {
  id: 7,
  name: 'Pro',
  recurringCostBeforeVAT: 40.98,
  vatPercentage: 22,
  recurrenceType: 1,
  recurrenceTypeName: 'Mensile',
  natura: null,
  paypalPlanId: null,
  stripePlanId: null,
  isActive: true,
  planFeatures: [],
};

const eur = (s: string) => s.replace(/\s/g, ' ');
const total = () => eur(screen.getByTestId('subscription-total').textContent ?? '');

afterEach(() => vi.restoreAllMocks());

function pickers(options: { professional?: boolean } = {}) {
  const userCalls = fakeSelectServer('user', [
    { value: 3, label: 'Mario Rossi' },
    { value: 4, label: 'Lucia Bianchi' },
  ]);
  const planCalls = fakeSelectServer('plan', [{ value: 7, label: 'Pro', isActive: 'true' }]);
  const quoteCalls: unknown[] = [];
  server.use(
    apiGet('plan/GetById/:id', ({ params }) =>
      params.id === '7' ? ok(pro) : fail(404, 'Elemento non trovato.'),
    ),
    // The server's quote: an ordinary sale (cost + VAT), or a professional's with rivalsa INPS and
    // ritenuta (golden document (1)).
    apiPost('subscription/quote', async ({ request }) => {
      const body = (await request.json()) as { paymentAmount?: number; vatPercentage?: number };
      quoteCalls.push(body);
      if (!options.professional) {
        const cost = body.paymentAmount ?? 40.98;
        const vat = Math.round(cost * (body.vatPercentage ?? 22)) / 100;
        return ok({
          lines: [
            {
              description: 'Pro',
              quantity: 1,
              unitPrice: cost,
              vatPercentage: body.vatPercentage ?? 22,
              natura: null,
            },
          ],
          taxable: cost,
          vat,
          cassa: 0,
          bollo: 0,
          total: cost + vat,
          withholding: 0,
          netToPay: cost + vat,
          natura: null,
          legalReference: null,
        });
      }
      return ok({
        lines: [{ description: 'Pro', quantity: 1, unitPrice: 1000, vatPercentage: 22, natura: null }],
        taxable: 1040,
        vat: 228.8,
        cassa: 40,
        bollo: 0,
        total: 1268.8,
        withholding: 208,
        netToPay: 1060.8,
        natura: null,
        legalReference: null,
      });
    }),
  );
  return { userCalls, planCalls, quoteCalls };
}

async function pick(user: UserEvent, label: string, option: string) {
  await user.click(await screen.findByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

// The first test pays for loading the form's modules: seconds on a loaded machine.
describe('/subscription/new (spec §2, §5)', { timeout: 20_000 }, () => {
  it('prefills cost and VAT from the plan and shows the live total (40,98 at 22 → 50,00 €; 49,50 at 10 → 54,45 €), then POSTs and opens the detail', async () => {
    const { userCalls, planCalls } = pickers();
    const { calls } = subscriptionServer([]);
    const { user, router } = renderApp('/subscription/new', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Crea Sottoscrizione' })).toBeInTheDocument();

    await pick(user, 'Cliente', 'Mario Rossi');
    await pick(user, 'Piano', 'Pro');
    // The pickers ask for the first 100; the plan picker only active plans.
    expect(Object.fromEntries(userCalls[0]!.entries())).toMatchObject({ page: '1', pageSize: '100' });
    expect(Object.fromEntries(planCalls[0]!.entries())).toMatchObject({
      page: '1',
      pageSize: '100',
      'filters[isActive]': 'true',
    });

    const cost = screen.getByRole('textbox', { name: 'Costo (IVA esclusa, €)' });
    const vat = screen.getByRole('textbox', { name: 'IVA (%)' });
    await waitFor(() => expect(cost).toHaveValue('40,98'));
    expect(vat).toHaveValue('22');
    expect(total()).toBe('50,00 €');

    await user.clear(cost);
    await user.type(cost, '49,50');
    await user.clear(vat);
    await user.type(vat, '10');
    expect(total()).toBe('54,45 €');

    await user.click(screen.getByRole('button', { name: 'Crea' }));
    await waitFor(() =>
      expect(calls.created).toEqual([{ userId: 3, planId: 7, paymentAmount: 49.5, vatPercentage: 10 }]),
    );
    expect(await screen.findByText(messages.http.created)).toBeInTheDocument();
    await waitFor(() => expect(currentUrl(router)).toBe('/subscription/42'));
    // The next step is offered on the detail page.
    expect(await screen.findByText('Prossimo passo')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Genera link di pagamento' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Imposta pagamento con bonifico' })).toBeInTheDocument();
  });

  it('shows the Anteprima fattura the server computes, asked again as the price changes', async () => {
    const { quoteCalls } = pickers({ professional: true });
    subscriptionServer([]);
    const { user } = renderApp('/subscription/new', { role: Role.Admin, tenantId: 1 });
    await pick(user, 'Cliente', 'Mario Rossi');
    await pick(user, 'Piano', 'Pro');
    const preview = await screen.findByRole('region', { name: 'Anteprima fattura' });
    // The amount beside a label, spaces as typed (Intl writes a no-break space before €).
    const row = (label: string) =>
      within(preview).getByText(label).nextElementSibling?.textContent?.replace(/\s/g, ' ');
    await waitFor(() => expect(row('Netto a pagare')).toBe('1060,80 €'));
    expect(row('Cassa previdenziale')).toBe('40,00 €');
    expect(row('IVA')).toBe('228,80 €');
    expect(row('Totale documento')).toBe('1268,80 €');
    expect(row('Ritenuta d’acconto')).toBe('− 208,00 €');
    // The plain cost + VAT summary would say 1220,00 €: the preview replaces it.
    expect(screen.queryByRole('complementary', { name: 'Riepilogo' })).not.toBeInTheDocument();
    const cost = screen.getByRole('textbox', { name: 'Costo (IVA esclusa, €)' });
    await user.clear(cost);
    await user.type(cost, '49,50');
    await waitFor(() =>
      expect(quoteCalls.at(-1)).toEqual({ userId: 3, planId: 7, paymentAmount: 49.5, vatPercentage: 22 }),
    );
  });

  it('without a user or a plan: "Seleziona un utente e un piano." and nothing is sent', async () => {
    pickers();
    const { calls } = subscriptionServer([]);
    const { user } = renderApp('/subscription/new', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(messages.subscription.pickRequired)).toBeInTheDocument();

    await pick(user, 'Cliente', 'Mario Rossi');
    // A pick clears the message; the next Crea asks again for what is still missing.
    await waitFor(() =>
      expect(screen.queryByText(messages.subscription.pickRequired)).not.toBeInTheDocument(),
    );
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(messages.subscription.pickRequired)).toBeInTheDocument();
    expect(calls.created).toEqual([]);
  });

  it('empty pickers say "Nessun utente trovato." / "Nessun piano trovato."', async () => {
    fakeSelectServer('user', []);
    fakeSelectServer('plan', []);
    const { user } = renderApp('/subscription/new', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('combobox', { name: 'Cliente' }));
    expect(await screen.findByText(messages.subscription.noUsers)).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Piano' }));
    expect(await screen.findByText(messages.subscription.noPlans)).toBeInTheDocument();
  });

  it('a refused create shows the server’s field message under the cost, prefix removed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    pickers();
    server.use(
      apiPost('subscription/Create', () =>
        fail(400, 'I dati inviati non sono validi.', null, ['paymentAmount: Il costo è troppo alto.']),
      ),
    );
    const { user } = renderApp('/subscription/new', { role: Role.Admin, tenantId: 1 });
    await pick(user, 'Cliente', 'Mario Rossi');
    await pick(user, 'Piano', 'Pro');
    const cost = screen.getByRole('textbox', { name: 'Costo (IVA esclusa, €)' });
    await waitFor(() => expect(cost).toHaveValue('40,98'));
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText('Il costo è troppo alto.')).toBeInTheDocument();
    expect(cost).toHaveAttribute('aria-invalid', 'true');
    // The save's toast, once (the one error path of the query client).
    expect(await screen.findAllByText(messages.http.saveError)).toHaveLength(1);
  });

  it('a User opening it finds no such page (issue 28: the back office is not shown to a customer)', async () => {
    renderApp('/subscription/new', { role: Role.User, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Pagina non trovata' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Crea' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Cliente' })).not.toBeInTheDocument();
  });
});

describe('/subscription/{id} (spec §2)', () => {
  const history = [
    {
      id: 1,
      event: 'create' as const,
      fromStatus: null,
      toStatus: 2 as const,
      actor: { kind: 'user' as const, id: '1', name: 'Anna Admin' },
      reason: null,
      at: '2026-01-15T09:00:00Z',
    },
    {
      id: 2,
      event: 'setBankTransfer' as const,
      fromStatus: 2 as const,
      toStatus: 4 as const,
      actor: { kind: 'user' as const, id: '1', name: 'Anna Admin' },
      reason: 'Il cliente preferisce il bonifico',
      at: '2026-03-01T09:15:00Z',
    },
    {
      id: 3,
      event: 'confirmBankTransfer' as const,
      fromStatus: 4 as const,
      toStatus: 3 as const,
      actor: { kind: 'system' as const, id: null, name: null },
      reason: null,
      at: '2026-07-01T16:05:00Z',
    },
  ];

  it('renders the status, read-only fields, the payments and the history timeline', async () => {
    pickers();
    subscriptionServer([
      subscription(9, 3, {
        history,
        payments: [
          payment({ id: 509, method: 'bankTransfer', paidAt: '2026-07-01T16:05:00Z', causale: 'RNV-9-509' }),
        ],
      }),
    ]);
    renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Modifica Sottoscrizione' }),
    ).toBeInTheDocument();

    const timeline = await screen.findByRole('list', { name: 'Cronologia della sottoscrizione' });
    const items = within(timeline).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Sottoscrizione creata');
    expect(items[0]).toHaveTextContent('Anna Admin');
    expect(items[0]).toHaveTextContent('15/01/2026 10:00');
    expect(items[1]).toHaveTextContent('Pagamento impostato su bonifico bancario');
    expect(within(items[1]!).getByText('Sottoscrizione non attiva')).toBeInTheDocument();
    expect(within(items[1]!).getByText('In attesa di bonifico bancario')).toBeInTheDocument();
    expect(items[1]).toHaveTextContent('01/03/2026 10:15');
    expect(items[1]).toHaveTextContent('Il cliente preferisce il bonifico');
    // Summer time in Rome: 16:05 UTC is 18:05.
    expect(items[2]).toHaveTextContent('Attivazione confermata dopo il bonifico');
    expect(items[2]).toHaveTextContent('Sistema');
    expect(items[2]).toHaveTextContent('01/07/2026 18:05');

    // Not NotActive: plan and price are read-only, no Salva.
    expect(screen.getByRole('textbox', { name: 'Costo (IVA esclusa, €)' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Data di inizio' })).toHaveValue('15/01/2026');
    expect(screen.getByRole('textbox', { name: 'Prossima fatturazione' })).toHaveValue('15/02/2026');
    expect(screen.queryByRole('button', { name: 'Salva' })).not.toBeInTheDocument();

    const payments = screen.getByRole('table', { name: 'Pagamenti' });
    expect(within(payments).getByText('RNV-9-509')).toBeInTheDocument();
    expect(within(payments).getByText('Bonifico bancario')).toBeInTheDocument();
  });

  it('while NotActive the plan and price can be changed and are saved with Update', async () => {
    pickers();
    const { calls } = subscriptionServer([subscription(8, 2, { history: [] })]);
    const { user } = renderApp('/subscription/8', { role: Role.Admin, tenantId: 1 });
    const cost = await screen.findByRole('textbox', { name: 'Costo (IVA esclusa, €)' });
    expect(cost).toHaveValue('40,98');
    expect(screen.getByRole('textbox', { name: 'Cliente' })).toBeDisabled();
    await user.clear(cost);
    await user.type(cost, '30');
    expect(total()).toBe('36,60 €');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() =>
      expect(calls.updated).toEqual([{ id: 8, planId: 7, paymentAmount: 30, vatPercentage: 22 }]),
    );
    expect(await screen.findByText(messages.http.updated)).toBeInTheDocument();
  });
});
