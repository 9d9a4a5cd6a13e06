/**
 * 'I miei dati' (issue 28; GDPR art. 15 and 20): `GET api/user/me/data?format=json|pdf` answers
 * everything Rinnova holds about the signed-in person, across every tenant they belong to (a
 * tenant with its own database answers from there), never a secret or another person's rows.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, ne } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyDataExport } from '../../contract/schemas/my-data';
import type { Tenant } from '../../contract/schemas/tenant';
import type { User } from '../../contract/schemas/user';
import {
  contactMessages,
  invoices,
  loginLinkTokens,
  passwordResetTokens,
  payments,
  recoveryCodes,
  subscriptions,
  users,
  userTenants,
} from '../../server/db/schema';
import { createTenantDatabases, type TenantDatabases } from '../../server/db/tenancy/tenant-databases';
import { createSubscription, giveIban, movableClock, planId, userId } from './billing/helpers';
import { payByBankTransfer } from './invoices/helpers';
import { placeOf } from './helpers/entity-checks';
import { client, createTestContext, DEMO, type TestContext } from './helpers/test-app';

const clock = movableClock('2026-03-10T09:00:00.000Z');
let ctx: TestContext;
let me: number;
let mario: number;
let demoId: number;
let rossiId: number;
/** Demo Srl's unpaid transfer of the customer that an Admin reminded ('Sollecita ora', issue 29). */
let remindedCausale: string;
const TOTP_MARKER = 'totp-sealed-secret-marker-0123456789';
const RECOVERY_MARKER = 'recovery-code-hash-marker-abcdef';

async function fetchData(token: string | null, format?: string) {
  return ctx.app.inject({
    method: 'GET',
    url: `/api/user/me/data${format ? `?format=${format}` : ''}`,
    headers: { 'x-api-key': 'test-api-key', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      keysOf(v, into);
    }
  return into;
}

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  demoId = await ctx.tenantId('Demo Srl');
  rossiId = await ctx.tenantId('Studio Rossi');
  me = await userId(ctx, DEMO.cliente);
  mario = await userId(ctx, 'mario.rossi@example.com');
  await giveIban(ctx, 'Studio Rossi');

  // The customer of Demo Srl becomes a customer of Studio Rossi too, with a paid subscription there.
  const roma = await placeOf(ctx.db, 'Roma', 'RM');
  const superadmin = await ctx.as('superadmin', 'Studio Rossi');
  const attached = await superadmin.post<User>('/api/user/Create', {
    name: 'Cliente Demo presso Rossi',
    email: DEMO.cliente,
    pec: 'cliente.demo@pec.example.com',
    phone: '',
    sdi: '',
    vatCode: '',
    fiscalCode: 'RSSMRA80A01H501U',
    isCompany: false,
    isActive: true,
    roleId: 3,
    street: 'Via Appia 10',
    zip: '00183',
    region: roma.regionId,
    province: roma.provinceId,
    municipality: roma.municipalityId,
  });
  expect(attached.status, attached.raw).toBe(200);
  expect(attached.body.data?.id).toBe(me);
  const { confirm } = await payByBankTransfer(
    superadmin,
    { userId: me, planId: await planId(ctx, 'Studio Rossi', 'Consulenza mensile') },
    '2026-03-09T15:00:00Z',
  );
  expect(confirm.status, confirm.raw).toBe(200);

  // In Demo Srl a transfer not yet arrived, reminded by an Admin: its collection is theirs to read.
  await giveIban(ctx, 'Demo Srl');
  const demoAdmin = await ctx.as('admin', 'Demo Srl');
  const unpaid = await createSubscription(demoAdmin, {
    userId: me,
    planId: await planId(ctx, 'Demo Srl', 'Basic'),
  });
  const setTransfer = await demoAdmin.put(`/api/subscription/setPaymentWithBankTransfer/${unpaid.id}`);
  expect(setTransfer.status, setTransfer.raw).toBe(200);
  const reminded = await demoAdmin.post(`/api/collection/remind/${unpaid.payments[0]!.id}`);
  expect(reminded.status, reminded.raw).toBe(200);
  remindedCausale = unpaid.payments[0]!.causale;

  // Secrets the file must never hold: a second factor, recovery codes, link hashes.
  await ctx.db
    .update(users)
    .set({ totpSecretEncrypted: TOTP_MARKER, totpEnabledAt: clock.now() })
    .where(eq(users.id, me));
  await ctx.db.insert(recoveryCodes).values({ userId: me, codeHash: RECOVERY_MARKER });
  const linkAsked = await ctx.api.post('/api/user/request-login-link', { Email: DEMO.cliente });
  expect(linkAsked.status).toBe(200);
  const resetAsked = await ctx.api.post('/api/user/request-password-reset', { email: DEMO.cliente });
  expect(resetAsked.status).toBeLessThan(500);
  await ctx.db.insert(contactMessages).values({
    email: DEMO.cliente,
    message: 'Vorrei sapere come disdire.',
    optIn: true,
    locale: 'it',
    ip: '203.0.113.77',
  });
}, 120_000);
afterAll(() => ctx.close());

describe('GET api/user/me/data?format=json', () => {
  let raw = '';
  let data: MyDataExport;

  beforeAll(async () => {
    const res = await fetchData(await ctx.login(DEMO.cliente, DEMO.password), 'json');
    expect(res.statusCode, res.body).toBe(200);
    raw = res.body;
    data = res.json<MyDataExport>();
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="rinnova-i-miei-dati-2026-03-10.json"',
    );
    expect(res.headers['cache-control']).toContain('no-store');
  });

  it('names the person and the format', () => {
    expect(data).toMatchObject({
      format: 'rinnova-i-miei-dati',
      version: 1,
      generatedAt: '2026-03-10T09:00:00.000Z',
      person: {
        id: me,
        email: DEMO.cliente,
        role: 'User',
        twoFactor: { enabled: true, recoveryCodesLeft: 1 },
      },
    });
    expect(data.contactMessages).toEqual([
      expect.objectContaining({ message: 'Vorrei sapere come disdire.', optIn: true }),
    ]);
    expect(data.signIns.signInLinks.length).toBeGreaterThanOrEqual(1);
  });

  it('holds one section per tenant, each with its fiscal data, subscriptions, payments and invoices', async () => {
    expect(data.tenants.map((t) => t.tenant.name).sort()).toEqual(['Demo Srl', 'Studio Rossi']);
    for (const tenantId of [demoId, rossiId]) {
      const section = data.tenants.find((t) => t.tenant.id === tenantId)!;
      expect(section.available).toBe(true);
      expect(section.customer?.email).toBe(DEMO.cliente);

      const subs = await ctx.db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(eq(subscriptions.tenantId, tenantId), eq(subscriptions.userId, me)));
      expect(section.subscriptions.map((s) => s.id).sort()).toEqual(subs.map((s) => s.id).sort());
      expect(subs.length).toBeGreaterThan(0);
      const pays = await ctx.db
        .select({ id: payments.id, causale: payments.causale })
        .from(payments)
        .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
        .where(and(eq(payments.tenantId, tenantId), eq(subscriptions.userId, me)));
      expect(section.subscriptions.flatMap((s) => s.payments.map((p) => p.causale)).sort()).toEqual(
        pays.map((p) => p.causale).sort(),
      );
      const own = await ctx.db
        .select({ number: invoices.numberText, total: invoices.totalCents })
        .from(invoices)
        .where(and(eq(invoices.tenantId, tenantId), eq(invoices.userId, me)));
      expect(section.invoices.map((i) => i.number).sort()).toEqual(own.map((i) => i.number).sort());
      for (const i of own)
        expect(section.invoices.find((x) => x.number === i.number)?.total).toBe(i.total / 100);
    }
    const rossi = data.tenants.find((t) => t.tenant.id === rossiId)!;
    expect(rossi.customer).toMatchObject({
      name: 'Cliente Demo presso Rossi',
      fiscalCode: 'RSSMRA80A01H501U',
      pec: 'cliente.demo@pec.example.com',
      isCompany: false,
    });
    expect(rossi.subscriptions[0]).toMatchObject({
      plan: { name: 'Consulenza mensile' },
      status: 'ActiveNoRenewal',
      currency: 'EUR',
    });
    expect(rossi.subscriptions[0]!.payments[0]!.bankTransfers).toHaveLength(1);
    expect(rossi.invoicesWaiting).toEqual([]);
    expect(rossi.invoices).toHaveLength(1);
    expect(rossi.invoices[0]).toMatchObject({
      documentType: 'TD01',
      customerName: 'Cliente Demo presso Rossi',
    });
  });

  it('holds the collection of each payment: due date, state and its reminders, the staff unnamed', async () => {
    const demo = data.tenants.find((t) => t.tenant.id === demoId)!;
    const pay = demo.subscriptions.flatMap((s) => s.payments).find((p) => p.causale === remindedCausale);
    expect(pay).toMatchObject({
      dueDate: '2026-03-10',
      collectionStatus: 'due',
      collectionStatusLabel: 'Da incassare',
      method: 'bankTransfer',
      collection: [
        {
          kind: 'reminder',
          label: 'Sollecito inviato',
          step: null,
          by: 'user',
          note: 'Sollecito manuale',
          at: '2026-03-10T09:00:00.000Z',
        },
      ],
    });
    expect(Object.keys(pay!.collection[0]!).sort()).toEqual(['at', 'by', 'kind', 'label', 'note', 'step']);
    const [admin] = await ctx.db.select({ name: users.name }).from(users).where(eq(users.email, DEMO.admin));
    expect(raw).not.toContain(DEMO.admin);
    expect(raw).not.toContain(`"${admin!.name}"`);
  });

  it('holds no secret: no hash, secret or password field, none of their values', async () => {
    const keys = keysOf(data);
    expect(
      keys.filter((k) => /hash|secret|encrypted|totp|tokenversion|^token$|apikey|^ip$/i.test(k)),
    ).toEqual([]);
    const [identity] = await ctx.db.select().from(users).where(eq(users.id, me));
    const values = [
      identity!.passwordHash!,
      TOTP_MARKER,
      RECOVERY_MARKER,
      ...(
        await ctx.db
          .select({ h: loginLinkTokens.tokenHash })
          .from(loginLinkTokens)
          .where(eq(loginLinkTokens.userId, me))
      ).map((r) => r.h),
      ...(
        await ctx.db
          .select({ h: passwordResetTokens.tokenHash })
          .from(passwordResetTokens)
          .where(eq(passwordResetTokens.userId, me))
      ).map((r) => r.h),
    ];
    expect(values.length).toBeGreaterThanOrEqual(4);
    for (const v of values) expect(raw).not.toContain(v);
    // The contact form's sender IP is not the person's necessarily: left out.
    expect(raw).not.toContain('203.0.113.77');
  });

  it('holds no other customer’s rows', async () => {
    const [other] = await ctx.db
      .select({ name: userTenants.name, email: userTenants.email })
      .from(userTenants)
      .where(and(eq(userTenants.userId, mario), eq(userTenants.tenantId, demoId)));
    expect(raw).not.toContain(other!.email);
    expect(raw).not.toContain(other!.name!);
    const theirs = await ctx.db
      .select({ causale: payments.causale })
      .from(payments)
      .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
      .where(and(eq(payments.tenantId, demoId), ne(subscriptions.userId, me)));
    expect(theirs.length).toBeGreaterThan(0);
    for (const p of theirs) expect(raw).not.toContain(`"${p.causale}"`);
    const theirInvoices = await ctx.db
      .select({ number: invoices.numberText })
      .from(invoices)
      .where(and(eq(invoices.tenantId, demoId), ne(invoices.userId, me)));
    const mine = new Set(data.tenants.flatMap((t) => t.invoices.map((i) => `${t.tenant.id}:${i.number}`)));
    for (const i of theirInvoices) expect(mine.has(`${demoId}:${i.number}`)).toBe(false);
  });

  it('a staff account gets its own data (no tenant needed); a bad format is a 400; nobody signed in is a 401', async () => {
    const admin = await fetchData(await ctx.login(DEMO.admin, DEMO.password));
    expect(admin.statusCode).toBe(200);
    const adminData = admin.json<MyDataExport>();
    expect(adminData.person.email).toBe(DEMO.admin);
    expect(admin.body).not.toContain(DEMO.cliente);

    const bad = await fetchData(await ctx.login(DEMO.cliente, DEMO.password), 'xml');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: string[] }>().errors.join(' ')).toContain('Formato non valido');

    expect((await fetchData(null, 'json')).statusCode).toBe(401);
    expect((await fetchData(null, 'pdf')).statusCode).toBe(401);
    const noKey = await ctx.app.inject({ method: 'GET', url: '/api/user/me/data' });
    expect(noKey.statusCode).toBe(401);
  });
});

describe('GET api/user/me/data?format=pdf', () => {
  it('is a PDF with the person’s name, the Italian sections and euro amounts', async () => {
    const res = await fetchData(await ctx.login(DEMO.cliente, DEMO.password), 'pdf');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="rinnova-i-miei-dati-2026-03-10.pdf"',
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), {
      mergePages: true,
    });
    const flat = text.replace(/\s+/g, ' ');
    if (process.env.MY_DATA_DEBUG) await writeFile('/tmp/my-data.pdf', res.rawPayload);
    const [identity] = await ctx.db.select({ name: users.name }).from(users).where(eq(users.id, me));
    expect(flat).toContain(identity!.name!);
    for (const heading of ['Dati personali', 'Dati di fatturazione', 'Abbonamenti', 'Pagamenti', 'Fatture'])
      expect(flat).toContain(heading);
    // The reminder of the transfer not yet arrived, with its due date.
    expect(flat).toContain('INCASSO (CAUSALE) SCADENZA EVENTO DA QUANDO RNV-');
    expect(flat).not.toMatch(/QUANDO Rinnova - I miei dati/);
    expect(flat).toContain('Sollecito inviato (Sollecito manuale)');
    expect(flat).toContain('Demo Srl');
    expect(flat).toContain('Studio Rossi');
    expect(flat).toContain('RSSMRA80A01H501U');
    const [inv] = await ctx.db
      .select({ total: invoices.totalCents, number: invoices.numberText })
      .from(invoices)
      .where(and(eq(invoices.tenantId, rossiId), eq(invoices.userId, me)));
    const eur = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
    expect(flat).toContain(eur.format(inv!.total / 100).replace(/\s/g, ' '));
    expect(flat).toContain(inv!.number);
    expect(flat).not.toContain('mario.rossi@example.com');
  });
});

describe('a tenant with its own database', () => {
  let tenancy: TenantDatabases;
  let dir: string;

  afterAll(async () => {
    await tenancy?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('its section is read from that database', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-my-data-'));
    tenancy = createTenantDatabases({ control: ctx.database.handle });
    const app = await ctx.buildAnotherApp({}, { tenancy, now: clock.now });
    const superToken = await ctx.login(DEMO.superadmin, DEMO.password);
    const created = await client(app, { authorization: `Bearer ${superToken}` }).post<Tenant>(
      '/api/tenant/Create',
      {
        name: 'Bottega Propria',
      },
    );
    expect(created.status, created.raw).toBe(200);
    const id = created.body.data!.id;
    await tenancy.create(id);
    const attach = await client(app, {
      authorization: `Bearer ${superToken}`,
      'x-tenant-id': String(id),
    }).post<User>('/api/user/Create', {
      name: 'Cliente della Bottega',
      email: DEMO.cliente,
      pec: 'bottega.cliente@pec.example.com',
      phone: '',
      sdi: '',
      vatCode: '',
      fiscalCode: '',
      isCompany: false,
      isActive: true,
      roleId: 3,
      street: '',
      zip: '',
      region: null,
      province: null,
      municipality: null,
    });
    expect(attach.status, attach.raw).toBe(200);
    // The control database keeps the membership only; the record is in the tenant's database.
    const [control] = await ctx.db
      .select({ name: userTenants.name })
      .from(userTenants)
      .where(and(eq(userTenants.userId, me), eq(userTenants.tenantId, id)));
    expect(control?.name).toBeNull();

    const token = await ctx.login(DEMO.cliente, DEMO.password);
    const res = await app.inject({
      method: 'GET',
      url: '/api/user/me/data',
      headers: { 'x-api-key': 'test-api-key', authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const section = res.json<MyDataExport>().tenants.find((t) => t.tenant.id === id);
    expect(section).toMatchObject({
      available: true,
      customer: { name: 'Cliente della Bottega', pec: 'bottega.cliente@pec.example.com' },
      subscriptions: [],
    });
    await tenancy.drop(id).catch(() => undefined);
  }, 120_000);
});
