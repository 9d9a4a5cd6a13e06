/**
 * 'Dati di fatturazione' of the customer area (issue 28): `GET/PUT api/user/me/billing` read and
 * save the caller's own record in the selected tenant only, with the user form's Italian field
 * messages; a save issues the invoices waiting for these data at once and the answer counts them;
 * an invalid save changes nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerAreaMessages } from '../../contract/messages';
import type { CustomerBilling, CustomerBillingSaved } from '../../contract/schemas/user';
import { billingValidationMessages, validationMessages } from '../../contract/validation/italian';
import { invoices, userTenants } from '../../server/db/schema';
import { placeOf } from './helpers/entity-checks';
import { createTestContext, DEMO, type ApiClient, type TestContext } from './helpers/test-app';
import { giveIban, movableClock, planId, userId } from './billing/helpers';
import { payByBankTransfer, setCustomer } from './invoices/helpers';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let me: number;
let mario: number;
let demoId: number;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  me = await userId(ctx, DEMO.cliente);
  mario = await userId(ctx, 'mario.rossi@example.com');
});
afterAll(() => ctx.close());

async function stored(userId: number) {
  const [row] = await ctx.db
    .select({ name: userTenants.name, fiscalCode: userTenants.fiscalCode, vatCode: userTenants.vatCode })
    .from(userTenants)
    .where(and(eq(userTenants.userId, userId), eq(userTenants.tenantId, demoId)));
  return row;
}

const body = (changes: Record<string, unknown> = {}) => ({
  name: 'Cliente Demo',
  isCompany: false,
  fiscalCode: 'RSSMRA80A01H501U',
  vatCode: null,
  countryCode: 'IT',
  sdi: null,
  pec: null,
  street: 'Via Appia 10',
  zip: '00183',
  ...changes,
});

describe('GET api/user/me/billing', () => {
  it('answers the caller’s own record in the tenant, whoever else is named', async () => {
    const res = await cliente.get<CustomerBilling>('/api/user/me/billing', { query: { id: String(mario) } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ id: me, email: DEMO.cliente });
    expect(Object.keys(res.body.data!)).not.toContain('roleId');
  });

  it('needs a tenant, a tenant the caller belongs to, a session, and a membership', async () => {
    const noTenant = await ctx.as('cliente');
    expect((await noTenant.get('/api/user/me/billing')).status).toBe(400);
    const other = await ctx.as('cliente', 'Studio Rossi');
    expect((await other.get('/api/user/me/billing')).status).toBe(403);
    expect((await ctx.api.get('/api/user/me/billing')).status).toBe(401);
    // A SuperAdmin may enter any tenant but has no record in it.
    const superadmin = await ctx.as('superadmin', 'Demo Srl');
    expect((await superadmin.get('/api/user/me/billing')).status).toBe(404);
  });
});

describe('PUT api/user/me/billing', () => {
  it('each invalid field answers 400 with its Italian message under its key, and nothing changes', async () => {
    const before = await stored(me);
    const res = await cliente.put('/api/user/me/billing', {
      ...body({
        fiscalCode: 'RSSMRA80A01H501X',
        vatCode: '12345678901',
        sdi: 'AB',
        pec: 'non-una-pec',
        name: ' ',
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        `fiscalCode: ${billingValidationMessages.fiscalCodeInvalid}`,
        `vatCode: ${validationMessages.vatInvalid}`,
        `sdi: ${validationMessages.sdiInvalid}`,
        `pec: ${validationMessages.pecInvalid}`,
      ]),
    );
    expect(res.body.errors?.some((e) => e.startsWith('name: '))).toBe(true);
    expect(await stored(me)).toEqual(before);
  });

  it('a comune outside the province sent is refused, nothing changes', async () => {
    const before = await stored(me);
    const roma = await placeOf(ctx.db, 'Roma', 'RM');
    const milano = await placeOf(ctx.db, 'Milano', 'MI');
    const res = await cliente.put(
      '/api/user/me/billing',
      body({ name: 'Altro nome', province: milano.provinceId, municipality: roma.municipalityId }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatch(/^municipality: /);
    expect(await stored(me)).toEqual(before);
  });

  it('saving the missing codice fiscale issues the blocked invoice at once and says how many', async () => {
    await setCustomer(ctx, 'Demo Srl', me, { fiscalCode: null, vatCode: null, isCompany: false });
    const basic = await planId(ctx, 'Demo Srl', 'Basic');
    const { sub, confirm } = await payByBankTransfer(
      admin,
      { userId: me, planId: basic },
      '2026-03-09T15:00:00Z',
    );
    expect(confirm.status, confirm.raw).toBe(200);
    const paymentId = sub.payments[0]!.id;
    const invoiceOf = () =>
      ctx.db
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.tenantId, demoId), eq(invoices.paymentId, paymentId)));
    expect(await invoiceOf()).toEqual([]);

    const roma = await placeOf(ctx.db, 'Roma', 'RM');
    const res = await cliente.put<CustomerBillingSaved>(
      '/api/user/me/billing',
      // Keys a customer may not set are dropped: role, e-mail, 'Utente Attivo', another id.
      body({
        id: mario,
        roleId: 1,
        email: 'altro@example.com',
        isActive: false,
        fiscalCode: 'rssmra80a01h501u',
        region: roma.regionId,
        province: roma.provinceId,
        municipality: roma.municipalityId,
      }),
    );
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      issued: 1,
      waiting: 0,
      customer: {
        id: me,
        email: DEMO.cliente,
        fiscalCode: 'RSSMRA80A01H501U',
        billingAddress: { municipalityId: roma.municipalityId, provinceId: roma.provinceId },
      },
    });
    expect(res.body.message).toBe(customerAreaMessages.billingSaved(1, 0));
    expect(await invoiceOf()).toHaveLength(1);
    // Mario's record and the caller's sign-in are untouched; the caller is still a customer.
    expect((await stored(mario))?.name).not.toBe('Cliente Demo');
    expect((await cliente.get('/api/user/me/billing')).status).toBe(200);

    const again = await cliente.put<CustomerBillingSaved>('/api/user/me/billing', body());
    expect(again.body.data).toMatchObject({ issued: 0, waiting: 0 });
    expect(again.body.message).toBe(customerAreaMessages.billingSaved(0, 0));
  });
});
