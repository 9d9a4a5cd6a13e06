/**
 * Subscriptions as the billing calls answer them, and an in-memory subscription server on the
 * shared MSW server (getAll, GetById and the action calls), recording what the SPA sends.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { SubscriptionStatusId } from '../../../contract/enums';
import type { Payment, Subscription } from '../../../contract/schemas/subscription';
import { apiDelete, apiGet, apiPost, apiPut, fail, ok, server } from '../msw/server';

const statusNames = ['', 'Active', 'NotActive', 'ActiveNoRenewal', 'BankTransferPending', 'Canceled'];

export function payment(over: Partial<Payment> = {}): Payment {
  return {
    id: 501,
    amountDue: 50,
    currency: 'EUR',
    approvedAmount: 0,
    transferredAmount: 0,
    providerSubscriptionId: null,
    method: null,
    causale: 'RNV-1-501',
    periodStart: '2026-01-15T09:00:00Z',
    periodEnd: '2026-02-15T09:00:00Z',
    paidAt: null,
    dueDate: '2026-01-15',
    collectionStatus: 'due',
    ...over,
  };
}

/** A subscription in `status`; `allowedActions` is left out unless given (the SPA then computes them). */
export function subscription(
  id: number,
  status: SubscriptionStatusId,
  over: Partial<Subscription> = {},
): Subscription {
  const sub = {
    id,
    userID: 3,
    planID: 7,
    user: { id: 3, name: `Cliente ${id}`, email: `cliente${id}@example.it` },
    plan: {
      id: 7,
      name: 'Pro',
      recurrenceType: 1,
      recurrenceTypeName: 'Mensile',
      recurringCostBeforeVAT: 40.98,
      vatPercentage: 22,
    },
    startDate: '2026-01-15T09:00:00Z',
    nextBillingDate: '2026-02-15T09:00:00Z',
    subscriptionStatus: status,
    subscriptionStatusName: statusNames[status]!,
    costBeforeVAT: 40.98,
    vatPercentage: 22,
    amountDue: 50,
    currency: 'EUR',
    payments: [payment({ id: 500 + id })],
    createdAt: '2026-01-15T09:00:00Z',
    ...over,
  };
  return sub as Subscription;
}

export interface SubscriptionCalls {
  list: URLSearchParams[];
  setBankTransfer: string[];
  setActive: string[];
  cancel: string[];
  tokens: unknown[];
  created: unknown[];
  updated: unknown[];
}

/** Serves `rows` on getAll / GetById and answers every action with success (override with server.use). */
export function subscriptionServer(rows: Subscription[]) {
  const calls: SubscriptionCalls = {
    list: [],
    setBankTransfer: [],
    setActive: [],
    cancel: [],
    tokens: [],
    created: [],
    updated: [],
  };
  const byId = (id: unknown) => rows.find((r) => String(r.id) === String(id));
  server.use(
    apiGet('subscription/getAll', ({ request }) => {
      const params = new URL(request.url).searchParams;
      calls.list.push(params);
      return ok({ items: rows, totalCount: rows.length });
    }),
    // Issue 30: the subscription page lists its one-off charges (none here).
    apiGet('subscription/charges/:id', () => ok([])),
    apiGet('subscription/GetById/:id', ({ params }) => {
      const row = byId(params.id);
      return row ? ok(row) : fail(404, 'Elemento non trovato.');
    }),
    apiPut('subscription/setPaymentWithBankTransfer/:id', ({ params }) => {
      calls.setBankTransfer.push(String(params.id));
      return ok({ ...byId(params.id), subscriptionStatus: 4 });
    }),
    apiPut('subscription/setActiveNoRenewal/:id', ({ params }) => {
      calls.setActive.push(String(params.id));
      return ok({ ...byId(params.id), subscriptionStatus: 3 });
    }),
    apiDelete('subscription/cancel/:id', ({ params }) => {
      calls.cancel.push(String(params.id));
      return ok({ ...byId(params.id), subscriptionStatus: 5 });
    }),
    apiPost('PaymentToken/create', async ({ request }) => {
      calls.tokens.push(await request.json());
      return ok({ token: 'tok-abc123' });
    }),
    apiPost('subscription/Create', async ({ request }) => {
      const body = await request.json();
      calls.created.push(body);
      const created = subscription(42, 2);
      rows.push(created);
      return ok(created);
    }),
    apiPut('subscription/Update', async ({ request }) => {
      const body = await request.json();
      calls.updated.push(body);
      return ok(byId((body as { id: number }).id));
    }),
  );
  return { rows, calls };
}

/** The table row whose customer cell reads `customer`. */
export async function rowOf(customer: string): Promise<HTMLElement> {
  const table = await screen.findByRole('table', { name: 'Gestisci Sottoscrizioni' });
  const cell = await within(table).findByRole('cell', { name: customer });
  return cell.closest('tr') as HTMLElement;
}

/** Accessible names of the action buttons of a row (the edit link is a link, not a button). */
export function actionButtons(row: HTMLElement): string[] {
  return within(row)
    .queryAllByRole('button')
    .map((b) => b.getAttribute('aria-label') ?? '');
}

/** Answers the open sweetalert2 dialog (confirm or cancel), waits for it to close, returns its text. */
export async function answerSwal(button: string): Promise<string> {
  const popup = await waitFor(() => {
    const el = document.querySelector('.swal2-popup');
    expect(el).not.toBeNull();
    return el as HTMLElement;
  });
  const text = popup.textContent ?? '';
  within(popup).getByRole('button', { name: button }).click();
  await waitFor(() => expect(document.querySelector('.swal2-container')).toBeNull());
  return text;
}
