/**
 * The customer area after the first payment (issue 30), against MSW: a running trial says 'In prova
 * fino al …' with what is due then and 'Paga ora'; an expired one says so; a subscription's one-off
 * charges are listed with their state ('Da pagare', 'Con il prossimo pagamento', 'Pagato' with the
 * invoice), and a 'Subito' charge's payment is due now: its 'Paga ora' names the payment and opens
 * the card payment page.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import type { OwnOneOffCharge } from '../../../contract/schemas/one-off-charge';
import type { Subscription } from '../../../contract/schemas/subscription';
import { openPaymentPage } from '../../../src/features/customer-area/pay-now';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, ok, server } from '../msw/server';
import { payment, subscription } from '../subscription/fixtures';

let opened: string[];
beforeEach(() => {
  opened = [];
  vi.spyOn(openPaymentPage, 'go').mockImplementation((url: string) => void opened.push(url));
});
afterEach(() => vi.restoreAllMocks());

function customerServer(subs: Subscription[], charges: Record<number, OwnOneOffCharge[]> = {}) {
  const calls = { pay: [] as { id: string; body: unknown }[] };
  server.use(
    apiGet('subscription/getAll', () => ok({ items: subs, totalCount: subs.length })),
    apiGet('invoice/getAll', () => ok({ items: [], totalCount: 0 })),
    apiGet('tenant/getAll', () => ok([{ id: 1, name: 'Demo Srl' }])),
    apiGet('user/me/subscriptions/:id/charges', ({ params }) => ok(charges[Number(params.id)] ?? [])),
    apiPost('user/me/subscriptions/:id/pay', async ({ params, request }) => {
      calls.pay.push({ id: String(params.id), body: await request.json() });
      return ok({
        method: 'link',
        paymentId: 0,
        url: 'http://localhost/payment?token=tok-9&bypassTenant=true',
        expiryDate: '2026-03-10T10:00:00Z',
      });
    }),
  );
  return calls;
}

const home = () => renderApp('/', { role: Role.User, tenantId: 1, email: 'cliente@demo.rinnova.it' });

const charge = (over: Partial<OwnOneOffCharge>): OwnOneOffCharge => ({
  id: 1,
  subscriptionId: 40,
  description: 'Configurazione dominio',
  quantity: 1,
  unitPrice: 91,
  collect: 'now',
  status: 'pending',
  amountDue: 111.02,
  paymentId: 901,
  createdAt: '2026-03-10T10:00:00Z',
  paidAt: null,
  invoice: null,
  payable: true,
  ...over,
});

describe('a trial in the customer area', () => {
  it('running: the badge, what is due at its end, and Paga ora of the first payment', async () => {
    const trial = subscription(30, 3, {
      trialState: 'running',
      trialEndsAt: '2026-07-15T09:00:00.000Z',
      nextBillingDate: '2026-07-15T09:00:00.000Z',
      payments: [
        payment({
          id: 830,
          amountDue: 36.6,
          periodStart: '2026-07-15T09:00:00.000Z',
          periodEnd: '2026-08-15T09:00:00.000Z',
        }),
      ],
    });
    const calls = customerServer([trial]);
    const { user } = home();
    expect(await screen.findByText('In prova fino al 15/07/2026')).toBeInTheDocument();
    const note = screen.getByTestId('area-trial');
    expect(note).toHaveTextContent(
      /Alla fine della prova, il 15\/07\/2026, è dovuto il primo pagamento di 36,60\s€/,
    );
    // Not yet due: nothing under 'Da pagare ora'.
    expect(screen.queryByRole('heading', { name: 'Da pagare ora' })).not.toBeInTheDocument();
    await user.click(within(note).getByRole('button', { name: /Paga ora Pro/ }));
    await waitFor(() => expect(opened).toEqual(['http://localhost/payment?token=tok-9&bypassTenant=true']));
    expect(calls.pay).toEqual([{ id: '30', body: {} }]);
  });

  it('ended unpaid: says so, and the first payment is due now', async () => {
    const expired = subscription(31, 2, {
      trialState: 'expired',
      trialEndsAt: '2026-07-15T09:00:00.000Z',
      payments: [payment({ id: 831, amountDue: 36.6 })],
    });
    customerServer([expired]);
    home();
    expect(await screen.findByText('Prova scaduta senza pagamento')).toBeInTheDocument();
    expect(screen.getByTestId('area-trial')).toHaveTextContent('La prova è terminata senza pagamento');
    expect(screen.getByRole('heading', { name: 'Da pagare ora' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Paga ora Pro, 36,60/ })).toBeInTheDocument();
  });
});

describe('one-off charges in the customer area', () => {
  const period = payment({
    id: 900,
    method: 'bankTransfer',
    paidAt: '2026-03-02T10:00:00Z',
    periodStart: '2026-03-02T09:00:00Z',
    periodEnd: '2026-04-02T09:00:00Z',
  });
  const own = payment({
    id: 901,
    method: 'bankTransfer',
    amountDue: 111.02,
    extra: 'oneOff',
    periodStart: '2026-03-10T10:00:00Z',
    periodEnd: '2026-03-10T10:00:00Z',
  });
  const live = subscription(40, 3, { nextBillingDate: '2026-04-02T09:00:00Z', payments: [period, own] });

  it('lists each charge with its state and amount; the paid one links its invoice', async () => {
    customerServer([live], {
      40: [
        charge({ id: 3, description: 'Formazione', collect: 'nextPayment', paymentId: null, payable: false }),
        charge({ id: 2 }),
        charge({
          id: 1,
          description: 'Migrazione',
          quantity: 2,
          amountDue: 50,
          status: 'paid',
          paidAt: '2026-03-05T10:00:00Z',
          paymentId: 899,
          payable: false,
          invoice: { id: 77, number: '2026/000012', documentType: 'TD01', fileName: 'IT1_0000C.xml' },
        }),
      ],
    });
    home();
    const section = await screen.findByRole('region', { name: 'Addebiti una tantum' });
    const rows = await within(section).findAllByTestId('own-charge');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent(/Formazione.*111,02\s€.*Con il prossimo pagamento/);
    expect(rows[1]).toHaveTextContent(/Configurazione dominio.*111,02\s€.*Da pagare/);
    expect(rows[2]).toHaveTextContent(/Migrazione × 2.*50,00\s€.*Pagato.*Fattura 2026\/000012/);
    expect(
      within(rows[2]!).getByRole('button', { name: 'Scarica la fattura 2026/000012 di Migrazione' }),
    ).toBeInTheDocument();
  });

  it('a Subito charge is due now: Paga ora names its payment and opens the card payment page', async () => {
    const calls = customerServer([live], { 40: [charge({})] });
    const { user } = home();
    const due = await screen.findByTestId('due-card');
    expect(await within(due).findByText('Addebito una tantum: «Configurazione dominio»')).toBeInTheDocument();
    await user.click(within(due).getByRole('button', { name: /Paga ora Pro, 111,02/ }));
    await waitFor(() => expect(opened).toHaveLength(1));
    expect(calls.pay).toEqual([{ id: '40', body: { paymentId: 901 } }]);
  });

  it('a charge Stripe takes from the subscription’s card is not due in the area', async () => {
    const byCard = subscription(41, 1, {
      nextBillingDate: '2026-04-02T09:00:00Z',
      payments: [
        { ...period, method: 'stripe' },
        { ...own, id: 902, method: 'stripe' },
      ],
    });
    customerServer([byCard], { 41: [charge({ subscriptionId: 41, paymentId: 902, payable: false })] });
    home();
    expect(await screen.findByRole('region', { name: 'Addebiti una tantum' })).toBeInTheDocument();
    expect(screen.queryByTestId('due-card')).not.toBeInTheDocument();
  });

  it('a charge paid by card does not change the subscription’s payment method', async () => {
    const paidByCard = subscription(42, 3, {
      nextBillingDate: '2026-04-02T09:00:00Z',
      payments: [period, { ...own, id: 903, method: 'stripe', paidAt: '2026-03-11T10:00:00Z' }],
    });
    customerServer([paidByCard]);
    home();
    const card = await screen.findByRole('heading', { name: 'Pro', level: 3 });
    const item = card.closest('li')!;
    expect(item).toHaveTextContent('Bonifico bancario');
    expect(item).not.toHaveTextContent('Carta (Stripe)');
  });
});

describe('the customer’s own pause', () => {
  const paid = payment({
    id: 950,
    method: 'bankTransfer',
    paidAt: '2026-03-02T10:00:00Z',
    periodStart: '2026-03-02T09:00:00Z',
    periodEnd: '2026-04-02T09:00:00Z',
  });
  const live = subscription(50, 3, { nextBillingDate: '2026-04-02T09:00:00Z', payments: [paid] });

  it('is not offered where the tenant does not allow it', async () => {
    customerServer([live]);
    server.use(apiGet('user/me/subscriptions/:id/changePlan', () => ok({ allowed: false, plans: [] })));
    home();
    expect(await screen.findByRole('heading', { name: 'Pro', level: 3 })).toBeInTheDocument();
    expect(screen.queryByTestId('area-pause')).not.toBeInTheDocument();
  });

  it('Sospendi per N periodi sends the periods; paused, Riprendi ora resumes', async () => {
    customerServer([
      live,
      {
        ...live,
        id: 51,
        pause: {
          from: '2026-04-02T09:00:00Z',
          until: '2026-06-02T09:00:00Z',
          periods: 2,
          entitlements: 'suspend',
        },
      },
    ]);
    const calls: { path: string; body: unknown }[] = [];
    server.use(
      apiGet('user/me/subscriptions/:id/pause', () => ok({ allowed: true })),
      apiGet('user/me/subscriptions/:id/changePlan', () => ok({ allowed: false, plans: [] })),
      apiPost('user/me/subscriptions/:id/pause', async ({ params, request }) => {
        calls.push({ path: `pause/${String(params.id)}`, body: await request.json() });
        return ok(
          {
            from: '2026-04-02T09:00:00Z',
            until: '2026-06-02T09:00:00Z',
            periods: 2,
            entitlements: 'suspend',
          },
          'Incasso sospeso: il prossimo addebito è il 02/06/2026.',
        );
      }),
      apiPost('user/me/subscriptions/:id/resume', ({ params }) => {
        calls.push({ path: `resume/${String(params.id)}`, body: null });
        return ok(
          { nextBillingDate: '2026-04-02T09:00:00Z' },
          'Incasso ripreso: il prossimo addebito è il 02/04/2026.',
        );
      }),
    );
    const { user } = home();
    await waitFor(() => expect(screen.getAllByTestId('area-pause')).toHaveLength(2));
    const [running, paused] = screen.getAllByTestId('area-pause');
    await user.selectOptions(within(running!).getByLabelText('Sospendi per'), '2');
    await user.click(within(running!).getByRole('button', { name: 'Sospendi per 2 periodi' }));
    expect(
      await screen.findByText('Incasso sospeso: il prossimo addebito è il 02/06/2026.'),
    ).toBeInTheDocument();
    expect(paused).toHaveTextContent('Incasso sospeso dal 02/04/2026 al 02/06/2026');
    await user.click(within(paused!).getByRole('button', { name: 'Riprendi ora' }));
    expect(
      await screen.findByText('Incasso ripreso: il prossimo addebito è il 02/04/2026.'),
    ).toBeInTheDocument();
    expect(calls).toEqual([
      { path: 'pause/50', body: { periods: 2 } },
      { path: 'resume/51', body: null },
    ]);
  });
});
