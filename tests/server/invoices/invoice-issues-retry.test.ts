/**
 * Payments waiting for an invoice, by customer (issue 27): `GET api/invoice/issues` groups them
 * with the missing fields as the user form's keys; saving the customer's data (user Update) or the
 * tenant's billing profile retries them at once in the same call, with consecutive numbers; a save
 * that still leaves data missing keeps them waiting and succeeds.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceMessages } from '../../../contract/messages';
import type { InvoiceIssues } from '../../../contract/schemas/invoice';
import type { User } from '../../../contract/schemas/user';
import { invoiceCounters, invoices, tenants } from '../../../server/db/schema';
import { placeOf } from '../helpers/entity-checks';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { giveIban, movableClock, planId, userId } from '../billing/helpers';
import { everyStoredInvoiceValidates, payByBankTransfer, setCustomer } from './helpers';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let basic: number;
let demoId: number;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  demoId = await ctx.tenantId('Demo Srl');
});
afterAll(async () => {
  expect(await everyStoredInvoiceValidates(ctx)).toBeGreaterThan(0);
  await ctx.close();
});

async function issues(): Promise<InvoiceIssues> {
  const res = await admin.get<InvoiceIssues>('/api/invoice/issues');
  expect(res.status, res.raw).toBe(200);
  return res.body.data!;
}
async function lastNumber(): Promise<number> {
  const [row] = await ctx.db
    .select({ n: invoiceCounters.lastNumber })
    .from(invoiceCounters)
    .where(and(eq(invoiceCounters.tenantId, demoId), eq(invoiceCounters.year, 2026)));
  return row?.n ?? 0;
}
async function invoicesOf(paymentIds: number[]) {
  return ctx.db
    .select({ paymentId: invoices.paymentId, number: invoices.number, documentType: invoices.documentType })
    .from(invoices)
    .where(and(eq(invoices.tenantId, demoId), inArray(invoices.paymentId, paymentIds)))
    .orderBy(invoices.number);
}
/** Two paid payments of one customer (Basic, 12,08 € each), both waiting. */
async function twoPaidPayments(customer: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < 2; i++) {
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: customer, planId: basic },
      '2026-03-09T15:00:00Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    ids.push(sub.payments[0]!.id);
  }
  return ids;
}
/** The user form's body for Update: what GetById answers, the address flat. */
async function userBody(id: number, changes: Record<string, unknown>) {
  const { billingAddress, ...user } = (await admin.get<User>(`/api/user/GetById/${id}`)).body.data!;
  return {
    ...user,
    street: billingAddress?.street ?? null,
    zip: billingAddress?.zip ?? null,
    region: billingAddress?.regionId ?? null,
    province: billingAddress?.provinceId ?? null,
    municipality: billingAddress?.municipalityId ?? null,
    ...changes,
  };
}

describe('a customer without codice fiscale and address, with two paid payments', () => {
  let anna: number;
  let paymentIds: number[];

  beforeAll(async () => {
    const created = await admin.post<User>('/api/user/Create', {
      name: 'Anna Neri',
      email: 'anna.neri@example.it',
      roleId: 3,
      isCompany: false,
    });
    expect(created.status, created.raw).toBe(200);
    anna = created.body.data!.id;
    paymentIds = await twoPaidPayments(anna);
  });

  it('GET issues groups the payments under the customer, naming the missing fields once by the form’s keys', async () => {
    const data = await issues();
    const group = data.customers.find((c) => c.customer.id === anna);
    expect(group).toEqual({
      customer: { id: anna, name: 'Anna Neri' },
      paymentIds,
      count: 2,
      total: 24.16,
      missing: [
        { key: 'fiscalCode', label: 'codice fiscale' },
        { key: 'street', label: 'indirizzo' },
        { key: 'zip', label: 'CAP' },
        { key: 'municipality', label: 'comune' },
      ],
      reasons: [],
    });
    expect(invoiceMessages.missingFields(group!.missing.map((m) => m.label))).toBe(
      'Mancano: codice fiscale, indirizzo, CAP, comune',
    );
    expect(data.seller).toEqual({ tenantId: demoId, missing: [] });
    // The per-payment items as before (other clients read them), with the amount.
    const item = data.items.find((i) => i.paymentId === paymentIds[0]);
    expect(item).toMatchObject({ customer: { id: anna, name: 'Anna Neri' }, amount: 12.08, reasons: [] });
    expect(item?.messages).toEqual(
      [
        invoiceMessages.buyerIdentity,
        invoiceMessages.buyerStreet,
        invoiceMessages.buyerZip,
        invoiceMessages.buyerMunicipality,
      ].map(invoiceMessages.missing),
    );
  });

  it('a save that still leaves data missing succeeds, and the payments keep waiting with the updated reasons', async () => {
    const before = await lastNumber();
    const res = await admin.put('/api/user/Update', await userBody(anna, { fiscalCode: 'nrenna80a41h501t' }));
    expect(res.status, res.raw).toBe(200);
    expect(await lastNumber()).toBe(before);
    expect(await invoicesOf(paymentIds)).toEqual([]);
    const data = await issues();
    expect(data.customers.find((c) => c.customer.id === anna)?.missing.map((m) => m.key)).toEqual([
      'street',
      'zip',
      'municipality',
    ]);
    // Retried by the save: the stored messages no longer name the codice fiscale.
    expect(data.items.find((i) => i.paymentId === paymentIds[1])?.messages).toEqual(
      [invoiceMessages.buyerStreet, invoiceMessages.buyerZip, invoiceMessages.buyerMunicipality].map(
        invoiceMessages.missing,
      ),
    );
  });

  it('saving the missing data issues both invoices in the same call, with consecutive numbers, and empties the issues', async () => {
    const before = await lastNumber();
    const roma = await placeOf(ctx.db, 'Roma', 'RM');
    const res = await admin.put(
      '/api/user/Update',
      await userBody(anna, {
        street: 'Via Appia 10',
        zip: '00183',
        region: roma.regionId,
        province: roma.provinceId,
        municipality: roma.municipalityId,
      }),
    );
    expect(res.status, res.raw).toBe(200);
    expect(await invoicesOf(paymentIds)).toEqual([
      { paymentId: paymentIds[0], number: before + 1, documentType: 'TD01' },
      { paymentId: paymentIds[1], number: before + 2, documentType: 'TD01' },
    ]);
    expect(await lastNumber()).toBe(before + 2);
    const data = await issues();
    expect(data.customers.some((c) => c.customer.id === anna)).toBe(false);
    expect(data.items.some((i) => paymentIds.includes(i.paymentId))).toBe(false);

    // Saved again: nothing waits, nothing is issued twice, no number is taken.
    const again = await admin.put('/api/user/Update', await userBody(anna, { phone: '+39 06 1234567' }));
    expect(again.status, again.raw).toBe(200);
    expect(await invoicesOf(paymentIds)).toHaveLength(2);
    expect(await lastNumber()).toBe(before + 2);
  });
});

describe('Riprova for a customer: POST api/invoice/retryCustomer/{userId}', () => {
  let mario: number;
  let paymentIds: number[];

  beforeAll(async () => {
    mario = await userId(ctx, 'mario.rossi@example.com');
    await setCustomer(ctx, 'Demo Srl', mario, { fiscalCode: null, vatCode: null });
    paymentIds = await twoPaidPayments(mario);
  });

  it('still missing: 409 with the reasons, each once; nothing issued', async () => {
    const before = await lastNumber();
    const res = await admin.post(`/api/invoice/retryCustomer/${mario}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(invoiceMessages.stillBlockedMany);
    expect(res.body.errors).toContain(invoiceMessages.missing(invoiceMessages.buyerIdentity));
    expect(new Set(res.body.errors).size).toBe(res.body.errors?.length);
    expect(await lastNumber()).toBe(before);
  });

  it('another tenant reaches none of them, and a hostile id is a 400 with the envelope', async () => {
    await setCustomer(ctx, 'Demo Srl', mario, { fiscalCode: 'RSSMRA80A01H501U' });
    try {
      const rossi = await ctx.as('superadmin', 'Studio Rossi');
      const before = await lastNumber();
      const res = await rossi.post(`/api/invoice/retryCustomer/${mario}`);
      expect(res.status === 200 || res.status === 404, res.raw).toBe(true);
      expect(res.body.data ?? null).not.toMatchObject({ issued: [{}] });
      expect(await lastNumber()).toBe(before);
      expect((await issues()).customers.map((c) => c.customer.id)).toContain(mario);
      for (const id of ['99999999999999999999', '-1', 'abc', '1%00']) {
        const bad = await admin.post(`/api/invoice/retryCustomer/${id}`);
        expect(bad.status, id).toBe(400);
        expect(bad.body.success, id).toBe(false);
      }
      expect(await lastNumber()).toBe(before);
    } finally {
      await setCustomer(ctx, 'Demo Srl', mario, { fiscalCode: null });
    }
  });

  it('completed: issues all of them, oldest first, and says so', async () => {
    const before = await lastNumber();
    await setCustomer(ctx, 'Demo Srl', mario, { fiscalCode: 'RSSMRA80A01H501U' });
    const res = await admin.post<{ issued: { paymentId: number; number: string }[]; waiting: number }>(
      `/api/invoice/retryCustomer/${mario}`,
    );
    expect(res.status, res.raw).toBe(200);
    const numbers = [before + 1, before + 2].map((n) => `2026/${String(n).padStart(6, '0')}`);
    expect(res.body.data).toMatchObject({
      issued: paymentIds.map((paymentId, i) => ({ paymentId, number: numbers[i] })),
      waiting: 0,
    });
    expect(res.body.message).toBe(invoiceMessages.retried(numbers, 0));
    expect(res.body.message).toBe(`Fatture ${numbers.join(', ')} emesse.`);
    const again = await admin.post(`/api/invoice/retryCustomer/${mario}`);
    expect(again.status).toBe(200);
    expect(again.body.message).toBe(invoiceMessages.nothingWaiting);
  });

  it('is for Admins', async () => {
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect((await cliente.post(`/api/invoice/retryCustomer/${mario}`)).status).toBe(403);
  });
});

describe('the seller’s missing data, completed on the tenant’s billing profile', () => {
  let bianchi: number;
  let paymentIds: number[];

  beforeAll(async () => {
    await ctx.db.update(tenants).set({ legalName: null, zip: null }).where(eq(tenants.id, demoId));
    bianchi = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
    paymentIds = await twoPaidPayments(bianchi);
  });

  it('are listed apart, by the tenant form’s keys; the customer’s own data are complete', async () => {
    const data = await issues();
    expect(data.seller).toEqual({
      tenantId: demoId,
      missing: [
        { key: 'legalName', label: 'ragione sociale' },
        { key: 'zip', label: 'CAP' },
      ],
    });
    const group = data.customers.find((c) => c.customer.id === bianchi);
    expect(group).toMatchObject({ paymentIds, count: 2, missing: [], reasons: [] });
  });

  it('a profile saved still incomplete succeeds; the payments keep waiting', async () => {
    const before = await lastNumber();
    const res = await admin.put('/api/tenant/Update', {
      id: demoId,
      name: 'Demo Srl',
      legalName: 'Demo Srl',
    });
    expect(res.status, res.raw).toBe(200);
    expect(await lastNumber()).toBe(before);
    const data = await issues();
    expect(data.seller.missing).toEqual([{ key: 'zip', label: 'CAP' }]);
    expect(data.items.find((i) => i.paymentId === paymentIds[0])?.messages).toEqual([
      invoiceMessages.missing(invoiceMessages.sellerZip),
    ]);
  });

  it('the profile completed issues them at once, numbers in order', async () => {
    const before = await lastNumber();
    const res = await admin.put('/api/tenant/Update', { id: demoId, name: 'Demo Srl', zip: '20121' });
    expect(res.status, res.raw).toBe(200);
    expect(await invoicesOf(paymentIds)).toEqual([
      { paymentId: paymentIds[0], number: before + 1, documentType: 'TD01' },
      { paymentId: paymentIds[1], number: before + 2, documentType: 'TD01' },
    ]);
    const data = await issues();
    expect(data.seller.missing).toEqual([]);
    expect(data.customers).toEqual([]);
    expect(data.totalCount).toBe(0);
  });
});

describe('other reasons', () => {
  it('a file the schema refuses is a reason of the customer’s group, not a missing field', async () => {
    await ctx.db.update(tenants).set({ taxRegime: 'RF03' }).where(eq(tenants.id, demoId));
    const bianchi = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
    const { sub } = await payByBankTransfer(
      admin,
      { userId: bianchi, planId: basic },
      '2026-03-09T15:00:00Z',
    );
    const data = await issues();
    const group = data.customers.find((c) => c.customer.id === bianchi);
    expect(group?.missing).toEqual([]);
    expect(group?.reasons).toHaveLength(1);
    expect(group?.reasons[0]).toContain('Fattura non emessa: il file FatturaPA non supera i controlli.');
    expect(data.items.find((i) => i.paymentId === sub.payments[0]!.id)?.reasons).toEqual(group?.reasons);
    // Put back through the profile: the save retries it and it is issued.
    const res = await admin.put('/api/tenant/Update', { id: demoId, name: 'Demo Srl', taxRegime: 'RF01' });
    expect(res.status, res.raw).toBe(200);
    expect(await invoicesOf([sub.payments[0]!.id])).toHaveLength(1);
  });
});
