/**
 * The billing calls' rules with a moved clock: every transition and every refused one, transfers
 * over and under the amount due, bad bodies, roles, and another tenant's ids on every call.
 */
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../../contract/envelope';
import type {
  BankTransfer,
  BankTransferInstructions,
  Subscription,
} from '../../../contract/schemas/subscription';
import {
  bankTransfers,
  outbox,
  payments,
  subscriptionEvents,
  subscriptions,
  tenants,
} from '../../../server/db/schema';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { createSubscription, DEMO_IBAN, giveIban, movableClock, planId, userId } from './helpers';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let superadmin: ApiClient;
let cliente: ApiClient;
let customer: number;
let basic: number;
let pro: number;

/** Everything billing holds, to prove a refused call wrote nothing. */
async function billingSnapshot() {
  const [subs, pays, transfers, events, mails] = await Promise.all([
    ctx.db.select().from(subscriptions),
    ctx.db.select().from(payments),
    ctx.db.select().from(bankTransfers),
    ctx.db.select({ n: count() }).from(subscriptionEvents),
    ctx.db.select({ n: count() }).from(outbox),
  ]);
  return { subs, pays, transfers, events, mails };
}

async function newSubscription(body: Record<string, unknown> = {}): Promise<Subscription> {
  return createSubscription(admin, { userId: customer, planId: basic, ...body });
}

async function pendingSubscription(): Promise<Subscription> {
  const sub = await newSubscription();
  const res = await admin.put<Subscription>(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`);
  expect(res.status).toBe(200);
  return res.body.data!;
}

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  superadmin = await ctx.as('superadmin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  customer = await userId(ctx, 'mario.rossi@example.com');
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  pro = await planId(ctx, 'Demo Srl', 'Pro');
});
afterAll(() => ctx.close());

describe('Create', () => {
  it('makes a NotActive subscription and its first payment from the plan, starting now', async () => {
    const sub = await newSubscription({ planId: pro });
    expect(sub).toMatchObject({
      subscriptionStatus: 2,
      subscriptionStatusName: 'NotActive',
      costBeforeVAT: 29.9,
      vatPercentage: 22,
      amountDue: 36.48, // 29,90 × 1,22 = 36,478
      startDate: clock.now().toISOString(),
      user: { id: customer, email: 'mario.rossi@example.com' },
      plan: { id: pro, name: 'Pro', recurrenceType: 1 },
    });
    expect(sub.payments).toHaveLength(1);
    expect(sub.payments[0]).toMatchObject({ amountDue: 36.48, currency: 'EUR', paidAt: null });
    expect(sub.payments[0]!.causale).toMatch(/^RNV-\d+-\d{6}$/);
    expect(sub.history?.map((h) => [h.event, h.fromStatus, h.toStatus])).toEqual([['create', null, 2]]);
  });

  it('takes a custom cost and VAT, rounding half-up to the cent, and a given start date', async () => {
    const sub = await newSubscription({
      paymentAmount: '40,98',
      vatPercentage: 22,
      startDate: '2025-08-31T10:00',
    });
    expect(sub.amountDue).toBe(50);
    expect(sub.startDate).toBe('2025-08-31T08:00:00.000Z');
    expect(sub.nextBillingDate).toBe('2025-09-30T08:00:00.000Z'); // clamped to the month's end
    const half = await newSubscription({ paymentAmount: 0.05, vatPercentage: 10 }); // 0,055 → 0,06
    expect(half.amountDue).toBe(0.06);
    const free = await newSubscription({ paymentAmount: 0, vatPercentage: 0 });
    expect(free.amountDue).toBe(0);
  });

  it('answers 400 with Italian field errors for bad bodies, writing nothing', async () => {
    const before = await billingSnapshot();
    const cases: [unknown, string][] = [
      [{}, 'userId: Il cliente è obbligatorio.'],
      [{ userId: customer }, 'planId: Il piano è obbligatorio.'],
      [{ userId: customer, planId: basic, paymentAmount: -1 }, 'paymentAmount: Il costo deve essere'],
      [{ userId: customer, planId: basic, paymentAmount: 1.234 }, 'paymentAmount: Il costo deve essere'],
      [{ userId: customer, planId: basic, paymentAmount: 'dieci' }, 'paymentAmount: Il costo deve essere'],
      [{ userId: customer, planId: basic, vatPercentage: 101 }, 'vatPercentage: L’IVA deve essere'],
      [{ userId: customer, planId: basic, vatPercentage: 22.005 }, 'vatPercentage: L’IVA deve essere'],
      [{ userId: customer, planId: basic, startDate: '31/02/2026' }, 'startDate: Data di inizio non valida.'],
      [{ userId: customer, planId: basic, startDate: '2026-02-31' }, 'startDate: Data di inizio non valida.'],
    ];
    for (const [body, error] of cases) {
      const res = await admin.post('/api/subscription/Create', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(
        res.body.errors?.some((e) => e.startsWith(error)),
        `${JSON.stringify(body)} → ${res.raw}`,
      ).toBe(true);
    }
    expect(await billingSnapshot()).toEqual(before);
  });

  it('refuses an inactive plan and a user or plan of another tenant', async () => {
    const rossi = await ctx.tenantId('Studio Rossi');
    const sa = await ctx.as('superadmin', rossi);
    const plan = await sa.post<{ id: number }>('/api/plan/Create', {
      name: 'Piano Rossi',
      recurringCostBeforeVAT: 10,
      vatPercentage: 22,
      recurrenceType: 1,
    });
    const inactive = await admin.post<{ id: number }>('/api/plan/Create', {
      name: 'Dismesso',
      recurringCostBeforeVAT: 5,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: false,
    });
    const rossiCustomer = await sa.post<{ id: number }>('/api/user/Create', {
      name: 'Cliente Rossi',
      email: 'solo.rossi@example.com',
      roleId: 3,
    });
    const before = await billingSnapshot();
    expect(
      (await admin.post('/api/subscription/Create', { userId: customer, planId: plan.body.data!.id })).status,
    ).toBe(404);
    expect(
      (await admin.post('/api/subscription/Create', { userId: rossiCustomer.body.data!.id, planId: basic }))
        .status,
    ).toBe(404);
    const res = await admin.post('/api/subscription/Create', {
      userId: customer,
      planId: inactive.body.data!.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['planId: Il piano scelto non è attivo.']);
    expect(await billingSnapshot()).toEqual(before);
  });
});

describe('the state machine', () => {
  it('refuses every move the table does not list, with 409 and nothing written', async () => {
    const notActive = await newSubscription();
    const pending = await pendingSubscription();
    const before = await billingSnapshot();
    const refused: [string, string][] = [
      ['put', `/api/subscription/setActiveNoRenewal/${notActive.id}`],
      ['delete', `/api/subscription/cancel/${notActive.id}`],
      ['put', `/api/subscription/setPaymentWithBankTransfer/${pending.id}`],
      ['delete', `/api/subscription/cancel/${pending.id}`],
    ];
    for (const [method, url] of refused) {
      const res = method === 'put' ? await admin.put(url) : await admin.delete(url);
      expect(res.status, url).toBe(409);
      expect(res.body.message).toMatch(/non consentita|non coprono|Si può cancellare/);
    }
    expect(await billingSnapshot()).toEqual(before);
  });

  it('an ActiveNoRenewal or Canceled subscription cannot go back', async () => {
    const sub = await pendingSubscription();
    const paymentId = sub.payments[0]!.id;
    await admin.post('/api/BankTransfer/create', {
      paymentId,
      amount: sub.amountDue,
      approvalDate: '2026-03-09T10:00',
    });
    expect((await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`)).status).toBe(200);
    const before = await billingSnapshot();
    expect((await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`)).status).toBe(409);
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(409);
    expect((await admin.delete(`/api/subscription/cancel/${sub.id}`)).status).toBe(409);
    // Transfers of a confirmed payment are history: not editable any more.
    expect(
      (await admin.post('/api/BankTransfer/create', { paymentId, amount: 0.01, approvalDate: null })).status,
    ).toBe(409);
    expect(await billingSnapshot()).toEqual(before);
  });

  it('cancel of an Active subscription without a provider subscription id is the contract’s 409', async () => {
    const sub = await newSubscription();
    await ctx.db.update(subscriptions).set({ status: 1 }).where(eq(subscriptions.id, sub.id));
    const res = await admin.delete(`/api/subscription/cancel/${sub.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('ID sottoscrizione del fornitore mancante');
  });
});

describe('bank transfers', () => {
  it('needs the tenant’s IBAN to switch to bank transfer, saying where to add it', async () => {
    const sub = await newSubscription();
    await giveIban(ctx, 'Demo Srl', null);
    const before = await billingSnapshot();
    const res = await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('Dati di fatturazione');
    expect((await admin.get(`/api/subscription/bankTransferInstructions/${sub.id}`)).status).toBe(409);
    expect(await billingSnapshot()).toEqual(before);
    await giveIban(ctx, 'Demo Srl', DEMO_IBAN);
  });

  it('shows the instructions: holder, IBAN, amount and a causale unique to the payment', async () => {
    const a = await newSubscription();
    const b = await newSubscription();
    const res = await admin.get<BankTransferInstructions>(
      `/api/subscription/bankTransferInstructions/${a.id}`,
    );
    expect(res.body.data).toEqual({
      beneficiary: 'Demo Srl (conto demo)',
      iban: DEMO_IBAN,
      amountDue: a.amountDue,
      currency: 'EUR',
      causale: a.payments[0]!.causale,
    });
    expect(a.payments[0]!.causale).not.toBe(b.payments[0]!.causale);
  });

  it('adds up transfers up to the amount due, never over; confirms only when approved ones cover it', async () => {
    const sub = await pendingSubscription(); // 12,08 €
    const paymentId = sub.payments[0]!.id;
    const first = await admin.post<BankTransfer>('/api/BankTransfer/create', {
      paymentId,
      amount: 10,
      approvalDate: '2026-03-10T08:00',
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Elemento salvato con successo!');
    const over = await admin.post('/api/BankTransfer/create', {
      paymentId,
      amount: 2.09,
      approvalDate: null,
    });
    expect(over.status).toBe(400);
    expect(over.body.errors?.[0]).toMatch(
      /^amount: Con questo bonifico il totale \(12,09\s€\) supererebbe l’importo dovuto \(12,08\s€\)\.$/,
    );
    // Under the amount due: not yet confirmable.
    const under = await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`);
    expect(under.status).toBe(409);
    expect(under.body.message).toMatch(
      /I bonifici approvati \(10,00\s€\) non coprono l’importo dovuto \(12,08\s€\)\./,
    );
    // A second transfer, recorded but not yet approved, does not cover it either.
    const second = await admin.post<BankTransfer>('/api/BankTransfer/create', {
      paymentId,
      amount: 2.08,
      approvalDate: null,
    });
    expect(second.status).toBe(200);
    const listed = await admin.get<Paged<BankTransfer>>('/api/BankTransfer/getAll', {
      query: { paymentId, page: 1, pageSize: 100 },
    });
    expect(listed.body.data?.items.map((t) => [t.amount, t.approvalDate])).toEqual([
      [10, '2026-03-10T07:00:00.000Z'],
      [2.08, null],
    ]);
    expect((await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`)).status).toBe(409);
    // Approving it (update) covers the amount due.
    const approved = await admin.put('/api/BankTransfer/update', {
      id: second.body.data!.id,
      paymentId,
      amount: 2.08,
      approvalDate: '2026-03-10T10:30',
    });
    expect(approved.status).toBe(400); // 10:30 Rome = 09:30Z, after the clock's 09:00Z: in the future
    expect(approved.body.errors).toEqual([
      'approvalDate: La data di approvazione non può essere nel futuro.',
    ]);
    clock.advanceDays(1);
    expect(
      (
        await admin.put('/api/BankTransfer/update', {
          id: second.body.data!.id,
          paymentId,
          amount: 2.08,
          approvalDate: '2026-03-10T10:30',
        })
      ).status,
    ).toBe(200);
    const got = await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`);
    expect(got.body.data?.allowedActions).toEqual(['manageBankTransfers', 'confirmActivation']);
    expect(got.body.data?.payments[0]).toMatchObject({ approvedAmount: 12.08, transferredAmount: 12.08 });
    const done = await admin.put<Subscription>(`/api/subscription/setActiveNoRenewal/${sub.id}`);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ subscriptionStatus: 3, allowedActions: [] });
    expect(done.body.data?.payments[0]?.paidAt).toBe('2026-03-10T09:30:00.000Z');
  });

  it('deletes a transfer while pending, and refuses bad bodies', async () => {
    const sub = await pendingSubscription();
    const paymentId = sub.payments[0]!.id;
    const t = await admin.post<BankTransfer>('/api/BankTransfer/create', {
      paymentId,
      amount: 1,
      approvalDate: null,
    });
    const removed = await admin.delete(`/api/BankTransfer/delete/${t.body.data!.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('Elemento eliminato!');
    const before = await billingSnapshot();
    for (const body of [
      { paymentId, amount: 0 },
      { paymentId, amount: -5 },
      { paymentId, amount: 1.001 },
      { paymentId },
      { amount: 5 },
      { paymentId, amount: 5, approvalDate: 'ieri' },
    ]) {
      const res = await admin.post('/api/BankTransfer/create', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors?.length).toBeGreaterThan(0);
    }
    expect((await admin.delete(`/api/BankTransfer/delete/${t.body.data!.id}`)).status).toBe(404);
    expect(await billingSnapshot()).toEqual(before);
  });
});

describe('Update', () => {
  it('changes plan and price while NotActive; the payment follows; customer and start date stay', async () => {
    const sub = await newSubscription();
    const res = await admin.put<Subscription>('/api/subscription/Update', {
      id: sub.id,
      userId: customer,
      startDate: sub.startDate,
      planId: pro,
      paymentAmount: 25,
      vatPercentage: 10,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      planID: pro,
      costBeforeVAT: 25,
      vatPercentage: 10,
      amountDue: 27.5,
    });
    expect(res.body.data?.payments[0]?.amountDue).toBe(27.5);
    const other = await userId(ctx, 'laura.verdi@example.com');
    const before = await billingSnapshot();
    const moved = await admin.put('/api/subscription/Update', { id: sub.id, userId: other });
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual(['userId: Il cliente non si può modificare dopo la creazione.']);
    const redated = await admin.put('/api/subscription/Update', {
      id: sub.id,
      startDate: '2020-01-01T00:00:00Z',
    });
    expect(redated.body.errors).toEqual([
      'startDate: La data di inizio non si può modificare dopo la creazione.',
    ]);
    expect(await billingSnapshot()).toEqual(before);
  });

  it('refuses price changes once the subscription is no longer NotActive', async () => {
    const sub = await pendingSubscription();
    const res = await admin.put('/api/subscription/Update', { id: sub.id, paymentAmount: 1 });
    expect(res.status).toBe(409);
  });
});

describe('lists', () => {
  it('filters by status, plan and customer, searches customer and plan, newest first', async () => {
    const laura = await userId(ctx, 'laura.verdi@example.com');
    const mine = await createSubscription(admin, { userId: laura, planId: pro });
    const all = await admin.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { pageSize: 100 },
    });
    const ids = all.body.data!.items.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.body.data!.totalCount).toBe(all.body.data!.items.length);
    const byStatus = await admin.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { pageSize: 100, 'filters[status]': 4 },
    });
    expect(byStatus.body.data!.items.every((s) => s.subscriptionStatus === 4)).toBe(true);
    expect(byStatus.body.data!.totalCount).toBe(
      all.body.data!.items.filter((s) => s.subscriptionStatus === 4).length,
    );
    const byUser = await admin.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { pageSize: 100, 'filters[userId]': laura },
    });
    expect(byUser.body.data!.items.map((s) => s.user.id)).toContain(laura);
    expect(byUser.body.data!.items.every((s) => s.user.id === laura)).toBe(true);
    const byPlan = await admin.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { pageSize: 100, 'filters[planId]': pro },
    });
    expect(byPlan.body.data!.items.every((s) => s.planID === pro)).toBe(true);
    const searched = await admin.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { pageSize: 100, searchTerm: 'VERDI' },
    });
    expect(searched.body.data!.items.map((s) => s.id)).toContain(mine.id);
    expect(searched.body.data!.items.every((s) => s.user.name?.includes('Verdi'))).toBe(true);
    const byPlanName = await admin.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { pageSize: 100, searchTerm: 'pro' },
    });
    expect(
      byPlanName.body.data!.items.every(
        (s) => s.plan.name === 'Pro' || /pro/i.test(s.user.name ?? '') || /pro/i.test(s.user.email),
      ),
    ).toBe(true);
    const page2 = await admin.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { page: 2, pageSize: 2 },
    });
    expect(page2.body.data!.items.map((s) => s.id)).toEqual(ids.slice(2, 4));
    const bads: Record<string, string | number>[] = [
      { 'filters[status]': 9 },
      { 'filters[colore]': 'rosso' },
      { 'filters[planId]': 'x' },
    ];
    for (const bad of bads) {
      expect((await admin.get('/api/subscription/getAll', { query: bad })).status).toBe(400);
    }
  });
});

describe('search', () => {
  it('follows a renamed customer and a renamed plan (the search column is kept by the database)', async () => {
    const laura = await userId(ctx, 'laura.verdi@example.com');
    const sub = await createSubscription(admin, { userId: laura, planId: pro });
    const found = async (term: string) =>
      (
        await admin.get<Paged<Subscription>>('/api/subscription/getAll', {
          query: { pageSize: 100, searchTerm: term },
        })
      ).body.data!.items.map((s) => s.id);
    expect(await found('laura verdi')).toContain(sub.id);
    expect(await found('LAURA.VERDI@EXAMPLE')).toContain(sub.id);
    const user = await admin.get<Record<string, unknown>>(`/api/user/GetById/${laura}`);
    expect(
      (
        await admin.put('/api/user/Update', {
          ...user.body.data,
          id: laura,
          name: 'Laura Verdi Bassi',
          roleId: 3,
        })
      ).status,
    ).toBe(200);
    expect(await found('bassi')).toContain(sub.id);
    const plan = await admin.get<Record<string, unknown>>(`/api/plan/GetById/${pro}`);
    expect(
      (await admin.put('/api/plan/Update', { ...plan.body.data, id: pro, name: 'Pro Plus' })).status,
    ).toBe(200);
    expect(await found('pro plus')).toContain(sub.id);
    expect(await found('100%_')).toEqual([]); // wildcards are searched literally
  });
});

describe('a User (role 3)', () => {
  it('lists and reads only their own subscriptions, without actions, and writes none', async () => {
    const me = await userId(ctx, 'cliente@demo.rinnova.it');
    const own = await createSubscription(admin, { userId: me, planId: basic });
    const other = await newSubscription();
    const list = await cliente.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { pageSize: 100 },
    });
    expect(list.status).toBe(200);
    expect(list.body.data!.items.map((s) => s.id)).toContain(own.id);
    expect(list.body.data!.items.every((s) => s.user.id === me && s.allowedActions.length === 0)).toBe(true);
    expect(list.body.data!.totalCount).toBe(list.body.data!.items.length);
    const filtered = await cliente.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { 'filters[userId]': customer },
    });
    expect(filtered.body.data!.totalCount).toBe(0);
    expect((await cliente.get(`/api/subscription/GetById/${own.id}`)).status).toBe(200);
    expect((await cliente.get(`/api/subscription/GetById/${other.id}`)).status).toBe(404);
    const before = await billingSnapshot();
    const writes = [
      cliente.post('/api/subscription/Create', { userId: me, planId: basic }),
      cliente.put('/api/subscription/Update', { id: own.id, paymentAmount: 1 }),
      cliente.put(`/api/subscription/setPaymentWithBankTransfer/${own.id}`),
      cliente.put(`/api/subscription/setActiveNoRenewal/${own.id}`),
      cliente.delete(`/api/subscription/cancel/${own.id}`),
      cliente.get(`/api/subscription/bankTransferInstructions/${own.id}`),
      cliente.get('/api/BankTransfer/getAll', { query: { paymentId: own.payments[0]!.id } }),
      cliente.post('/api/BankTransfer/create', { paymentId: own.payments[0]!.id, amount: 1 }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(403);
    expect(await billingSnapshot()).toEqual(before);
  });
});

describe('another tenant', () => {
  it('answers 404 on every billing call with an id of Demo Srl, and its lists never show them', async () => {
    const sub = await pendingSubscription();
    const paymentId = sub.payments[0]!.id;
    const t = await admin.post<BankTransfer>('/api/BankTransfer/create', {
      paymentId,
      amount: 1,
      approvalDate: null,
    });
    const transferId = t.body.data!.id;
    const rossi = await ctx.tenantId('Studio Rossi');
    await ctx.db.update(tenants).set({ iban: DEMO_IBAN }).where(eq(tenants.id, rossi));
    const before = await billingSnapshot();
    const outsider = await ctx.as('superadmin', rossi);
    const calls = [
      outsider.get(`/api/subscription/GetById/${sub.id}`),
      outsider.put('/api/subscription/Update', { id: sub.id, paymentAmount: 1 }),
      outsider.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`),
      outsider.put(`/api/subscription/setActiveNoRenewal/${sub.id}`),
      outsider.delete(`/api/subscription/cancel/${sub.id}`),
      outsider.get(`/api/subscription/bankTransferInstructions/${sub.id}`),
      outsider.get('/api/BankTransfer/getAll', { query: { paymentId } }),
      outsider.post('/api/BankTransfer/create', { paymentId, amount: 1 }),
      outsider.put('/api/BankTransfer/update', { id: transferId, paymentId, amount: 2 }),
      outsider.delete(`/api/BankTransfer/delete/${transferId}`),
    ];
    for (const res of await Promise.all(calls)) expect(res.status, res.raw).toBe(404);
    const list = await outsider.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { pageSize: 100 },
    });
    expect(list.body.data!.items.map((s) => s.id)).not.toContain(sub.id);
    const transfers = await outsider.get<Paged<BankTransfer>>('/api/BankTransfer/getAll', {
      query: { pageSize: 100 },
    });
    expect(transfers.body.data!.items.map((x) => x.id)).not.toContain(transferId);
    // Filters by another tenant's user or plan find nothing.
    const filtered = await outsider.get<Paged<Subscription>>('/api/subscription/getAll', {
      query: { 'filters[userId]': customer },
    });
    expect(filtered.body.data!.totalCount).toBe(0);
    expect(await billingSnapshot()).toEqual(before);
    // The same calls from Demo Srl still work.
    expect((await superadmin.get(`/api/subscription/GetById/${sub.id}`)).status).toBe(200);
    const [row] = await ctx.db
      .select({ n: count() })
      .from(bankTransfers)
      .where(and(eq(bankTransfers.id, transferId), eq(bankTransfers.paymentId, paymentId)));
    expect(row?.n).toBe(1);
  });
});
