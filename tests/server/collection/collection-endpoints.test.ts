/**
 * Issue 29, the Admin's collection calls: the ladder with its Italian field errors, 'Incassi in
 * sospeso' (buckets, filters, search, export), a payment's history, 'Sollecita ora', 'Segna come
 * pagato' (recovered, invoice once), another tenant's payment ids as 404, the dashboard's figures
 * and the subscription list's overdue filter.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LADDER, ladderMessages, type OverdueList } from '../../../contract/schemas/collection';
import type { Subscription } from '../../../contract/schemas/subscription';
import { invoiceIssues, invoices, payments } from '../../../server/db/schema';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { addDays } from '../../../server/modules/billing/collection.service';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { createSubscription, giveIban, movableClock, planId, userId } from '../billing/helpers';

const clock = movableClock('2026-05-04T08:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let other: ApiClient;
let demoId: number;
let sub: Subscription;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  other = await ctx.as('superadmin', 'Studio Rossi');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  sub = await createSubscription(admin, {
    userId: await userId(ctx, 'mario.rossi@example.com'),
    planId: await planId(ctx, 'Demo Srl', 'Basic'),
  });
  expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
  sub = (await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`)).body.data!;
  // Ten days after its due date, the job has made it overdue and sent the day-7 reminder.
  clock.set(`${addDays(sub.payments[0]!.dueDate, 10)}T08:00:00.000Z`);
  await ctx.app.jobs!.runJobNow(JOB_NAMES.dunning, { tenantId: demoId });
}, 60_000);
afterAll(async () => ctx?.close());

describe('the ladder (Solleciti)', () => {
  it('answers the defaults, refuses a bad ladder with Italian field errors, saves a good one', async () => {
    const first = await admin.get<typeof DEFAULT_LADDER>('/api/collection/settings');
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      ...DEFAULT_LADDER,
      emails: { steps: [null, null, null, null], final: null },
    });
    const bad = await admin.put('/api/collection/settings', { steps: [3, 1], graceDays: 30, finalDay: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        `steps: ${ladderMessages.stepsOrder}`,
        `graceDays: ${ladderMessages.graceRange}`,
        `finalDay: ${ladderMessages.finalAfterSteps}`,
      ]),
    );
    const empty = await admin.put('/api/collection/settings', { steps: [], graceDays: 1, finalDay: 2 });
    expect(empty.body.errors).toContain(`steps: ${ladderMessages.stepsRequired}`);
    const ok = await admin.put('/api/collection/settings', {
      steps: [0, 5, 10],
      graceDays: 10,
      finalDay: 30,
    });
    expect(ok.status, ok.raw).toBe(200);
    expect((await admin.get('/api/collection/settings')).body.data).toEqual({
      steps: [0, 5, 10],
      graceDays: 10,
      finalDay: 30,
      emails: { steps: [null, null, null], final: null },
    });
    // Another tenant still has the defaults.
    expect((await other.get('/api/collection/settings')).body.data).toMatchObject(DEFAULT_LADDER);
    const user = await ctx.as('cliente', 'Demo Srl');
    expect((await user.get('/api/collection/settings')).status).toBe(403);
  });
});

describe('Incassi in sospeso', () => {
  it('lists the overdue payment with its bucket, step and grace; filters, search and export', async () => {
    const payment = sub.payments[0]!;
    const list = await admin.get<OverdueList>('/api/collection/overdue', { query: { pageSize: 100 } });
    expect(list.status, list.raw).toBe(200);
    const row = list.body.data!.items.find((r) => r.paymentId === payment.id);
    expect(row).toMatchObject({
      subscriptionId: sub.id,
      amountDue: payment.amountDue,
      method: 'bankTransfer',
      dueDate: payment.dueDate,
      daysOverdue: 10,
      bucket: '8-30',
      step: 2,
    });
    expect(list.body.data!.total.count).toBeGreaterThanOrEqual(1);
    expect(list.body.data!.buckets.map((b) => b.key)).toEqual(['0-7', '8-30', '31-60', '60+']);
    const inBucket = await admin.get<OverdueList>('/api/collection/overdue', {
      query: { 'filters[bucket]': '0-7', pageSize: 100 },
    });
    expect(inBucket.body.data!.items.some((r) => r.paymentId === payment.id)).toBe(false);
    const searched = await admin.get<OverdueList>('/api/collection/overdue', {
      query: { searchTerm: 'mario', pageSize: 100 },
    });
    expect(searched.body.data!.items.some((r) => r.paymentId === payment.id)).toBe(true);
    // The subscription list's filter 'In ritardo'.
    const overdueSubs = await admin.get<{ items: { id: number }[] }>('/api/subscription/getAll', {
      query: { 'filters[overdue]': 'true', pageSize: 100 },
    });
    expect(overdueSubs.status, overdueSubs.raw).toBe(200);
    expect(overdueSubs.body.data!.items.map((s) => s.id)).toContain(sub.id);
    const notOverdue = await admin.get<{ items: { id: number }[] }>('/api/subscription/getAll', {
      query: { 'filters[overdue]': 'false', pageSize: 100 },
    });
    expect(notOverdue.body.data!.items.map((s) => s.id)).not.toContain(sub.id);
    expect(
      (await admin.get('/api/subscription/getAll', { query: { 'filters[overdue]': 'forse' } })).status,
    ).toBe(400);
    const badBucket = await admin.get('/api/collection/overdue', { query: { 'filters[bucket]': 'molti' } });
    expect(badBucket.status).toBe(400);
    // Studio Rossi does not see Demo Srl's payment.
    const theirs = await other.get<OverdueList>('/api/collection/overdue', { query: { pageSize: 100 } });
    expect(theirs.body.data!.items.some((r) => r.paymentId === payment.id)).toBe(false);
    const csv = await admin.get('/api/collection/overdue/export', { query: { format: 'csv' } });
    expect(csv.status, csv.raw).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    expect(csv.raw).toContain('Giorni di ritardo');
    expect(csv.raw).toContain(payment.dueDate);
    const xlsx = await admin.get('/api/collection/overdue/export', { query: { format: 'xlsx' } });
    expect(xlsx.status).toBe(200);
    expect(String(xlsx.headers['content-type'])).toContain('spreadsheetml');
  });
});

describe('Incassi in sospeso: the totals per age bucket', () => {
  it('count and sum each overdue payment in the bucket of its days overdue, at every bound', async () => {
    const payment = sub.payments[0]!;
    const today = addDays(payment.dueDate, 10);
    const totals = async () => {
      const list = await admin.get<OverdueList>('/api/collection/overdue', { query: { pageSize: 1 } });
      expect(list.status, list.raw).toBe(200);
      return list.body.data!;
    };
    const cents = (euros: number) => Math.round(euros * 100);
    // Days overdue → bucket, both sides of each bound; a due date not yet passed counts in the first.
    const cases: Array<[number, string]> = [
      [-2, '0-7'],
      [0, '0-7'],
      [7, '0-7'],
      [8, '8-30'],
      [30, '8-30'],
      [31, '31-60'],
      [60, '31-60'],
      [61, '60+'],
      [400, '60+'],
    ];
    try {
      for (const [days, key] of cases) {
        await ctx.db
          .update(payments)
          .set({ dueDate: addDays(today, -days) })
          .where(eq(payments.id, payment.id));
        const with_ = await totals();
        await ctx.db.update(payments).set({ paidAt: clock.now() }).where(eq(payments.id, payment.id));
        const without = await totals();
        await ctx.db.update(payments).set({ paidAt: null }).where(eq(payments.id, payment.id));
        for (const b of with_.buckets) {
          const other = without.buckets.find((x) => x.key === b.key)!;
          const mine = b.key === key ? 1 : 0;
          expect([days, b.key, b.count - other.count]).toEqual([days, b.key, mine]);
          expect([days, b.key, cents(b.amount) - cents(other.amount)]).toEqual([
            days,
            b.key,
            mine * cents(payment.amountDue),
          ]);
        }
        expect(with_.total.count).toBe(with_.buckets.reduce((n, b) => n + b.count, 0));
        expect(with_.total.count - without.total.count).toBe(1);
        expect(cents(with_.total.amount) - cents(without.total.amount)).toBe(cents(payment.amountDue));
      }
    } finally {
      await ctx.db.update(payments).set({ dueDate: payment.dueDate }).where(eq(payments.id, payment.id));
    }
  });
});

describe('one payment', () => {
  it('shows its history, reminds now, is marked paid (recovered, invoiced once); another tenant gets 404', async () => {
    const payment = sub.payments[0]!;
    for (const [method, url] of [
      ['get', `/api/collection/payment/${payment.id}`],
      ['post', `/api/collection/remind/${payment.id}`],
      ['post', `/api/collection/markPaid/${payment.id}`],
    ] as const) {
      const res =
        method === 'get'
          ? await other.get(url)
          : await other.post(url, { amount: payment.amountDue, approvalDate: '2026-05-01' });
      expect(res.status, url).toBe(404);
    }
    const history = await admin.get<{
      collectionStatus: string;
      events: { kind: string; step: number | null }[];
    }>(`/api/collection/payment/${payment.id}`);
    expect(history.body.data).toMatchObject({ collectionStatus: 'overdue', dueDate: payment.dueDate });
    expect(history.body.data!.events.map((e) => [e.kind, e.step])).toEqual([
      ['due', null],
      ['reminder', 2],
    ]);

    const mailsBefore = (await ctx.outbox()).length;
    const reminded = await admin.post<{ events: { kind: string; actor: { kind: string } }[] }>(
      `/api/collection/remind/${payment.id}`,
    );
    expect(reminded.status, reminded.raw).toBe(200);
    expect(reminded.body.message).toBe('Sollecito inviato.');
    expect(reminded.body.data!.events.at(-1)).toMatchObject({ kind: 'reminder', actor: { kind: 'user' } });
    const mails = await ctx.outbox();
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)!.text).toContain(payment.causale);

    const invalid = await admin.post(`/api/collection/markPaid/${payment.id}`, {
      amount: -1,
      approvalDate: '',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual(
      expect.arrayContaining(['amount: Importo non valido', 'approvalDate: Data obbligatoria']),
    );
    const paid = await admin.post<{ collectionStatus: string; events: { kind: string }[] }>(
      `/api/collection/markPaid/${payment.id}`,
      { amount: payment.amountDue, approvalDate: clock.now().toISOString(), note: 'Bonifico visto in banca' },
    );
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body.data!.collectionStatus).toBe('recovered');
    expect(paid.body.data!.events.map((e) => e.kind).slice(-2)).toEqual(['markedPaid', 'recovered']);
    const after = (await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`)).body.data!;
    expect(after.subscriptionStatus).toBe(3);
    expect(after.payments[0]!.paidAt).not.toBeNull();
    const issued = await ctx.db.select().from(invoices).where(eq(invoices.paymentId, payment.id));
    const blocked = await ctx.db.select().from(invoiceIssues).where(eq(invoiceIssues.paymentId, payment.id));
    expect(issued.length + blocked.length).toBe(1);

    const again = await admin.post(`/api/collection/markPaid/${payment.id}`, {
      amount: payment.amountDue,
      approvalDate: clock.now().toISOString(),
    });
    expect(again.status).toBe(409);
    expect((await admin.post(`/api/collection/remind/${payment.id}`)).status).toBe(409);
    const summary = await admin.get<{ collection: { recoveredThisMonth: { count: number } } }>(
      '/api/dashboard/summary',
    );
    expect(summary.status).toBe(200);
    expect(summary.body.data!.collection.recoveredThisMonth.count).toBeGreaterThanOrEqual(1);
  });
});
