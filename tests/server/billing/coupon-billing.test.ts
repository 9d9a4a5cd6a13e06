/**
 * `couponCode` on subscription quote and Create (issue 30), through the real server: the Italian
 * errors on the field, the discounted net to pay as the amount due, the redemption counted once
 * (and never beyond the maximum, however many Creates race), the invoice's ScontoMaggiorazione SC
 * line valid against the XSD, and the discount's life over the paid periods (once, repeating N).
 */
import { and, asc, eq, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../../contract/invoice/quote';
import { couponMessages as m } from '../../../contract/messages';
import type { Coupon } from '../../../contract/schemas/coupon';
import type { Invoice } from '../../../contract/schemas/invoice';
import type { Plan } from '../../../contract/schemas/plan';
import type { Subscription } from '../../../contract/schemas/subscription';
import { couponRedemptions, coupons, invoices, payments, subscriptions } from '../../../server/db/schema';
import { DEMO_COUPON_CODES } from '../../../server/db/seed/demo-lifecycle';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { create, dataOf } from '../helpers/entity-checks';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import {
  everyStoredInvoiceValidates,
  payByBankTransfer,
  tagText,
  withoutDemoInvoices,
} from '../invoices/helpers';
import { createSubscription, giveIban, movableClock, userId } from './helpers';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let company: number;
let me: number;
let pro: Plan;
let other: Plan;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  me = await userId(ctx, DEMO.cliente);
  pro = await create<Plan>(admin, 'plan', {
    name: 'Pro coupon',
    recurringCostBeforeVAT: 49,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  other = await create<Plan>(admin, 'plan', {
    name: 'Altro piano',
    recurringCostBeforeVAT: 20,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  await create(admin, 'coupon', { code: 'DIECI', percentOff: 10, duration: 'once', planIds: [pro.id] });
  await create(admin, 'coupon', {
    code: 'SCADUTO',
    percentOff: 10,
    duration: 'once',
    expiresAt: '2026-03-09',
  });
  await create(admin, 'coupon', { code: 'FINITO', amountOff: 5, duration: 'once', maxRedemptions: 1 });
  await ctx.db.update(coupons).set({ timesRedeemed: 1 }).where(eq(coupons.code, 'FINITO'));
});
afterAll(() => ctx.close());

const couponOf = async (code: string) =>
  dataOf(
    await admin.get<{ items: Coupon[] }>('/api/coupon/getAll', { query: { searchTerm: code } }),
  ).items.find((c) => c.code === code)!;

describe('POST api/subscription/quote with couponCode', () => {
  it('answers the discounted document: 49,00 − 10 % = 44,10 + IVA 9,70 = 53,80', async () => {
    const res = await admin.post<Quote>('/api/subscription/quote', {
      userId: company,
      planId: pro.id,
      couponCode: 'dieci',
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({
      lines: [
        {
          description: 'Pro coupon',
          quantity: 1,
          unitPrice: 49,
          vatPercentage: 22,
          natura: null,
          discount: 4.9,
        },
      ],
      taxable: 44.1,
      discount: 4.9,
      vat: 9.7,
      cassa: 0,
      bollo: 0,
      total: 53.8,
      withholding: 0,
      netToPay: 53.8,
      natura: null,
      legalReference: null,
    });
    // A quote redeems nothing.
    expect((await couponOf('DIECI')).timesRedeemed).toBe(0);
  });

  it('refuses an unknown, expired, exhausted or other-plan code with its Italian error on couponCode', async () => {
    const cases: [string, number, string][] = [
      ['NONESISTE', pro.id, m.invalid],
      ['SCADUTO', pro.id, m.expired],
      ['FINITO', pro.id, m.exhausted],
      ['DIECI', other.id, m.notForPlan],
    ];
    for (const [couponCode, planId, message] of cases) {
      for (const path of ['/api/subscription/quote', '/api/subscription/Create']) {
        const res = await admin.post(path, { userId: company, planId, couponCode });
        expect(res.status, `${path} ${couponCode}`).toBe(400);
        expect(res.body.errors).toEqual([`couponCode: ${message}`]);
      }
    }
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    const rossiPlan = await create<Plan>(rossi, 'plan', {
      name: 'Piano Rossi',
      recurringCostBeforeVAT: 10,
      vatPercentage: 22,
      recurrenceType: 1,
    });
    await create(rossi, 'coupon', { code: 'SOLOROSSI', percentOff: 50, duration: 'forever' });
    // Another tenant's code does not exist here.
    const foreign = await admin.post('/api/subscription/quote', {
      userId: company,
      planId: pro.id,
      couponCode: 'SOLOROSSI',
    });
    expect(foreign.body.errors).toEqual([`couponCode: ${m.invalid}`]);
    expect(rossiPlan.id).toBeGreaterThan(0);
    // None but the demo seed's own (demo-lifecycle.ts).
    expect(
      await ctx.db
        .select({ id: couponRedemptions.id })
        .from(couponRedemptions)
        .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
        .where(notInArray(coupons.code, [...DEMO_COUPON_CODES])),
    ).toEqual([]);
  });
});

describe('subscription Create with couponCode', () => {
  it('asks the discounted amount, redeems once, and the paid invoice carries the SC line (valid XSD)', async () => {
    const paid = await payByBankTransfer(
      admin,
      { userId: company, planId: pro.id, couponCode: 'DIECI' },
      '2026-03-09T15:00:00Z',
    );
    expect(paid.confirm.status, paid.confirm.raw).toBe(200);
    expect(paid.sub.amountDue).toBe(53.8);
    expect(paid.sub.payments[0]!.amountDue).toBe(53.8);
    expect((await couponOf('DIECI')).timesRedeemed).toBe(1);
    const [redemption] = await ctx.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.subscriptionId, paid.sub.id));
    expect(redemption).toMatchObject({ percentOffHundredths: 1000, amountOffCents: null, periodsLeft: 0 });

    const list = await admin.get<{ items: Invoice[] }>('/api/invoice/getAll', { query: { pageSize: 100 } });
    const invoice = list.body.data!.items.find((i) => i.paymentId === paid.sub.payments[0]!.id);
    expect(invoice).toMatchObject({ taxable: 44.1, vat: 9.7, total: 53.8, status: 'issued' });
    const xml = (await admin.get(`/api/invoice/xml/${invoice!.id}`)).raw;
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(tagText(xml, 'PrezzoUnitario')).toBe('49.00');
    expect(tagText(xml, 'Tipo')).toBe('SC');
    expect(tagText(xml, 'Percentuale')).toBe('10.00');
    expect(tagText(xml, 'PrezzoTotale')).toBe('44.10');
    expect(tagText(xml, 'ImportoPagamento')).toBe('53.80');
    // 'once': the next periods are asked in full again.
    const after = dataOf(await admin.get<Subscription>(`/api/subscription/GetById/${paid.sub.id}`));
    expect(after.amountDue).toBe(59.78);
  });

  it('never redeems beyond maxRedemptions, however many Creates race for the last use', async () => {
    await create(admin, 'coupon', { code: 'ULTIMO', amountOff: 5, duration: 'forever', maxRedemptions: 1 });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        admin.post<Subscription>('/api/subscription/Create', {
          userId: company,
          planId: other.id,
          couponCode: 'ULTIMO',
        }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([`couponCode: ${m.exhausted}`]);
    }
    // 20,00 − 5,00 = 15,00 + 22 % = 18,30.
    expect(ok[0]!.body.data!.amountDue).toBe(18.3);
    expect((await couponOf('ULTIMO')).timesRedeemed).toBe(1);
  });

  it('an amount coupon above the price makes the period free, never negative', async () => {
    await create(admin, 'coupon', { code: 'REGALO', amountOff: 100, duration: 'once' });
    const sub = await createSubscription(admin, { userId: company, planId: other.id, couponCode: 'REGALO' });
    expect(sub.amountDue).toBe(0);
    expect(sub.payments[0]!.amountDue).toBe(0);
    // Nothing to transfer: the period is confirmed as covered, and its invoice says 0,00.
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
    const confirmed = await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`);
    expect(confirmed.status, confirmed.raw).toBe(200);
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.paymentId, sub.payments[0]!.id));
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    expect(tagText(invoice!.xml, 'Importo')).toBe('20.00');
    expect(tagText(invoice!.xml, 'PrezzoTotale')).toBe('0.00');
    expect(tagText(invoice!.xml, 'ImportoTotaleDocumento')).toBe('0.00');
  });
});

describe('subscription Update while NotActive keeps the coupon', () => {
  it('a new price is discounted too; a plan outside the coupon’s plans is refused on planId', async () => {
    await create(admin, 'coupon', { code: 'SOLOPRO', percentOff: 10, duration: 'once', planIds: [pro.id] });
    const sub = await createSubscription(admin, { userId: company, planId: pro.id, couponCode: 'SOLOPRO' });
    expect(sub.amountDue).toBe(53.8);
    const cheaper = dataOf(
      await admin.put<Subscription>('/api/subscription/Update', {
        id: sub.id,
        planId: pro.id,
        paymentAmount: 40,
      }),
    );
    // 40,00 − 10 % = 36,00 + 22 % 7,92 = 43,92.
    expect(cheaper.amountDue).toBe(43.92);
    expect(cheaper.payments[0]!.amountDue).toBe(43.92);
    const moved = await admin.put('/api/subscription/Update', { id: sub.id, planId: other.id });
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual([`planId: ${m.notForPlan}`]);
  });
});

describe('the discount over the paid periods', () => {
  /** The customer switches the next period to bank transfer (its payment is made now); the Admin marks it paid. */
  async function payNextPeriod(subId: number) {
    const switched = await cliente.post(`/api/user/me/subscriptions/${subId}/paymentMethod`, {
      action: 'bankTransfer',
    });
    expect(switched.status, switched.raw).toBe(200);
    const rows = await ctx.db
      .select()
      .from(payments)
      .where(and(eq(payments.subscriptionId, subId)))
      .orderBy(asc(payments.id));
    const next = rows.at(-1)!;
    const paid = await admin.post(`/api/collection/markPaid/${next.id}`, {
      amount: next.amountDueCents / 100,
      approvalDate: clock.now().toISOString(),
    });
    expect(paid.status, paid.raw).toBe(200);
    return next;
  }
  const amountDueOf = async (subId: number) =>
    (await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subId)))[0]!.amountDueCents;

  it('repeating 2: the first two paid periods are discounted, the third is asked in full', async () => {
    await create(admin, 'coupon', {
      code: 'DUEMESI',
      percentOff: 50,
      duration: 'repeating',
      durationPeriods: 2,
    });
    const first = await payByBankTransfer(
      admin,
      { userId: me, planId: pro.id, couponCode: 'DUEMESI' },
      '2026-03-09T15:00:00Z',
    );
    expect(first.confirm.status, first.confirm.raw).toBe(200);
    // 49,00 × 50 % = 24,50 + 22 % 5,39 = 29,89.
    expect(first.sub.payments[0]!.amountDue).toBe(29.89);
    expect(await amountDueOf(first.sub.id)).toBe(2989);
    const second = await payNextPeriod(first.sub.id);
    expect(second.amountDueCents).toBe(2989);
    expect(second.couponRedemptionId).not.toBeNull();
    // Both discounted periods paid: the third is asked in full (49,00 + 10,78).
    expect(await amountDueOf(first.sub.id)).toBe(5978);
    const third = await payNextPeriod(first.sub.id);
    expect(third.amountDueCents).toBe(5978);
    expect(third.couponRedemptionId).toBeNull();
    const [redemption] = await ctx.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.subscriptionId, first.sub.id));
    expect(redemption!.periodsLeft).toBe(0);
    expect((await couponOf('DUEMESI')).timesRedeemed).toBe(1);
    // Each period's invoice: SC on the discounted ones only, the net to pay the amount asked.
    const byPayment = new Map(
      (await ctx.db.select().from(invoices)).map((i) => [i.paymentId, i.xml] as const),
    );
    const periods = [first.sub.payments[0]!.id, second.id, third.id].map((id) => byPayment.get(id) ?? null);
    expect(periods.map((xml) => xml && tagText(xml, 'Percentuale'))).toEqual(['50.00', '50.00', null]);
    expect(periods.map((xml) => xml && tagText(xml, 'ImportoPagamento'))).toEqual([
      '29.89',
      '29.89',
      '59.78',
    ]);
  });

  it('every invoice stored by these tests passes the XSD and the SdI arithmetic', async () => {
    expect(await everyStoredInvoiceValidates(ctx)).toBeGreaterThanOrEqual(4);
  });
});
