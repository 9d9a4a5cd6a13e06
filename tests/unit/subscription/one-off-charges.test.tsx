/**
 * 'Addebito una tantum' on /subscription/{id} (issue 30): the dialog sends description, quantity,
 * unit price and when to collect, puts the server's field errors on their fields; the list shows
 * each charge with its status and amount; a pending one is deleted after confirming.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import type { OneOffCharge } from '../../../contract/schemas/one-off-charge';
import { renderApp } from '../app/harness';
import { apiDelete, apiGet, apiPost, fail, ok, server } from '../msw/server';
import { payment, subscription, subscriptionServer } from './fixtures';

afterEach(() => vi.restoreAllMocks());

const paid: OneOffCharge = {
  id: 1,
  subscriptionId: 12,
  description: 'Configurazione dominio',
  quantity: 2,
  unitPrice: 45.5,
  collect: 'now',
  status: 'paid',
  amountDue: 111.02,
  paymentId: 900,
  createdAt: '2026-03-10T10:00:00Z',
  paidAt: '2026-03-10T10:00:00Z',
};

describe('one-off charges', () => {
  it('lists the charges, adds one (field errors on their fields) and deletes a pending one', async () => {
    subscriptionServer([subscription(12, 1)]);
    const rows: OneOffCharge[] = [paid];
    const sent: unknown[] = [];
    const deleted: string[] = [];
    server.use(
      apiGet('subscription/charges/:id', () => ok(rows)),
      apiPost('subscription/charges/:id', async ({ request }) => {
        const body = (await request.json()) as { description: string; quantity: number; unitPrice: string };
        sent.push(body);
        if (!body.description.trim())
          return fail(400, 'Dati non validi.', null, [
            'description: Scrivi una descrizione (da 1 a 200 caratteri)',
          ]);
        const row: OneOffCharge = {
          ...paid,
          id: 2,
          description: body.description,
          quantity: body.quantity,
          unitPrice: 80,
          status: 'pending',
          amountDue: 97.6,
          paymentId: 901,
          paidAt: null,
        };
        rows.unshift(row);
        return ok(row);
      }),
      apiDelete('subscription/charges/:id/:chargeId', ({ params }) => {
        deleted.push(String(params.chargeId));
        rows[0] = { ...rows[0]!, status: 'deleted', paymentId: null };
        return ok(null);
      }),
    );
    const { user } = renderApp('/subscription/12', { role: Role.Admin, tenantId: 1 });
    const card = (
      await screen.findByRole('heading', { name: 'Addebiti una tantum' }, { timeout: 10_000 })
    ).closest('section')!;
    const list = await within(card).findByRole('list', { name: 'Addebiti una tantum' });
    expect(within(list).getByText('Configurazione dominio')).toBeVisible();
    expect(within(list).getByText('Pagato')).toBeVisible();
    expect(within(list).getByText('111,02 €')).toBeVisible();

    await user.click(within(card).getByRole('button', { name: 'Addebito una tantum' }));
    const dialog = await screen.findByRole('dialog', { name: 'Addebito una tantum' });
    await user.type(within(dialog).getByLabelText('Prezzo unitario (IVA esclusa, €)'), '80');
    await user.click(within(dialog).getByRole('button', { name: 'Aggiungi addebito' }));
    expect(await within(dialog).findByText('Scrivi una descrizione (da 1 a 200 caratteri)')).toBeVisible();
    await user.type(within(dialog).getByLabelText('Descrizione'), 'Formazione');
    await user.clear(within(dialog).getByLabelText('Quantità'));
    await user.type(within(dialog).getByLabelText('Quantità'), '3');
    await user.click(within(dialog).getByRole('button', { name: 'Aggiungi addebito' }));
    expect(await screen.findByText('Addebito una tantum creato.')).toBeVisible();
    expect(sent.at(-1)).toEqual({ description: 'Formazione', quantity: 3, unitPrice: '80', collect: 'now' });
    expect(await within(card).findByText('Da incassare')).toBeVisible();

    await user.click(within(card).getByRole('button', { name: 'Elimina l’addebito «Formazione»' }));
    const confirm = await screen.findByRole('dialog', { name: 'Eliminare l’addebito?' });
    expect(deleted).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Elimina' }));
    expect(await screen.findByText('Addebito eliminato.')).toBeVisible();
    expect(deleted).toEqual(['2']);
    expect(await within(card).findByText('Eliminato')).toBeVisible();
  }, 30_000);

  it('a pending charge with its own payment gets its card payment link; a Stripe-charged or next-payment one does not', async () => {
    subscriptionServer([{ ...subscription(12, 1), payments: [payment({ id: 512, method: 'stripe' })] }]);
    const byStripe: OneOffCharge = {
      ...paid,
      id: 5,
      description: 'Addebitato da Stripe',
      status: 'pending',
      paidAt: null,
      paymentId: 512,
    };
    const pending: OneOffCharge = { ...paid, id: 3, status: 'pending', paidAt: null, paymentId: 501 };
    const next: OneOffCharge = {
      ...paid,
      id: 4,
      description: 'Supporto extra',
      collect: 'nextPayment',
      status: 'pending',
      paidAt: null,
      paymentId: null,
    };
    const asked: unknown[] = [];
    server.use(
      apiGet('subscription/charges/:id', () => ok([byStripe, next, pending])),
      apiPost('PaymentToken/create', async ({ request }) => {
        asked.push(await request.json());
        return ok({ token: 'tok-oneoff' });
      }),
    );
    const { user } = renderApp('/subscription/12', { role: Role.Admin, tenantId: 1 });
    const card = (
      await screen.findByRole('heading', { name: 'Addebiti una tantum' }, { timeout: 10_000 })
    ).closest('section')!;
    await within(card).findByText('Supporto extra');
    expect(
      within(card).queryByRole('button', { name: 'Link di pagamento con carta per «Supporto extra»' }),
    ).toBeNull();
    await user.click(
      within(card).getByRole('button', { name: 'Link di pagamento con carta per «Configurazione dominio»' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByDisplayValue(/token=tok-oneoff/)).toBeVisible();
    expect(asked).toEqual([{ paymentId: 501 }]);
  }, 30_000);
});
