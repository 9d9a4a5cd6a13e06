/**
 * The customer area's 'Paga ora' and 'Metodo di pagamento' (issue 28) on the home of a signed-in
 * customer (role User), against MSW: a link opens the payment page; a bank transfer opens a panel
 * with IBAN, amount and causale to copy; a refusal is a toast with the server's words; the card's
 * provider page opens in place of the area; 'Passa al bonifico' asks first, then calls once.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import type { Subscription } from '../../../contract/schemas/subscription';
import { openPaymentPage } from '../../../src/features/customer-area/pay-now';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, deferred, fail, ok, server } from '../msw/server';
import { payment, subscription } from '../subscription/fixtures';

let opened: string[];
beforeEach(() => {
  opened = [];
  vi.spyOn(openPaymentPage, 'go').mockImplementation((url: string) => void opened.push(url));
});
afterEach(() => vi.restoreAllMocks());

/** The customer's subscriptions; the home's other reads answer empty. Records the pay calls. */
function customerServer(subs: Subscription[]) {
  const calls = { pay: [] as string[], method: [] as { id: string; body: unknown }[], lists: 0 };
  server.use(
    apiGet('subscription/getAll', () => {
      calls.lists++;
      return ok({ items: subs, totalCount: subs.length });
    }),
    apiGet('invoice/getAll', () => ok({ items: [], totalCount: 0 })),
    apiGet('tenant/getAll', () => ok([{ id: 1, name: 'Demo Srl' }])),
  );
  return calls;
}

const home = () => renderApp('/', { role: Role.User, tenantId: 1, email: 'cliente@demo.rinnova.it' });

const notActive = subscription(11, 2, {
  amountDue: 61,
  payments: [payment({ id: 611, amountDue: 61, causale: 'RNV-1-611' })],
});
const pending = subscription(12, 4, {
  amountDue: 1234.5,
  payments: [payment({ id: 612, amountDue: 1234.5, causale: 'RNV-1-612', method: 'bankTransfer' })],
});
const byCard = subscription(13, 1, {
  plan: { ...notActive.plan, name: 'Basic' },
  nextBillingDate: '2026-04-10T09:00:00Z',
  payments: [
    payment({
      id: 613,
      method: 'stripe',
      providerSubscriptionId: 'sub_123',
      paidAt: '2026-03-10T09:00:00Z',
    }),
  ],
});

describe('Paga ora', () => {
  it('asks the server for a fresh link and opens the payment page; the link stays shown', async () => {
    const calls = customerServer([notActive]);
    const url = 'http://localhost/payment?token=tok-1&bypassTenant=true';
    const gate = deferred();
    server.use(
      apiPost('user/me/subscriptions/:id/pay', async ({ params }) => {
        calls.pay.push(String(params.id));
        await gate.promise;
        return ok(
          { method: 'link', paymentId: 611, url, expiryDate: '2026-03-10T10:00:00Z' },
          'Link di pagamento pronto: si apre la pagina di pagamento.',
        );
      }),
    );
    const { user } = home();
    const button = await screen.findByRole('button', { name: /Paga ora Pro/ });
    await user.click(button);
    expect(await screen.findByRole('button', { name: /Paga ora Pro/ })).toBeDisabled();
    expect(button).toHaveTextContent('Un momento…');
    gate.resolve();
    await waitFor(() => expect(opened).toEqual([url]));
    expect(calls.pay).toEqual(['11']);
    expect(screen.getByRole('link', { name: /Apri la pagina di pagamento/ })).toHaveAttribute('href', url);
  });

  it('by bank transfer: a panel with beneficiary, IBAN, amount and causale, each copied by its button', async () => {
    customerServer([pending]);
    server.use(
      apiPost('user/me/subscriptions/:id/pay', () =>
        ok({
          method: 'bankTransfer',
          paymentId: 612,
          beneficiary: 'Demo Srl',
          iban: 'IT60X0542811101000000123456',
          netToPay: 1234.5,
          currency: 'EUR',
          causale: 'RNV-1-612',
        }),
      ),
    );
    const { user } = home();
    const button = await screen.findByRole('button', { name: /Paga ora Pro/ });
    await user.click(button);
    const panel = await screen.findByRole('region', { name: 'Dati per il bonifico' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(within(panel).getByText('Demo Srl')).toBeInTheDocument();
    expect(within(panel).getByText('IT60 X054 2811 1010 0000 0123 456')).toBeInTheDocument();
    expect(within(panel).getByText('RNV-1-612')).toBeInTheDocument();
    expect(within(panel).getByText(/1\.?234,50\s€/)).toBeInTheDocument();
    expect(opened).toEqual([]);

    await user.click(within(panel).getByRole('button', { name: 'Copia IBAN' }));
    expect(await navigator.clipboard.readText()).toBe('IT60X0542811101000000123456');
    await user.click(within(panel).getByRole('button', { name: 'Copia Importo' }));
    expect(await navigator.clipboard.readText()).toBe('1234,50');
    await user.click(within(panel).getByRole('button', { name: 'Copia Causale' }));
    expect(await navigator.clipboard.readText()).toBe('RNV-1-612');

    // The same button folds the panel away, without asking again.
    await user.click(button);
    expect(screen.queryByRole('region', { name: 'Dati per il bonifico' })).not.toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('a refusal is a toast with the server’s Italian message, and nothing opens', async () => {
    customerServer([notActive]);
    server.use(
      apiPost('user/me/subscriptions/:id/pay', () =>
        fail(409, 'Non c’è nulla da pagare ora per questo abbonamento.'),
      ),
    );
    const { user } = home();
    await user.click(await screen.findByRole('button', { name: /Paga ora Pro/ }));
    expect(
      await screen.findByText('Non c’è nulla da pagare ora per questo abbonamento.'),
    ).toBeInTheDocument();
    expect(opened).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Dati per il bonifico' })).not.toBeInTheDocument();
  });
});

describe('Metodo di pagamento', () => {
  it('a card subscription: «Gestisci la carta» opens Stripe’s billing portal in place of the area', async () => {
    const calls = customerServer([byCard]);
    const url = 'https://billing.stripe.com/p/session/bps_1';
    server.use(
      apiPost('user/me/subscriptions/:id/paymentMethod', async ({ params, request }) => {
        calls.method.push({ id: String(params.id), body: await request.json() });
        return ok({ action: 'portal', provider: 'stripe', url });
      }),
    );
    const { user } = home();
    const group = await screen.findByRole('group', { name: 'Metodo di pagamento di Basic' });
    await user.click(within(group).getByRole('button', { name: /Gestisci la carta/ }));
    await waitFor(() => expect(opened).toEqual([url]));
    expect(calls.method).toEqual([{ id: '13', body: { action: 'portal' } }]);
    // Nothing is due on an active subscription.
    expect(screen.queryByRole('button', { name: /Paga ora/ })).not.toBeInTheDocument();
  });

  it('«Passa al bonifico» asks first; «Annulla» calls nothing; confirmed: one call, the server’s message, the list read again', async () => {
    const calls = customerServer([byCard]);
    const message =
      'Fatto: il rinnovo automatico è disattivato. Dal 10/04/2026 pagherai con bonifico: ti invieremo IBAN, importo e causale.';
    server.use(
      apiPost('user/me/subscriptions/:id/paymentMethod', async ({ params, request }) => {
        calls.method.push({ id: String(params.id), body: await request.json() });
        return ok(
          { action: 'bankTransfer', nextBillingDate: '2026-04-10T09:00:00Z', paymentId: 700, changed: true },
          message,
        );
      }),
    );
    const { user } = home();
    const group = await screen.findByRole('group', { name: 'Metodo di pagamento di Basic' });
    await user.click(within(group).getByRole('button', { name: /Passa al bonifico/ }));
    let dialog = await screen.findByRole('dialog', { name: 'Passare al bonifico?' });
    expect(dialog).toHaveTextContent(
      'Il rinnovo automatico con Stripe si ferma alla fine del periodo già pagato.',
    );
    expect(dialog).toHaveTextContent('10/04/2026');
    await user.click(within(dialog).getByRole('button', { name: 'Annulla' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.method).toEqual([]);

    const listsBefore = calls.lists;
    await user.click(within(group).getByRole('button', { name: /Passa al bonifico/ }));
    dialog = await screen.findByRole('dialog', { name: 'Passare al bonifico?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sì, passa al bonifico' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls.method).toEqual([{ id: '13', body: { action: 'bankTransfer' } }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(calls.lists).toBeGreaterThan(listsBefore));
    expect(opened).toEqual([]);
  });

  it('after the switch the card says so and offers no second switch; unpaid subscriptions have no section', async () => {
    const switched = subscription(14, 3, {
      plan: { ...notActive.plan, name: 'Basic' },
      nextBillingDate: '2026-04-10T09:00:00Z',
      payments: [
        payment({
          id: 614,
          method: 'stripe',
          providerSubscriptionId: 'sub_9',
          paidAt: '2026-03-10T09:00:00Z',
        }),
        payment({ id: 615, method: 'bankTransfer', periodStart: '2026-04-10T09:00:00Z' }),
      ],
    });
    customerServer([switched, notActive]);
    home();
    const group = await screen.findByRole('group', { name: 'Metodo di pagamento di Basic' });
    expect(group).toHaveTextContent('Dal 10/04/2026 pagherai con bonifico');
    expect(within(group).queryByRole('button', { name: /Passa al bonifico/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Metodo di pagamento di Pro' })).not.toBeInTheDocument();
  });
});
