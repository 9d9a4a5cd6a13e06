/**
 * Hostile input on the customer-only routes (issue 30's customer area), written by hand: the
 * fuzz test signs in as staff, so it never reaches them. Signed in as the demo customer
 * (role User, Demo Srl), every `api/user/me/…` route gets malformed ids (negative, zero, huge,
 * non-numeric, hex, exponent, SQL- and HTML-ish), another customer's and another tenant's
 * subscription, wrong types, oversized strings, unknown fields, a missing or broken body. Each
 * answer is a 400 with an Italian message (field errors named) or a 404 (never a 500, never
 * someone else's data), and the tables the mutating routes write are the same afterwards.
 * The tenant's customerPlanChange and customerPause stay off (their default), so a well-formed
 * own call would itself be refused: nothing here can change data by succeeding.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../contract/enums';
import type { Plan } from '../../contract/schemas/plan';
import type { Subscription } from '../../contract/schemas/subscription';
import {
  paymentTokens,
  payments,
  planChanges,
  subscriptions,
  users,
  userTenants,
} from '../../server/db/schema';
import { create } from './helpers/entity-checks';
import {
  createTestContext,
  DEMO,
  type ApiClient,
  type ApiResponse,
  type TestContext,
} from './helpers/test-app';
import { createSubscription, giveIban, movableClock, userId } from './billing/helpers';
import { payByBankTransfer } from './invoices/helpers';

const clock = movableClock('2026-05-04T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let demoId: number;
let me: number;
let mine: Subscription;
let othersSub: Subscription;
let othersPaymentId: number;
let otherTenantSubId: number;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  me = await userId(ctx, DEMO.cliente);
  const other = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  await giveIban(ctx, 'Demo Srl');
  const plan = await create<Plan>(admin, 'plan', {
    name: 'Piano ostile',
    recurringCostBeforeVAT: 20,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  const paid = await payByBankTransfer(admin, { userId: me, planId: plan.id }, '2026-05-04T09:00:00.000Z');
  expect(paid.confirm.status, paid.confirm.raw).toBe(200);
  mine = paid.sub;
  othersSub = await createSubscription(admin, { userId: other, planId: plan.id });
  const [othersPayment] = await ctx.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.subscriptionId, othersSub.id));
  othersPaymentId = othersPayment!.id;

  // A subscription of another tenant (Studio Rossi), for one of its own customers.
  const rossiId = await ctx.tenantId('Studio Rossi');
  const rossi = await ctx.as('superadmin', 'Studio Rossi');
  const [rossiCustomer] = await ctx.db
    .select({ id: users.id })
    .from(userTenants)
    .innerJoin(users, eq(users.id, userTenants.userId))
    .where(and(eq(userTenants.tenantId, rossiId), eq(users.roleId, Role.User)))
    .limit(1);
  const rossiPlan = await create<Plan>(rossi, 'plan', {
    name: 'Piano Rossi ostile',
    recurringCostBeforeVAT: 10,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  otherTenantSubId = (await createSubscription(rossi, { userId: rossiCustomer!.id, planId: rossiPlan.id }))
    .id;
}, 90_000);
afterAll(async () => {
  await ctx?.close();
});

/** Every row the customer routes could write, for the customer, the other customer and Rossi. */
async function snapshot() {
  const subIds = [mine.id, othersSub.id, otherTenantSubId];
  return {
    subscriptions: await ctx.db.select().from(subscriptions).where(inArray(subscriptions.id, subIds)),
    payments: await ctx.db.select().from(payments).where(inArray(payments.subscriptionId, subIds)),
    tokens: await ctx.db.select().from(paymentTokens).where(inArray(paymentTokens.subscriptionId, subIds)),
    planChanges: await ctx.db.select().from(planChanges).where(inArray(planChanges.subscriptionId, subIds)),
    membership: await ctx.db
      .select()
      .from(userTenants)
      .where(and(eq(userTenants.tenantId, demoId), eq(userTenants.userId, me))),
    me: await ctx.db.select().from(users).where(eq(users.id, me)),
  };
}

/** English framework wording that must never reach a customer. */
const ENGLISH =
  /\b(expected|invalid input|required|must|received|undefined|null is not|unexpected token|body)\b/i;

function expectRefused(res: ApiResponse, what: string, statuses: number[] = [400, 404]) {
  expect(statuses, `${what}: ${res.status} ${res.raw}`).toContain(res.status);
  expect(res.body.success, what).toBe(false);
  const words = [res.body.message ?? '', ...(res.body.errors ?? [])].join(' | ');
  expect(words.trim(), `${what}: no message`).not.toBe('');
  expect(words, `${what}: not Italian: ${words}`).not.toMatch(ENGLISH);
  // Never another's data in a refusal.
  expect(res.raw, what).not.toContain('bianchi');
  expect(res.raw, what).not.toContain('Rossi');
}

type Call = { method: 'get' | 'post'; suffix: string; body?: unknown };
/** Every customer route with an id, with a well-formed body. */
const idRoutes: Call[] = [
  { method: 'get', suffix: 'changePlan' },
  { method: 'post', suffix: 'changePlan', body: { planId: 1, when: 'now', preview: true } },
  { method: 'get', suffix: 'pause' },
  { method: 'post', suffix: 'pause', body: { periods: 1 } },
  { method: 'post', suffix: 'resume' },
  { method: 'post', suffix: 'cancelRenewal', body: { reason: 'tooExpensive' } },
  { method: 'post', suffix: 'resumeRenewal' },
  { method: 'post', suffix: 'pay', body: {} },
  { method: 'get', suffix: 'charges' },
  { method: 'post', suffix: 'paypalCoupon', body: {} },
  { method: 'post', suffix: 'paypalPlanChange', body: {} },
  { method: 'post', suffix: 'paymentMethod', body: { action: 'bankTransfer' } },
];
const send = (call: Call, id: string | number, body: unknown = call.body) => {
  const url = `/api/user/me/subscriptions/${id}/${call.suffix}`;
  return call.method === 'get' ? cliente.get(url) : cliente.post(url, body);
};

describe('customer routes under hostile input', () => {
  it('malformed ids: 400 «id: Identificativo non valido.» on every route, nothing written', async () => {
    const before = await snapshot();
    const bad = [
      '-1',
      '0',
      '2147483648',
      '99999999999999999999999',
      'abc',
      '1.5',
      '0x10',
      '1e3',
      '%20',
      encodeURIComponent("1' OR '1'='1"),
      encodeURIComponent('1; DROP TABLE subscriptions; --'),
      encodeURIComponent('<script>alert(1)</script>'),
    ];
    for (const call of idRoutes)
      for (const id of bad) {
        const res = await send(call, id);
        expectRefused(res, `${call.method} ${call.suffix} ${id}`, [400, 404]);
        // A '/' inside the id (%2F) no longer names the route: any Italian 400/404 will do.
        if (res.status === 400 && !id.includes('%2F'))
          expect(res.body.errors ?? [], `${call.suffix} ${id}: ${res.raw}`).toContain(
            'id: Identificativo non valido.',
          );
      }
    expect(await snapshot()).toEqual(before);
  });

  it('another customer’s, another tenant’s and an unknown subscription: 404 on every route, nothing written', async () => {
    const before = await snapshot();
    for (const call of idRoutes)
      for (const id of [othersSub.id, otherTenantSubId, 2147483647]) {
        const res = await send(call, id);
        expectRefused(res, `${call.method} ${call.suffix} ${id}`, [404]);
      }
    expect(await snapshot()).toEqual(before);
  });

  it('bodies of the wrong shape on the customer’s own subscription: 400 with Italian field errors', async () => {
    const before = await snapshot();
    const long = 'x'.repeat(100_000);
    const cases: [string, unknown][] = [
      ['pause', { periods: '2' }],
      ['pause', { periods: -1 }],
      ['pause', { periods: 1.5 }],
      ['pause', { periods: 1e12 }],
      ['pause', { periods: "1' OR 1=1" }],
      ['pause', { periods: [1] }],
      ['pause', {}],
      ['pause', undefined],
      ['pause', { periods: null, __proto__: { isAdmin: true }, constructor: { prototype: {} } }],
      ['changePlan', { planId: 'abc', when: 'now', preview: true }],
      ['changePlan', { planId: -5, when: 'now' }],
      ['changePlan', { planId: 1, when: '<b>ieri</b>' }],
      ['changePlan', { planId: 1, when: long }],
      ['changePlan', undefined],
      ['cancelRenewal', { reason: 'nope' }],
      ['cancelRenewal', { reason: 123 }],
      ['cancelRenewal', { reason: 'other', note: long }],
      ['cancelRenewal', { reason: 'other', note: 42 }],
      ['cancelRenewal', { reason: "'; DROP TABLE subscriptions; --", note: '<img src=x onerror=alert(1)>' }],
      ['cancelRenewal', {}],
      ['cancelRenewal', undefined],
      ['pay', { paymentId: 'abc' }],
      ['pay', { paymentId: -1 }],
      ['pay', { paymentId: 2 ** 40 }],
      ['pay', { paymentId: othersPaymentId }],
      ['pay', { paymentId: [othersPaymentId] }],
      ['paymentMethod', { action: 'wire' }],
      ['paymentMethod', { action: 1 }],
      ['paymentMethod', { action: '<script>' }],
      ['paymentMethod', {}],
      ['paymentMethod', undefined],
    ];
    for (const [suffix, body] of cases) {
      const res = await send({ method: 'post', suffix }, mine.id, body);
      const what = `${suffix} ${JSON.stringify(body)?.slice(0, 80)}`;
      // changePlan and pause are off for this tenant: a body that passes would be a 403 — but
      // none of these passes. The other customer's payment is a 404.
      expectRefused(res, what, [400, 404]);
      if (res.status === 400) {
        const errors = res.body.errors ?? [];
        expect(errors.length, what).toBeGreaterThan(0);
        // Each error names its field ('periods: …'); a missing body, or one the JSON parser refuses
        // (a 'constructor' / '__proto__' key: 'Il corpo della richiesta non è un JSON…'), has none.
        const bodyLevel = body === undefined || Object.prototype.hasOwnProperty.call(body, 'constructor');
        if (!bodyLevel) for (const e of errors) expect(e, what).toMatch(/^[\w.[\]]+: \S/);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a broken or non-JSON body: 400 in Italian, nothing written', async () => {
    const before = await snapshot();
    for (const suffix of ['pause', 'cancelRenewal', 'paymentMethod', 'pay', 'changePlan']) {
      const url = `/api/user/me/subscriptions/${mine.id}/${suffix}`;
      const broken = await cliente.post(url, undefined, {
        body: '{"periods": 1, "reason":',
        headers: { 'content-type': 'application/json' },
      });
      expectRefused(broken, `${suffix} broken JSON`, [400]);
      const notJson = await cliente.post(url, undefined, {
        body: 'periods=1&action=bankTransfer',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      // 'pay' takes an optional body: without a usable one it answers as for no body (409 here).
      expect([400, 415, ...(suffix === 'pay' ? [409] : [])], `${suffix} form: ${notJson.raw}`).toContain(
        notJson.status,
      );
      expect(notJson.body.success).toBe(false);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('«Dati di fatturazione» (PUT api/user/me/billing): wrong types, oversized, injection-ish → 400, record unchanged', async () => {
    const own = await cliente.get<Record<string, unknown>>('/api/user/me/billing');
    expect(own.status, own.raw).toBe(200);
    const base = own.body.data!;
    const before = await snapshot();
    const cases: Record<string, unknown>[] = [
      { ...base, isCompany: 'sì' },
      { ...base, fiscalCode: "RSSMRA80A01H501U' OR '1'='1" },
      { ...base, fiscalCode: 12345 },
      { ...base, vatCode: '<script>alert(1)</script>' },
      { ...base, name: 'x'.repeat(100_000) },
      { ...base, zip: { $gt: '' } },
      { ...base, sdi: 'TROPPOLUNGO1234' },
      { ...base, pec: 'non-una-pec' },
      { ...base, countryCode: 'ITALIA' },
      { ...base, phone: ['+39'] },
    ];
    for (const body of cases) {
      const res = await cliente.put('/api/user/me/billing', body);
      const changed = Object.keys(body).find((k) => body[k] !== base[k]);
      expectRefused(res, `billing ${changed}`, [400]);
      expect((res.body.errors ?? []).length, `billing ${changed}: ${res.raw}`).toBeGreaterThan(0);
    }
    for (const raw of [undefined, '{"name":']) {
      const res = await cliente.put('/api/user/me/billing', undefined, {
        ...(raw === undefined ? {} : { body: raw }),
        headers: { 'content-type': 'application/json' },
      });
      expectRefused(res, `billing body ${String(raw)}`, [400]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('«I miei dati» and the renewal list: hostile query strings are refused or ignored, never another’s data', async () => {
    for (const format of ['xml', "json' OR 1=1", '<b>pdf</b>', 'x'.repeat(5000)]) {
      const res = await cliente.get('/api/user/me/data', { query: { format } });
      expectRefused(res, `data ${format.slice(0, 20)}`, [400]);
    }
    const renewal = await cliente.get<{ items: { subscriptionId?: number; id?: number }[] }>(
      '/api/user/me/subscriptions/renewal',
      { query: { userId: 1, tenantId: 1, id: othersSub.id } },
    );
    expect(renewal.status, renewal.raw).toBe(200);
    expect(renewal.raw).not.toContain(`"id":${othersSub.id},`);
    const ids = renewal.body.data!.items.map((i) => i.subscriptionId ?? i.id);
    expect(ids).not.toContain(othersSub.id);
    expect(ids).not.toContain(otherTenantSubId);
    // Another tenant named in the header: not a member, refused, no data.
    const elsewhere = await cliente.get('/api/user/me/subscriptions/renewal', {
      headers: { 'x-tenant-id': String(await ctx.tenantId('Studio Rossi')) },
    });
    expect([403, 404], elsewhere.raw).toContain(elsewhere.status);
    expect(elsewhere.body.success).toBe(false);
  });
});
