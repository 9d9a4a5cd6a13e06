/**
 * 'Addebito una tantum' collected 'Subito' (issue 30) with the moved clock:
 * - a bank-transfer subscription: the charge's payment asks the document's net to pay (the one
 *   computation at the subscription's VAT), unpaid and due today; 'Segna come pagato' pays it
 *   once, the charge is 'paid' and one TD01 carries its line (quantity, unit price, no period),
 *   valid against the XSD with the SdI arithmetic; the list answers it with its status;
 * - the rules: Italian field errors, a NotActive subscription 409, another tenant 404, a customer 403; a pending charge deleted (its
 *   payment gone), a paid one not;
 * - Stripe: charged after commit (one invoice of the amount asked, keyed by the payment); its
 *   invoice.paid delivered twice records the payment once and issues one invoice;
 * - a forfettario (Sofia Bellini Illustrazioni: RF19, rivalsa INPS, bollo): the charge's document
 *   is the tenant's regime — Natura N2.2, the cassa line, the bollo above 77,47 € — XSD-valid.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OneOffCharge } from '../../../contract/schemas/one-off-charge';
import type { Plan } from '../../../contract/schemas/plan';
import { invoices, payments } from '../../../server/db/schema';
import { fatturaErrors } from '../../../server/modules/invoice/fatturapa';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { create } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, tagText, withoutDemoInvoices } from '../invoices/helpers';
import { createSubscription, giveIban, movableClock, userId, pointStripeAt, subscriptionOf } from './helpers';

const clock = movableClock('2026-03-02T09:00:00.000Z');
const STRIPE_WHSEC = 'whsec_rinnova_oneoff_secret';
let ctx: TestContext;
let admin: ApiClient;
let stripe: FakeStripe;
let demoId: number;
let company: number;
let plan: Plan;

beforeAll(async () => {
  stripe = await startFakeStripe();
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: STRIPE_WHSEC });
  company = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  plan = await create<Plan>(admin, 'plan', {
    name: 'Mensile extra',
    recurringCostBeforeVAT: 30,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  expect((await admin.post(`/api/plan/syncStripe/${plan.id}`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

const getSub = (id: number) => subscriptionOf(admin, id);
const charge = (id: number, body: Record<string, unknown>) =>
  admin.post<OneOffCharge>(`/api/subscription/charges/${id}`, body);
const list = async (id: number) =>
  (await admin.get<OneOffCharge[]>(`/api/subscription/charges/${id}`)).body.data!;
const invoicesOf = (paymentId: number) =>
  ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), eq(invoices.documentType, 'TD01')));

describe('a coupon applied by the Admin while a one-off charge waits to be paid', () => {
  it('discounts the periods, never the charge’s own payment', async () => {
    clock.set('2026-05-04T09:00:00.000Z');
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: company, planId: plan.id },
      '2026-05-04T09:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    clock.set('2026-05-06T10:00:00.000Z');
    const made = await charge(sub.id, {
      description: 'Migrazione dati',
      quantity: 1,
      unitPrice: '80,00',
      collect: 'now',
    });
    expect(made.status, made.raw).toBe(200);
    const paymentId = made.body.data!.paymentId!;
    const code = `MENO10-${sub.id}`;
    const coupon = await admin.post('/api/coupon/Create', {
      code,
      percentOff: 10,
      duration: 'repeating',
      durationPeriods: 2,
      planIds: [plan.id],
    });
    expect(coupon.status, coupon.raw).toBe(200);
    const applied = await admin.post(`/api/subscription/applyCoupon/${sub.id}`, { couponCode: code });
    expect(applied.status, applied.raw).toBe(200);
    // The charge's payment still asks 80,00 + IVA 17,60, without the coupon.
    const [row] = await ctx.db
      .select({ amountDueCents: payments.amountDueCents, couponRedemptionId: payments.couponRedemptionId })
      .from(payments)
      .where(eq(payments.id, paymentId));
    expect(row).toEqual({ amountDueCents: 9760, couponRedemptionId: null });
    // The next period asks the discounted month: 27,00 + IVA 5,94 = 32,94.
    expect((await getSub(sub.id)).amountDue).toBe(32.94);
  });
});

describe('a one-off charge collected at once, paid by transfer', () => {
  it('asks the document’s net to pay, is invoiced once when paid with its own line, valid', async () => {
    clock.set('2026-03-02T09:00:00.000Z');
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: company, planId: plan.id },
      '2026-03-02T09:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    clock.set('2026-03-10T10:00:00.000Z');
    const made = await charge(sub.id, {
      description: 'Configurazione dominio',
      quantity: 2,
      unitPrice: '45,50',
      collect: 'now',
    });
    expect(made.status, made.raw).toBe(200);
    expect(made.body.message).toBe('Addebito una tantum creato.');
    // 2 × 45,50 = 91,00 + IVA 22 % 20,02 = 111,02.
    expect(made.body.data).toMatchObject({
      description: 'Configurazione dominio',
      quantity: 2,
      unitPrice: 45.5,
      collect: 'now',
      status: 'pending',
      amountDue: 111.02,
      paidAt: null,
    });
    const paymentId = made.body.data!.paymentId!;
    const after = await getSub(sub.id);
    expect(after.payments.find((p) => p.id === paymentId)).toMatchObject({
      amountDue: 111.02,
      paidAt: null,
      dueDate: '2026-03-10',
    });
    // The period's billing date does not move; the history says what was added.
    expect(after.nextBillingDate).toBe(sub.nextBillingDate);
    expect(after.history!.at(-1)).toMatchObject({ event: 'oneOffCharge' });
    expect(await invoicesOf(paymentId)).toEqual([]);

    const paid = await admin.post(`/api/collection/markPaid/${paymentId}`, {
      amount: 111.02,
      approvalDate: '2026-03-10T10:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const again = await admin.post(`/api/collection/markPaid/${paymentId}`, {
      amount: 111.02,
      approvalDate: '2026-03-10T10:00:00.000Z',
    });
    expect(again.status).toBe(409);
    const issued = await invoicesOf(paymentId);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ taxableCents: 9100, vatCents: 2002, totalCents: 11102 });
    const xml = issued[0]!.xml;
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(tagText(xml, 'Descrizione')).toBe('Configurazione dominio');
    expect(tagText(xml, 'Quantita')).toBe('2.00');
    expect(tagText(xml, 'PrezzoUnitario')).toBe('45.50');
    expect(tagText(xml, 'DataInizioPeriodo')).toBeNull();
    expect(tagText(xml, 'ImportoPagamento')).toBe('111.02');
    expect((await list(sub.id))[0]).toMatchObject({ status: 'paid', paidAt: '2026-03-10T10:00:00.000Z' });

    // A paid charge is not deleted.
    const del = await admin.delete(`/api/subscription/charges/${sub.id}/${made.body.data!.id}`);
    expect(del.status).toBe(409);
    expect(del.body.message).toBe('Si può eliminare solo un addebito ancora da incassare.');
  });

  it('refuses what is wrong, in Italian, and deletes a pending charge with its payment', async () => {
    clock.set('2026-04-01T09:00:00.000Z');
    const { sub } = await payByBankTransfer(
      admin,
      { userId: company, planId: plan.id },
      '2026-04-01T09:00:00.000Z',
    );
    const bad = await charge(sub.id, { description: ' ', quantity: 0, unitPrice: '1,234', collect: 'poi' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      'description: Scrivi una descrizione (da 1 a 200 caratteri)',
      'quantity: La quantità deve essere un numero intero da 1 a 10000',
      'unitPrice: Il prezzo unitario deve essere maggiore di zero, con al massimo due decimali',
      'collect: Scegli quando incassare l’addebito',
    ]);
    const notActive = await createSubscription(admin, { userId: company, planId: plan.id });
    expect(
      (await charge(notActive.id, { description: 'Extra', quantity: 1, unitPrice: 10, collect: 'now' }))
        .status,
    ).toBe(409);
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    expect(
      (
        await rossi.post(`/api/subscription/charges/${sub.id}`, {
          description: 'X',
          quantity: 1,
          unitPrice: 1,
          collect: 'now',
        })
      ).status,
    ).toBe(404);
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect((await cliente.get(`/api/subscription/charges/${sub.id}`)).status).toBe(403);

    const made = await charge(sub.id, {
      description: 'Formazione',
      quantity: 1,
      unitPrice: 80,
      collect: 'now',
    });
    expect(made.status, made.raw).toBe(200);
    const paymentId = made.body.data!.paymentId!;
    const del = await admin.delete(`/api/subscription/charges/${sub.id}/${made.body.data!.id}`);
    expect(del.status, del.raw).toBe(200);
    expect(await ctx.db.select().from(payments).where(eq(payments.id, paymentId))).toEqual([]);
    expect((await list(sub.id))[0]).toMatchObject({ status: 'deleted', paymentId: null });
    expect((await getSub(sub.id)).history!.at(-1)).toMatchObject({ event: 'oneOffChargeDeleted' });
  });
});

describe('Stripe', () => {
  it('charges the amount asked after commit; its invoice.paid twice records the payment and its invoice once', async () => {
    clock.set('2026-05-04T09:00:00.000Z');
    const sub = await createSubscription(admin, { userId: company, planId: plan.id });
    const link = await admin.post<{ token: string }>('/api/PaymentToken/create', {
      paymentId: sub.payments[0]!.id,
    });
    const res = await ctx.api.post<{ sessionId: string }>('/api/Payment/stripe/checkout', {
      token: link.body.data!.token,
    });
    expect(res.status, res.raw).toBe(200);
    const providerId = stripe.completeSession(res.body.data!.sessionId);
    const confirmed = await ctx.api.put('/api/Payment/stripe/confirm', {
      sessionId: res.body.data!.sessionId,
      tenantId: demoId,
    });
    expect(confirmed.status, confirmed.raw).toBe(200);

    clock.set('2026-05-12T09:00:00.000Z');
    const made = await charge(sub.id, {
      description: 'Migrazione dati',
      quantity: 1,
      unitPrice: 120,
      collect: 'now',
    });
    expect(made.status, made.raw).toBe(200);
    const paymentId = made.body.data!.paymentId!;
    expect(made.body.data!.amountDue).toBe(146.4);
    const charged = [...stripe.invoices.values()].filter(
      (i) => i.metadata.rinnovaPaymentId === String(paymentId),
    );
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({
      status: 'paid',
      amount_due: 14640,
      customer: stripe.subscriptions.get(providerId)!.customer,
    });
    const paidEvent = stripe.event('invoice.paid', {
      ...charged[0]!,
      status_transitions: { paid_at: Math.floor(Date.parse('2026-05-12T09:01:00.000Z') / 1000) },
    });
    for (let i = 0; i < 2; i++) {
      const signed = stripe.signWebhook(paidEvent, STRIPE_WHSEC);
      const delivered = await ctx.app.inject({
        method: 'POST',
        url: `/api/webhooks/stripe/${demoId}`,
        headers: signed.headers,
        payload: signed.body,
      });
      expect(delivered.statusCode, delivered.body).toBe(200);
    }
    const after = await getSub(sub.id);
    expect(after.payments.find((p) => p.id === paymentId)!.paidAt).toBe('2026-05-12T09:01:00.000Z');
    expect(after.nextBillingDate).toBe(sub.nextBillingDate);
    const issued = await invoicesOf(paymentId);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ taxableCents: 12000, totalCents: 14640 });
    expect(await fatturaErrors(issued[0]!.xml)).toEqual([]);
    expect((await list(sub.id))[0]).toMatchObject({ status: 'paid' });
  });
});

describe('a forfettario', () => {
  it('charges and invoices the one-off with the tenant’s regime: N2.2, rivalsa, bollo; XSD-valid', async () => {
    clock.set('2026-06-01T09:00:00.000Z');
    const tenant = 'Sofia Bellini Illustrazioni';
    const sa = await ctx.as('superadmin', tenant);
    await giveIban(ctx, tenant);
    const created = await sa.post<Plan>('/api/plan/Create', {
      name: 'Illustrazioni mensili',
      recurringCostBeforeVAT: 50,
      vatPercentage: 0,
      natura: 'N2.2',
      recurrenceType: 1,
      isActive: true,
    });
    expect(created.status, created.raw).toBe(200);
    const towns = await sa.get<{ options: { value: number; label: string }[] }>(
      '/api/municipality/getAllForSelect?searchTerm=Milano&pageSize=20',
    );
    const milano = towns.body.data!.options.find((m) => m.label.startsWith('Milano'))!;
    const person = await sa.post<{ id: number }>('/api/user/Create', {
      roleId: 3,
      isActive: true,
      isCompany: false,
      name: 'Giulia Verdi',
      email: 'giulia.verdi.oneoff@example.it',
      fiscalCode: 'RSSMRA80A01H501U',
      street: 'Via Torino 12',
      zip: '20123',
      municipality: milano.value,
    });
    expect(person.status, person.raw).toBe(200);
    const customer = { id: person.body.data!.id };
    const { sub, confirm } = await payByBankTransfer(
      sa,
      { userId: customer!.id, planId: created.body.data!.id },
      '2026-06-01T09:00:00.000Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    const made = await sa.post<OneOffCharge>(`/api/subscription/charges/${sub.id}`, {
      description: 'Illustrazione di copertina',
      quantity: 1,
      unitPrice: 300,
      collect: 'now',
    });
    expect(made.status, made.raw).toBe(200);
    // 300,00 + rivalsa INPS 4 % 12,00 = 312,00, no VAT, + bollo 2,00 = 314,00.
    expect(made.body.data!.amountDue).toBe(314);
    const paid = await sa.post(`/api/collection/markPaid/${made.body.data!.paymentId}`, {
      amount: 314,
      approvalDate: '2026-06-01T09:00:00.000Z',
    });
    expect(paid.status, paid.raw).toBe(200);
    const [invoice] = await invoicesOf(made.body.data!.paymentId!);
    expect(invoice, 'the charge is invoiced').toBeDefined();
    expect(await fatturaErrors(invoice!.xml)).toEqual([]);
    expect(tagText(invoice!.xml, 'RegimeFiscale')).toBe('RF19');
    expect(tagText(invoice!.xml, 'Natura')).toBe('N2.2');
    expect(invoice!.xml).toContain('<DatiCassaPrevidenziale>');
    expect(invoice!.xml).toContain('<BolloVirtuale>SI</BolloVirtuale>');
    expect(tagText(invoice!.xml, 'ImportoPagamento')).toBe('314.00');
  });
});
