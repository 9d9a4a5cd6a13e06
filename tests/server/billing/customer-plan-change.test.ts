/**
 * The customer's own 'Cambia piano' (issue 30): `GET api/user/me/subscriptions/{id}/changePlan`
 * (allowed, the plans offered) and `POST …/changePlan {planId, when, preview}` (the Admin's
 * computation), with the moved clock:
 * - the tenant's setting `customerPlanChange` (off by default, the Admin's tenant Update): off →
 *   the list says allowed: false and the change is a 403 in Italian, nothing written;
 * - allowed: the plans offered are the tenant's active ones of the same recurrence, not the
 *   current one; a preview writes nothing; made (bank transfer, upgrade now) → the same effects as
 *   the Admin's (plan and amount, partial TD04, proration payment due today) with the customer as
 *   the history's actor;
 * - another customer's subscription → 404 (list and change), nothing written.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import { changePlanMessages } from '../../../contract/proration';
import type { Plan } from '../../../contract/schemas/plan';
import type { Subscription } from '../../../contract/schemas/subscription';
import {
  invoices,
  payments,
  planChanges,
  subscriptionEvents,
  subscriptions,
} from '../../../server/db/schema';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import { giveIban, movableClock, userId, addPlan } from './helpers';

const clock = movableClock('2026-03-01T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let demoId: number;
let me: number;
let other: number;
let base: Plan;
let pro: Plan;
let inactive: Plan;
let yearly: Plan;

type Result = PlanChangePreview & {
  status?: 'applied' | 'scheduled';
  planChangeId?: number;
  prorationPaymentId?: number | null;
  creditNote?: { id: number; number: string } | null;
};
type Options = {
  allowed: boolean;
  plans: { id: number; name: string; recurringCostBeforeVAT: number; price: number }[];
};

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  me = await userId(ctx, DEMO.cliente);
  other = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  await giveIban(ctx, 'Demo Srl');
  const plan = (name: string, cost: number, recurrenceType = 1, isActive = true) =>
    addPlan(admin, name, cost, recurrenceType, isActive);
  base = await plan('Base cliente', 29);
  pro = await plan('Pro cliente', 49);
  inactive = await plan('Vecchio cliente', 39, 1, false);
  yearly = await plan('Annuale cliente', 290, 12);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

async function allow(value: boolean) {
  const tenant = (await admin.get<Record<string, unknown>>(`/api/tenant/GetById/${demoId}`)).body.data!;
  const res = await admin.put('/api/tenant/Update', { ...tenant, customerPlanChange: value });
  expect(res.status, res.raw).toBe(200);
  const after = (await admin.get<{ customerPlanChange: boolean }>(`/api/tenant/GetById/${demoId}`)).body
    .data!;
  expect(after.customerPlanChange).toBe(value);
}

/** A Base subscription of `customer`, its first month paid by bank transfer on `start`. */
async function paidByTransfer(customer: number, start: string) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: customer, planId: base.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  return (await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`)).body.data!;
}

async function snapshot(subscriptionId: number) {
  return {
    subscription: await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)),
    payments: await ctx.db
      .select()
      .from(payments)
      .where(eq(payments.subscriptionId, subscriptionId))
      .orderBy(asc(payments.id)),
    events: await ctx.db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, subscriptionId))
      .orderBy(asc(subscriptionEvents.id)),
    changes: await ctx.db.select().from(planChanges).where(eq(planChanges.subscriptionId, subscriptionId)),
    invoices: await ctx.db.select({ id: invoices.id }).from(invoices).orderBy(asc(invoices.id)),
  };
}

const path = (id: number) => `/api/user/me/subscriptions/${id}/changePlan`;

describe("the customer's own 'Cambia piano'", () => {
  it('is off by default: allowed false, and a change (even a preview) is a 403 in Italian that writes nothing', async () => {
    const tenant = (await admin.get<{ customerPlanChange: boolean }>(`/api/tenant/GetById/${demoId}`)).body
      .data!;
    expect(tenant.customerPlanChange).toBe(false);
    const sub = await paidByTransfer(me, '2026-03-01T09:00:00.000Z');
    clock.set('2026-03-20T14:00:00.000Z');
    const options = await cliente.get<Options>(path(sub.id));
    expect(options.status, options.raw).toBe(200);
    expect(options.body.data).toEqual({ allowed: false, plans: [] });
    const before = await snapshot(sub.id);
    for (const preview of [true, false]) {
      const res = await cliente.post<Result>(path(sub.id), { planId: pro.id, when: 'now', preview });
      expect(res.status, res.raw).toBe(403);
      expect(res.body.message).toBe(changePlanMessages.customerNotAllowed);
    }
    expect(await snapshot(sub.id)).toEqual(before);
    // The Admin's door is not the customer's.
    expect((await cliente.post(`/api/subscription/changePlan/${sub.id}`, { planId: pro.id })).status).toBe(
      403,
    );
  });

  it("allowed: offers the active plans of any recurrence; a preview writes nothing; made → the Admin's effects, the customer as actor", async () => {
    await allow(true);
    const sub = await paidByTransfer(me, '2026-04-01T09:00:00.000Z');
    clock.set('2026-04-16T10:00:00.000Z');

    const options = await cliente.get<Options>(path(sub.id));
    expect(options.status, options.raw).toBe(200);
    expect(options.body.data!.allowed).toBe(true);
    const offered = options.body.data!.plans.map((p) => p.id);
    expect(offered).toContain(pro.id);
    expect(offered).not.toContain(base.id);
    expect(offered).not.toContain(inactive.id);
    // Another recurrence too: a change between recurrences starts a new period.
    expect(offered).toContain(yearly.id);
    // Pro's period for this customer: 49 € + 22 % VAT.
    expect(options.body.data!.plans.find((p) => p.id === pro.id)).toMatchObject({
      name: 'Pro cliente',
      recurringCostBeforeVAT: 49,
      price: 59.78,
    });

    const before = await snapshot(sub.id);
    const preview = await cliente.post<Result>(path(sub.id), { planId: pro.id, when: 'now', preview: true });
    expect(preview.status, preview.raw).toBe(200);
    expect(preview.body.data).toMatchObject({
      effective: 'now',
      effectiveDay: '2026-04-16',
      fromPlan: { id: base.id },
      toPlan: { id: pro.id },
    });
    expect(preview.body.data!.status).toBeUndefined();
    expect(preview.body.data!.netToPay).toBeGreaterThan(0);
    expect(await snapshot(sub.id)).toEqual(before);
    // The Admin's preview of the same change: the same one computation.
    const adminPreview = await admin.post<Result>(`/api/subscription/changePlan/${sub.id}`, {
      planId: pro.id,
      when: 'now',
      preview: true,
    });
    expect(adminPreview.body.data).toEqual(preview.body.data);

    // The same rules as the Admin's: an inactive plan is a field error; another recurrence is
    // previewed as a new period from today (the billing date moves).
    const refused = await cliente.post(path(sub.id), { planId: inactive.id, when: 'now' });
    expect(refused.status, refused.raw).toBe(400);
    const yearlyPreview = await cliente.post<Result>(path(sub.id), {
      planId: yearly.id,
      when: 'now',
      preview: true,
    });
    expect(yearlyPreview.status, yearlyPreview.raw).toBe(200);
    expect(yearlyPreview.body.data).toMatchObject({ recurrenceChanges: true, nextBillingDate: '2027-04-16' });

    const made = await cliente.post<Result>(path(sub.id), { planId: pro.id, when: 'now' });
    expect(made.status, made.raw).toBe(200);
    const data = made.body.data!;
    expect(data).toMatchObject({ status: 'applied', netToPay: preview.body.data!.netToPay });
    expect(data.creditNote?.number).toBeTruthy();
    expect(data.prorationPaymentId).not.toBeNull();

    const [row] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row!.planId).toBe(pro.id);
    const [proration] = await ctx.db.select().from(payments).where(eq(payments.id, data.prorationPaymentId!));
    expect(proration).toMatchObject({ paidAt: null, method: 'bankTransfer' });
    const [creditNote] = await ctx.db
      .select({ type: invoices.documentType })
      .from(invoices)
      .where(eq(invoices.id, data.creditNote!.id));
    expect(creditNote!.type).toBe('TD04');
    const [history] = await ctx.db
      .select()
      .from(subscriptionEvents)
      .where(and(eq(subscriptionEvents.subscriptionId, sub.id), eq(subscriptionEvents.event, 'changePlan')));
    expect(history).toMatchObject({ actorKind: 'user', actorId: String(me) });

    // 'Da pagare ora': the proration is due now, by bank transfer, for the amount asked.
    const pay = await cliente.post<{ method: string; paymentId: number; netToPay: number; causale: string }>(
      `/api/user/me/subscriptions/${sub.id}/pay`,
      {},
    );
    expect(pay.status, pay.raw).toBe(200);
    expect(pay.body.data).toMatchObject({
      method: 'bankTransfer',
      paymentId: data.prorationPaymentId,
      netToPay: data.netToPay,
    });

    // The customer sees the change on their own subscription.
    const mine = await cliente.get<Subscription>(`/api/subscription/GetById/${sub.id}`);
    expect(mine.body.data!.plan.id).toBe(pro.id);
    expect(mine.body.data!.payments.some((p) => p.id === data.prorationPaymentId && p.paidAt === null)).toBe(
      true,
    );
  });

  it("another customer's subscription is a 404 (options, preview, change) and nothing is written", async () => {
    await allow(true);
    const sub = await paidByTransfer(other, '2026-05-01T09:00:00.000Z');
    clock.set('2026-05-10T10:00:00.000Z');
    const before = await snapshot(sub.id);
    expect((await cliente.get(path(sub.id))).status).toBe(404);
    for (const preview of [true, false])
      expect((await cliente.post(path(sub.id), { planId: pro.id, when: 'now', preview })).status).toBe(404);
    expect((await cliente.get(path(2_000_000))).status).toBe(404);
    expect(await snapshot(sub.id)).toEqual(before);
  });

  it('a staff member has no door here (403)', async () => {
    const sub = await paidByTransfer(me, '2026-06-01T09:00:00.000Z');
    expect((await admin.get(path(sub.id))).status).toBe(403);
    expect((await admin.post(path(sub.id), { planId: pro.id, preview: true })).status).toBe(403);
  });
});
