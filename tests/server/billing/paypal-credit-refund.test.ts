/**
 * 'Cambia piano' now on a subscription PayPal charges (issue 30): PayPal cannot lower one charge,
 * so after commit the downgrade's residual credit is refunded on the subscription's last completed
 * sale (`POST /v1/payments/sale/{id}/refund`, PayPal-Request-Id keyed by tenant and change), with
 * the moved clock, the real server and database, the fake PayPal:
 * - one refund of exactly the residual credit; the ledger's balance 0; one TD04 only (the change's);
 *   the PAYMENT.SALE.REFUNDED webhook (and its replay) issues no credit note and moves no status;
 * - PayPal failing: the ledger unchanged, the outbox's retry refunds once (the outbox again: still
 *   once);
 * - a credit larger than what the sale still allows: the refund is capped, the rest stays, and is
 *   refunded on the next sale PayPal charges (keyed by change and sale: a replay refunds once);
 * - a sale partly refunded by hand at PayPal: PayPal refuses Rinnova's refund (422), nothing is
 *   recorded and the outbox does not retry it for ever; the credit is refunded on the next sale.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { Plan } from '../../../contract/schemas/plan';
import { invoices, outbox, payments, providerWebhookEvents, subscriptions } from '../../../server/db/schema';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { withoutDemoInvoices } from '../invoices/helpers';
import {
  addPlan,
  createSubscription,
  giveIban,
  movableClock,
  pointPayPalAt,
  subscriptionOf,
  userId,
  creditLedger,
} from './helpers';

const clock = movableClock('2026-10-05T09:00:00.000Z');
const WEBHOOK_ID = 'WH-CREDIT-REFUND';
let ctx: TestContext;
let admin: ApiClient;
let paypal: FakePayPal;
let demoId: number;
let company: number;
let base: Plan;
let pro: Plan;

type Result = PlanChangePreview & { planChangeId?: number };

beforeAll(async () => {
  paypal = await startFakePayPal();
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: WEBHOOK_ID });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  base = await addPlan(admin, 'Base rimborso', 29);
  pro = await addPlan(admin, 'Pro rimborso', 49);
  for (const p of [base, pro]) expect((await admin.post(`/api/plan/syncPaypal/${p.id}`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await paypal?.close();
});
beforeEach(() => paypal.clearFailures());

const getSub = (id: number) => subscriptionOf(admin, id);
const change = (id: number, body: Record<string, unknown>) =>
  admin.post<Result>(`/api/subscription/changePlan/${id}`, body);
const ledger = (subscriptionId: number) => creditLedger(ctx, subscriptionId);
const creditNotes = async () =>
  (await ctx.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.documentType, 'TD04'))).length;
const outboxSweep = () => ctx.app.jobs!.runJobNow('outbox-sweep', {});
const hook = async (event: Record<string, unknown>) => {
  const signed = paypal.signWebhook(event, WEBHOOK_ID);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/paypal/${demoId}`,
    headers: signed.headers,
    payload: signed.body,
  });
  expect(res.statusCode, res.body).toBe(200);
};
const planAtPayPal = async (id: number) =>
  (await admin.get<Plan & { paypalPlanId: string | null }>(`/api/plan/GetById/${id}`)).body.data!
    .paypalPlanId!;

/** A Pro subscription paid on the payment page through PayPal, its first sale recorded: Active. */
async function paidAtPayPal(start: string) {
  clock.set(start);
  const sub = await createSubscription(admin, { userId: company, planId: pro.id });
  const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
    paymentId: sub.payments[0]!.id,
  });
  expect(link.status, link.raw).toBe(200);
  const providerId = paypal.approve(await planAtPayPal(pro.id), undefined, 'ACTIVE', { at: clock.now() });
  const paid = await ctx.api.put('/api/Payment/updatePayment', {
    token: link.body.data!.token,
    providerSubscriptionId: providerId,
  });
  expect(paid.status, paid.raw).toBe(200);
  const sale = paypal.charges.find((c) => c.subscriptionId === providerId)!;
  expect(sale.amount).toBe('59.78');
  await hook(paypal.saleEvent(sale));
  const [first] = await ctx.db
    .select({ id: payments.id, saleId: payments.providerPaymentId })
    .from(payments)
    .where(eq(payments.subscriptionId, sub.id));
  expect(first!.saleId).toBe(sale.saleId);
  return { sub: await getSub(sub.id), providerId, sale, paymentId: first!.id };
}

const refundsOf = (saleId: string) => paypal.refunds.filter((r) => r.saleId === saleId);

describe('a downgrade now on a subscription PayPal charges', () => {
  it('refunds exactly the residual credit once; balance 0; one TD04; the webhook replayed does nothing more', async () => {
    const { sub, sale, paymentId } = await paidAtPayPal('2026-10-05T09:00:00.000Z');
    const notesBefore = await creditNotes();
    clock.set('2026-10-20T09:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const credit = made.body.data!.residualCredit;
    expect(credit).toBeGreaterThan(0);
    const cents = Math.round(credit * 100);
    await outboxSweep();

    expect(refundsOf(sale.saleId)).toHaveLength(1);
    const refund = refundsOf(sale.saleId)[0]!;
    expect(refund).toMatchObject({
      amount: (cents / 100).toFixed(2),
      requestId: `rinnova-credit-refund-${demoId}-${made.body.data!.planChangeId}`,
    });
    expect(
      (await ledger(sub.id)).map((r) => [r.amountCents, r.planChangeId, r.refundOfChangeId, r.providerRef]),
    ).toEqual([
      [cents, made.body.data!.planChangeId, null, null],
      [-cents, null, made.body.data!.planChangeId, refund.id],
    ]);
    expect((await ledger(sub.id))[1]!.refundedPaymentId).toBe(paymentId);
    const after = await getSub(sub.id);
    expect(after.creditBalance ?? 0).toBe(0);
    expect(await creditNotes()).toBe(notesBefore + 1);

    // PayPal's PAYMENT.SALE.REFUNDED of that refund, twice: no second credit note, no status move.
    const status = (await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id)))[0]!.status;
    const event = paypal.refundEvent(refund);
    await hook(event);
    await hook(event);
    await hook(paypal.refundEvent(refund));
    expect(await creditNotes()).toBe(notesBefore + 1);
    expect((await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id)))[0]!.status).toBe(
      status,
    );
    const recorded = await ctx.db
      .select({ outcome: providerWebhookEvents.outcome, detail: providerWebhookEvents.detail })
      .from(providerWebhookEvents)
      .where(eq(providerWebhookEvents.eventType, 'PAYMENT.SALE.REFUNDED'));
    expect(recorded.length).toBeGreaterThanOrEqual(2);
    for (const r of recorded.slice(-2)) {
      expect(r.outcome).toBe('unchanged');
      expect(r.detail).toContain(refund.id);
    }
    // The outbox again: nothing more refunded.
    await ctx.db
      .update(outbox)
      .set({ sentAt: null })
      .where(and(eq(outbox.kind, 'event'), sql`${outbox.payload}->>'consumer' = 'billing.residualCredit'`));
    await outboxSweep();
    expect(refundsOf(sale.saleId)).toHaveLength(1);
    expect(await ledger(sub.id)).toHaveLength(2);
  });

  it('PayPal failing: the ledger unchanged; the retry refunds once', async () => {
    const { sub, sale } = await paidAtPayPal('2026-11-02T09:00:00.000Z');
    clock.set('2026-11-16T09:00:00.000Z');
    paypal.failNext(`POST /v1/payments/sale/${sale.saleId}/refund`, 500, 50);
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const cents = Math.round(made.body.data!.residualCredit * 100);
    expect(cents).toBeGreaterThan(0);
    await outboxSweep();
    expect(refundsOf(sale.saleId)).toEqual([]);
    expect((await ledger(sub.id)).map((r) => r.amountCents)).toEqual([cents]);
    expect((await getSub(sub.id)).creditBalance).toBe(cents / 100);

    paypal.clearFailures();
    await outboxSweep();
    await outboxSweep();
    expect(refundsOf(sale.saleId)).toHaveLength(1);
    expect(refundsOf(sale.saleId)[0]!.amount).toBe((cents / 100).toFixed(2));
    expect((await ledger(sub.id)).map((r) => r.amountCents)).toEqual([cents, -cents]);
    expect((await getSub(sub.id)).creditBalance ?? 0).toBe(0);
  });

  it('a credit larger than what the last sale allows: the refund is capped, the rest stays on the ledger', async () => {
    const { sub, sale, paymentId, providerId } = await paidAtPayPal('2026-12-01T09:00:00.000Z');
    // A sale smaller than the credit (what PayPal took for the period, e.g. after a plan of
    // another recurrence): 5,00 € here.
    await ctx.db.update(payments).set({ amountDueCents: 500 }).where(eq(payments.id, paymentId));
    clock.set('2026-12-10T09:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const cents = Math.round(made.body.data!.residualCredit * 100);
    expect(cents).toBeGreaterThan(500);
    await outboxSweep();
    expect(refundsOf(sale.saleId).map((r) => r.amount)).toEqual(['5.00']);
    expect((await ledger(sub.id)).map((r) => r.amountCents)).toEqual([cents, -500]);
    expect((await getSub(sub.id)).creditBalance).toBe((cents - 500) / 100);
    // The outbox again: the sale allows nothing more; still one refund.
    await ctx.db
      .update(outbox)
      .set({ sentAt: null })
      .where(and(eq(outbox.kind, 'event'), sql`${outbox.payload}->>'consumer' = 'billing.residualCredit'`));
    await outboxSweep();
    expect(refundsOf(sale.saleId)).toHaveLength(1);

    // PayPal's next sale (1 January): the rest of the credit is refunded on it, once.
    clock.set('2027-01-01T09:00:00.000Z');
    const next = paypal.renew(providerId, clock.now());
    await hook(next.event);
    await outboxSweep();
    const renewal = await paymentOfSale(next.charge.saleId);
    const rest = cents - 500;
    expect(refundsOf(next.charge.saleId)).toEqual([
      expect.objectContaining({
        amount: (rest / 100).toFixed(2),
        requestId: `rinnova-credit-refund-${demoId}-${made.body.data!.planChangeId}-sale-${renewal}`,
      }),
    ]);
    expect(
      (await ledger(sub.id)).map((r) => [r.amountCents, r.refundOfChangeId, r.refundedPaymentId]),
    ).toEqual([
      [cents, null, null],
      [-500, made.body.data!.planChangeId, paymentId],
      [-rest, made.body.data!.planChangeId, renewal],
    ]);
    expect((await getSub(sub.id)).creditBalance ?? 0).toBe(0);
    // The sale's webhook again and the outbox again: nothing more refunded.
    await hook(next.event);
    await ctx.db
      .update(outbox)
      .set({ sentAt: null })
      .where(
        and(eq(outbox.kind, 'event'), sql`${outbox.payload}->>'consumer' = 'billing.residualCreditOnSale'`),
      );
    await outboxSweep();
    expect(refundsOf(next.charge.saleId)).toHaveLength(1);
    expect(await ledger(sub.id)).toHaveLength(3);
  });

  it('a sale partly refunded by hand at PayPal: PayPal refuses, nothing recorded, no endless retry; the next sale refunds the credit', async () => {
    const { sub, sale, providerId } = await paidAtPayPal('2027-02-01T09:00:00.000Z');
    // The seller refunds 50,00 € of the 59,78 € sale from PayPal's own site.
    const manual = await refundByHand(sale.saleId, '50.00');
    expect(manual.status).toBe(201);
    clock.set('2027-02-10T09:00:00.000Z');
    const made = await change(sub.id, { planId: base.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const cents = Math.round(made.body.data!.residualCredit * 100);
    expect(cents).toBeGreaterThan(978); // more than the 9,78 € the sale still allows
    await outboxSweep();
    await outboxSweep();
    expect(refundsOf(sale.saleId).map((r) => r.amount)).toEqual(['50.00']);
    expect((await ledger(sub.id)).map((r) => r.amountCents)).toEqual([cents]);
    const [consumer] = await ctx.db
      .select({ sentAt: outbox.sentAt, attempts: outbox.attempts })
      .from(outbox)
      .where(
        and(
          eq(outbox.kind, 'event'),
          sql`${outbox.payload}->>'consumer' = 'billing.residualCredit'`,
          sql`(${outbox.payload}->'payload'->>'planChangeId')::int = ${made.body.data!.planChangeId!}`,
        ),
      );
    expect(consumer, 'the refund is done with, not retried').toMatchObject({ sentAt: expect.any(Date) });
    expect((await getSub(sub.id)).creditBalance).toBe(cents / 100);

    // PayPal's next sale (1 March): the credit is refunded on it.
    clock.set('2027-03-01T09:00:00.000Z');
    const next = paypal.renew(providerId, clock.now());
    await hook(next.event);
    await outboxSweep();
    expect(refundsOf(next.charge.saleId).map((r) => r.amount)).toEqual([(cents / 100).toFixed(2)]);
    expect((await ledger(sub.id)).map((r) => r.amountCents)).toEqual([cents, -cents]);
    expect((await getSub(sub.id)).creditBalance ?? 0).toBe(0);
  });
});

/** Rinnova's payment of a sale PayPal charged. */
async function paymentOfSale(saleId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.providerPaymentId, saleId));
  expect(row, `the payment of sale ${saleId}`).toBeDefined();
  return row!.id;
}

/** A refund made at PayPal outside Rinnova (the seller on PayPal's site). */
async function refundByHand(saleId: string, total: string): Promise<Response> {
  return fetch(`${paypal.url}/v1/payments/sale/${saleId}/refund`, {
    method: 'POST',
    headers: { authorization: 'Bearer A21AA-by-hand', 'content-type': 'application/json' },
    body: JSON.stringify({ amount: { total, currency: 'EUR' } }),
  });
}
