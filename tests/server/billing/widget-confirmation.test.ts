/**
 * The plan widget cannot be used to mass-create customers (issue 23): `POST
 * api/subscription/subscribe` only writes a pending request and e-mails a confirmation link (read
 * here from the outbox); the customer, the subscription and its payment exist once the link is
 * opened (`POST api/subscription/subscribe/confirm`), exactly once, in the request's tenant. Daily
 * cap, one open request per (e-mail, plan), the same answer whoever the address belongs to, links
 * that expire (moved clock) and hostile input that writes nothing.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import type { Subscription } from '../../../contract/schemas/subscription';
import {
  paymentProviders,
  paymentTokens,
  payments,
  plans,
  subscriptions,
  users,
  userTenants,
  widgetRequests,
} from '../../../server/db/schema';
import type { OutboxEntry } from '../../../server/mail/mailer';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { databaseFingerprint } from '../helpers/fingerprint';
import { client, createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { movableClock, planId, pointPayPalAt, userId } from './helpers';

const clock = movableClock('2026-04-14T08:00:00.000Z');
const MINUTE = 60_000;
let fake: FakePayPal;
let ctx: TestContext;
let admin: ApiClient;
let demoId: number;
let rossiId: number;
let basic: number;
let pro: number;
let rossiPlan: number;

const CONFIRMATION_SENT = {
  success: true,
  message: 'Ti abbiamo inviato un’email: apri il link che contiene per confermare l’abbonamento.',
  data: { confirmationSent: true },
};

beforeAll(async () => {
  fake = await startFakePayPal();
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  admin = await ctx.as('admin', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  rossiId = await ctx.tenantId('Studio Rossi');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: fake.url, webhookId: 'WH-WIDGET' });
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  pro = await planId(ctx, 'Demo Srl', 'Pro');
  for (const id of [basic, pro])
    expect((await admin.post(`/api/plan/syncPaypal/${id}`)).status, 'plan synced with PayPal').toBe(200);
  // Studio Rossi sells online too (its own PayPal row and a plan on PayPal at its price): with its
  // cassa, the widget's price and the confirmed payment are the same list price (listPriceOf).
  rossiPlan = await planId(ctx, 'Studio Rossi', 'Consulenza mensile');
  await ctx.db.insert(paymentProviders).values({
    tenantId: rossiId,
    name: 'PayPal',
    apiUrl: fake.url,
    apiKey: 'fake-client-id-rossi',
  });
  await ctx.db
    .update(plans)
    // The list price: 150,00 + cassa 4 % 6,00 = 156,00, + IVA 22 % 34,32 = 190,32.
    .set({ paypalPlanId: 'P-ROSSI-CONSULENZA', paypalPriceCents: 19032 })
    .where(eq(plans.id, rossiPlan));
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const subscribe = (body: unknown, api: ApiClient = ctx.api) =>
  api.post<{ confirmationSent: boolean }>('/api/subscription/subscribe', body);
const confirm = (token: unknown, api: ApiClient = ctx.api) =>
  api.post<{ paymentUrl: string; result: string }>('/api/subscription/subscribe/confirm', { token });

/** The outbox messages written since `before` (an earlier `ctx.outbox()`). */
async function newMail(before: OutboxEntry[]): Promise<OutboxEntry[]> {
  return (await ctx.outbox()).slice(before.length);
}

function tokenIn(mail: OutboxEntry | undefined): string {
  const match = /\/widget\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '');
  if (!match?.[1]) throw new Error(`no confirmation link in ${JSON.stringify(mail)}`);
  return match[1];
}

/** Subscribes and answers the token of the e-mail that the request sent. */
async function requestLink(email: string, plan = basic): Promise<string> {
  const before = await ctx.outbox();
  const res = await subscribe({ planId: plan, email });
  expect(res.status, res.raw).toBe(200);
  const sent = await newMail(before);
  expect(sent).toHaveLength(1);
  return tokenIn(sent[0]);
}

/** The tables whose rows changed between two fingerprints. */
function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after)
    .filter((t) => before[t] !== after[t])
    .sort();
}

async function requestsOf(email: string) {
  return ctx.db
    .select()
    .from(widgetRequests)
    .where(eq(widgetRequests.email, email))
    .orderBy(asc(widgetRequests.id));
}

async function subscriptionsOf(email: string) {
  return ctx.db
    .select({ id: subscriptions.id, tenantId: subscriptions.tenantId, status: subscriptions.status })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(users.email, email))
    .orderBy(asc(subscriptions.id));
}

function paymentTokenOfUrl(url: string): string {
  return new URL(url).searchParams.get('token') ?? '';
}

describe('subscribe e-mails a confirmation and creates nothing', () => {
  it('writes one pending request and one e-mail: no user, membership, subscription or payment', async () => {
    const before = await databaseFingerprint(ctx.db);
    const outbox = await ctx.outbox();
    const res = await subscribe({ planId: basic, email: 'Nuova.Cliente@Example.com', name: 'Nuova Cliente' });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual(CONFIRMATION_SENT);
    expect(changedTables(before, await databaseFingerprint(ctx.db))).toEqual(['outbox', 'widget_requests']);
    expect(await ctx.db.select().from(users).where(eq(users.email, 'nuova.cliente@example.com'))).toEqual([]);

    const [mail] = await newMail(outbox);
    expect(mail).toMatchObject({
      to: 'nuova.cliente@example.com',
      subject: 'Demo Srl: conferma l’abbonamento «Basic»',
    });
    expect(mail!.text).toContain('«Basic» di Demo Srl (12,08\u00a0€ al mese, IVA inclusa)');
    expect(mail!.text).toContain('valido 1 ora, utilizzabile una sola volta');
    // The name typed in the widget is not mailed (a stranger's text never reaches someone else).
    expect(mail!.text).not.toContain('Nuova Cliente');
    expect(mail!.html).toContain('Conferma l’abbonamento');
    const token = tokenIn(mail);
    expect(mail!.text).toContain(`/widget/confirm?token=${token}`);

    const [row] = await requestsOf('nuova.cliente@example.com');
    expect(row).toMatchObject({ tenantId: demoId, planId: basic, name: 'Nuova Cliente', status: 'open' });
    // Only the token's SHA-256 is stored, and the link lives one hour.
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.expiresAt.getTime() - clock.now().getTime()).toBe(60 * MINUTE);
  });

  it('unknown or inactive plan → 404; a plan not on PayPal or Stripe → 409; nothing written', async () => {
    const before = await databaseFingerprint(ctx.db);
    const outbox = await ctx.outbox();
    expect((await subscribe({ planId: 999999, email: 'a@example.it' })).status).toBe(404);
    const enterprise = await planId(ctx, 'Demo Srl', 'Enterprise');
    const notOnPaypal = await subscribe({ planId: enterprise, email: 'a@example.it' });
    expect(notOnPaypal.status).toBe(409);
    expect(notOnPaypal.body.message).toBe(
      'Questo piano non si può ancora acquistare online: contatta il venditore.',
    );
    await ctx.db.update(plans).set({ isActive: false }).where(eq(plans.id, enterprise));
    expect((await subscribe({ planId: enterprise, email: 'a@example.it' })).status).toBe(404);
    await ctx.db.update(plans).set({ isActive: true }).where(eq(plans.id, enterprise));
    expect(await databaseFingerprint(ctx.db)).toEqual(before);
    expect(await newMail(outbox)).toEqual([]);
  });
});

describe('opening the link', () => {
  it('creates the customer, the NotActive subscription, its payment and link, exactly once; the answer leads to the payment page', async () => {
    const token = await requestLink('laura.bianchi@example.it');
    const res = await confirm(token);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.message).toBe('Abbonamento confermato: completa il pagamento.');
    expect(res.body.data!.result).toBe('created');
    expect(res.body.data!.paymentUrl).toMatch(
      /^http:\/\/localhost:\d+\/payment\?token=[\w-]+&bypassTenant=true$/,
    );

    const [user] = await ctx.db.select().from(users).where(eq(users.email, 'laura.bianchi@example.it'));
    expect(user).toMatchObject({ roleId: 3, passwordHash: null, defaultTenantId: demoId });
    const subs = await subscriptionsOf('laura.bianchi@example.it');
    expect(subs).toEqual([{ id: subs[0]!.id, tenantId: demoId, status: 2 }]);
    const sub = (await admin.get<Subscription>(`/api/subscription/GetById/${subs[0]!.id}`)).body.data!;
    expect(sub).toMatchObject({ amountDue: 12.08, planID: basic });
    expect(sub.payments).toHaveLength(1);
    expect(sub.history?.[0]?.actor).toMatchObject({ kind: 'system', name: 'plan-widget' });
    const [request] = await requestsOf('laura.bianchi@example.it');
    expect(request).toMatchObject({ status: 'confirmed', subscriptionId: sub.id });

    // The payment page's own call accepts the link.
    const view = await ctx.api.get<PaymentTokenView>('/api/PaymentToken/validate', {
      query: { token: paymentTokenOfUrl(res.body.data!.paymentUrl) },
    });
    expect(view.body).toMatchObject({ success: true, data: { tenantID: demoId, amount: 12.08 } });
  });

  it('opened again (also twice at once): the same payment page, nothing written; once that link is spent: "used"', async () => {
    const token = await requestLink('paolo.verdi@example.it');
    const [first, second] = await Promise.all([confirm(token), confirm(token)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.data!.result, second.body.data!.result].sort()).toEqual(['created', 'replayed']);
    expect(second.body.data!.paymentUrl).toBe(first.body.data!.paymentUrl);
    expect(await subscriptionsOf('paolo.verdi@example.it')).toHaveLength(1);

    const before = await databaseFingerprint(ctx.db);
    const again = await confirm(token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      message: 'Abbonamento già confermato: completa il pagamento.',
      data: { paymentUrl: first.body.data!.paymentUrl, result: 'replayed' },
    });
    expect(await databaseFingerprint(ctx.db)).toEqual(before);

    // The payment link lives one hour: after it the confirmation link says it was used.
    clock.set(new Date(clock.now().getTime() + 61 * MINUTE).toISOString());
    const used = await confirm(token);
    expect(used.status).toBe(409);
    expect(used.body).toMatchObject({
      success: false,
      message: expect.stringContaining('già stato usato'),
      data: { reason: 'used' },
    });
    expect(await databaseFingerprint(ctx.db)).toEqual(before);
    expect(await subscriptionsOf('paolo.verdi@example.it')).toHaveLength(1);
  });

  it('a later request of the same address confirmed: a new link for the same unpaid subscription, not another one', async () => {
    const [sub] = await subscriptionsOf('paolo.verdi@example.it');
    const token = await requestLink('paolo.verdi@example.it');
    const res = await confirm(token);
    expect(res.status, res.raw).toBe(200);
    expect(await subscriptionsOf('paolo.verdi@example.it')).toEqual([sub]);
    const [link] = await ctx.db
      .select({ subscriptionId: paymentTokens.subscriptionId, status: paymentTokens.status })
      .from(paymentTokens)
      .where(eq(paymentTokens.subscriptionId, sub!.id))
      .orderBy(asc(paymentTokens.id))
      .limit(1)
      .offset(1);
    expect(link).toEqual({ subscriptionId: sub!.id, status: 0 });
  });

  it('an unknown, malformed or superseded token: 400 invalid; nothing written', async () => {
    const before = await databaseFingerprint(ctx.db);
    const unknown = await confirm('A'.repeat(43));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ success: false, data: { reason: 'invalid' } });
    expect(unknown.body.message).toContain('Link di conferma non valido');
    expect(await databaseFingerprint(ctx.db)).toEqual(before);
  });
});

describe('expiry (moved clock)', () => {
  it('a link opened after its hour: 400 expired, nothing created; asking again sends a new link that works', async () => {
    const outbox = await ctx.outbox();
    const token = await requestLink('scaduto@example.it');
    clock.set(new Date(clock.now().getTime() + 60 * MINUTE).toISOString());
    const before = await databaseFingerprint(ctx.db);
    const late = await confirm(token);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({
      message: 'Il link di conferma è scaduto: richiedi di nuovo l’abbonamento dal sito del venditore.',
      data: { reason: 'expired' },
    });
    expect(await databaseFingerprint(ctx.db)).toEqual(before);

    const fresh = await requestLink('scaduto@example.it');
    expect(fresh).not.toBe(token);
    expect((await requestsOf('scaduto@example.it')).map((r) => r.status)).toEqual(['expired', 'open']);
    expect((await confirm(token)).body.data).toEqual({ reason: 'expired' });
    const ok = await confirm(fresh);
    expect(ok.status, ok.raw).toBe(200);
    expect(await subscriptionsOf('scaduto@example.it')).toHaveLength(1);
    expect(await newMail(outbox)).toHaveLength(2);
  });
});

describe('one open request per (e-mail, plan)', () => {
  it('a second request sends nothing at once, a new link after a minute (the old one stops working), at most three e-mails', async () => {
    const email = 'doppia.richiesta@example.it';
    const first = await requestLink(email);
    const outbox = await ctx.outbox();
    const before = await databaseFingerprint(ctx.db);
    const again = await subscribe({ planId: basic, email: 'Doppia.Richiesta@example.it' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(CONFIRMATION_SENT);
    expect(await databaseFingerprint(ctx.db)).toEqual(before);
    expect(await newMail(outbox)).toEqual([]);

    clock.set(new Date(clock.now().getTime() + MINUTE).toISOString());
    const second = await requestLink(email);
    expect(second).not.toBe(first);
    const rows = await requestsOf(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'open', sendCount: 2 });
    expect((await confirm(first)).body.data).toEqual({ reason: 'invalid' });

    clock.set(new Date(clock.now().getTime() + MINUTE).toISOString());
    await requestLink(email);
    clock.set(new Date(clock.now().getTime() + MINUTE).toISOString());
    const quiet = await ctx.outbox();
    expect((await subscribe({ planId: basic, email })).body).toEqual(CONFIRMATION_SENT);
    expect(await newMail(quiet)).toEqual([]);
    expect(await requestsOf(email)).toMatchObject([{ sendCount: 3 }]);

    // Another plan is another request.
    await requestLink(email, pro);
    expect((await requestsOf(email)).map((r) => r.planId)).toEqual([basic, pro]);
  });
});

describe('the same answer whoever the address belongs to (no enumeration)', () => {
  const addresses = {
    staff: 'admin@demo.rinnova.it',
    superAdmin: 'superadmin@demo.rinnova.it',
    customerHere: 'giulia.romano@example.it',
    customerElsewhere: 'elena.marchetti@example.it',
    nobody: 'mai.vista@example.it',
  } as const;
  const tokens: Partial<Record<keyof typeof addresses, string>> = {};

  it('status, body, tables written and the e-mail (but for its address and link) are identical', async () => {
    const seen: { status: number; raw: string; tables: string[]; mail: unknown; row: unknown }[] = [];
    for (const [who, email] of Object.entries(addresses) as [keyof typeof addresses, string][]) {
      const before = await databaseFingerprint(ctx.db);
      const outbox = await ctx.outbox();
      const res = await subscribe({ planId: pro, email, name: 'Chiunque' });
      const mails = await newMail(outbox);
      expect(mails).toHaveLength(1);
      tokens[who] = tokenIn(mails[0]);
      const { to, text, html, createdAt: _at, ...rest } = mails[0]!;
      expect(to).toBe(email);
      // The pending request itself differs only by its address and its token.
      const [row] = await ctx.db
        .select()
        .from(widgetRequests)
        .where(and(eq(widgetRequests.email, email), eq(widgetRequests.planId, pro)));
      const { id: _id, email: _email, tokenHash: _hash, ...sameRow } = row!;
      seen.push({
        status: res.status,
        raw: res.raw,
        row: sameRow,
        tables: changedTables(before, await databaseFingerprint(ctx.db)),
        mail: { ...rest, text: text.split(tokens[who]!).join('…'), html: html.split(tokens[who]!).join('…') },
      });
    }
    expect(seen[0]).toMatchObject({ status: 200, tables: ['outbox', 'widget_requests'] });
    for (const s of seen.slice(1)) expect(s).toEqual(seen[0]);
    // Before confirmation the other tenant's customer is not attached here.
    const elena = await userId(ctx, addresses.customerElsewhere);
    expect(
      await ctx.db
        .select()
        .from(userTenants)
        .where(and(eq(userTenants.userId, elena), eq(userTenants.tenantId, demoId))),
    ).toEqual([]);
  });

  it('a staff account’s link confirms nothing: 409 notAllowed, no membership, role or subscription changed', async () => {
    for (const who of ['staff', 'superAdmin'] as const) {
      const before = await databaseFingerprint(ctx.db);
      const res = await confirm(tokens[who]);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        message: 'Questa email non può essere usata per abbonarsi da qui: scrivi al venditore.',
        data: { reason: 'notAllowed' },
      });
      expect(await databaseFingerprint(ctx.db)).toEqual(before);
    }
    const superAdmin = await userId(ctx, addresses.superAdmin);
    expect(
      await ctx.db
        .select()
        .from(userTenants)
        .where(and(eq(userTenants.userId, superAdmin), eq(userTenants.tenantId, demoId))),
    ).toEqual([]);
  });

  it('the other tenant’s customer is attached here only once the link is opened; their record there is untouched', async () => {
    const elena = await userId(ctx, addresses.customerElsewhere);
    const rossiBefore = await ctx.db
      .select()
      .from(userTenants)
      .where(and(eq(userTenants.userId, elena), eq(userTenants.tenantId, rossiId)));
    const res = await confirm(tokens.customerElsewhere);
    expect(res.status, res.raw).toBe(200);
    const [here] = await ctx.db
      .select({ name: userTenants.name })
      .from(userTenants)
      .where(and(eq(userTenants.userId, elena), eq(userTenants.tenantId, demoId)));
    expect(here).toEqual({ name: 'Chiunque' });
    expect(
      await ctx.db
        .select()
        .from(userTenants)
        .where(and(eq(userTenants.userId, elena), eq(userTenants.tenantId, rossiId))),
    ).toEqual(rossiBefore);
    // A customer of this tenant keeps the record the tenant has of them (the typed name is not applied).
    const giulia = await userId(ctx, addresses.customerHere);
    const [record] = await ctx.db
      .select({ name: userTenants.name })
      .from(userTenants)
      .where(and(eq(userTenants.userId, giulia), eq(userTenants.tenantId, demoId)));
    expect((await confirm(tokens.customerHere)).status).toBe(200);
    expect(
      (
        await ctx.db
          .select({ name: userTenants.name })
          .from(userTenants)
          .where(and(eq(userTenants.userId, giulia), eq(userTenants.tenantId, demoId)))
      )[0],
    ).toEqual(record);
  });
});

describe('tenants', () => {
  it('a link made for tenant A creates in A only, whatever tenant the call names; B’s own link creates in B', async () => {
    const email = 'due.negozi@example.it';
    const forDemo = await requestLink(email, basic);
    const forRossi = await requestLink(email, rossiPlan);
    const rossiSubscriptions = async () =>
      (await ctx.db.select().from(subscriptions).where(eq(subscriptions.tenantId, rossiId))).length;
    const rossiMembers = async () =>
      (await ctx.db.select().from(userTenants).where(eq(userTenants.tenantId, rossiId))).length;
    const counts = [await rossiSubscriptions(), await rossiMembers()];

    const rossiCaller = client(ctx.app, { 'x-tenant-id': String(rossiId) });
    const res = await rossiCaller.post<{ paymentUrl: string }>('/api/subscription/subscribe/confirm', {
      token: forDemo,
      tenantId: rossiId,
    });
    expect(res.status, res.raw).toBe(200);
    expect((await subscriptionsOf(email)).map((s) => s.tenantId)).toEqual([demoId]);
    expect([await rossiSubscriptions(), await rossiMembers()]).toEqual(counts);
    const [link] = await ctx.db
      .select({ tenantId: paymentTokens.tenantId })
      .from(paymentTokens)
      .innerJoin(payments, eq(payments.id, paymentTokens.paymentId))
      .where(eq(paymentTokens.subscriptionId, (await subscriptionsOf(email))[0]!.id));
    expect(link).toEqual({ tenantId: demoId });

    expect((await confirm(forRossi)).status).toBe(200);
    expect((await subscriptionsOf(email)).map((s) => s.tenantId)).toEqual([demoId, rossiId]);
    // The widget showed Rossi's list price, and the payment asks the same: cassa and VAT included.
    const view = await client(ctx.app, {}).get<{ amount: number }>('/api/plan/widget', {
      query: { planId: rossiPlan },
    });
    expect(view.body.data?.amount).toBe(190.32);
    const [due] = await ctx.db
      .select({ cents: payments.amountDueCents })
      .from(payments)
      .where(eq(payments.subscriptionId, (await subscriptionsOf(email))[1]!.id));
    expect(due).toEqual({ cents: 19032 });
  });
});

describe('daily cap per tenant and plan (WIDGET_DAILY_CAP)', () => {
  it('over the cap: 429 with Retry-After, nothing written; other plans unaffected; free again after 24 hours', async () => {
    const capped = await ctx.buildAnotherApp({ WIDGET_DAILY_CAP: '3' }, { now: clock.now });
    const api = client(capped, {});
    const enterprise = await planId(ctx, 'Demo Srl', 'Enterprise');
    expect((await admin.post(`/api/plan/syncPaypal/${enterprise}`)).status).toBe(200);
    const start = clock.now().getTime();
    for (let i = 1; i <= 3; i++) {
      expect((await subscribe({ planId: enterprise, email: `tetto.${i}@example.it` }, api)).status).toBe(200);
      clock.set(new Date(clock.now().getTime() + 10 * MINUTE).toISOString());
    }
    const before = await databaseFingerprint(ctx.db);
    const outbox = await ctx.outbox();
    const over = await subscribe({ planId: enterprise, email: 'tetto.4@example.it' }, api);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      success: false,
      message:
        'Oggi questo piano ha ricevuto troppe richieste di abbonamento: riprova più tardi o contatta il venditore.',
    });
    // Until the first of the three leaves the 24-hour window.
    expect(Number(over.headers['retry-after'])).toBe(
      (start + 24 * 60 * MINUTE - clock.now().getTime()) / 1000,
    );
    // The same answer for an address with an open request: the cap does not depend on the address.
    expect((await subscribe({ planId: enterprise, email: 'tetto.1@example.it' }, api)).status).toBe(429);
    expect(await databaseFingerprint(ctx.db)).toEqual(before);
    expect(await newMail(outbox)).toEqual([]);

    expect((await subscribe({ planId: rossiPlan, email: 'tetto.4@example.it' }, api)).status).toBe(200);
    clock.set(new Date(start + 24 * 60 * MINUTE + 1).toISOString());
    expect((await subscribe({ planId: enterprise, email: 'tetto.4@example.it' }, api)).status).toBe(200);
  });
});

describe('hostile input: a 4xx envelope, nothing written', () => {
  it('NUL bytes, huge or malformed ids, wrong types, oversized values', async () => {
    const before = await databaseFingerprint(ctx.db);
    const outbox = await ctx.outbox();
    const bodies: unknown[] = [
      { planId: basic, email: 'nul\u0000@example.it' },
      { planId: basic, email: 'ok@example.it', name: 'Ma\u0000rio' },
      { planId: 2_147_483_648, email: 'ok@example.it' },
      { planId: 1e21, email: 'ok@example.it' },
      { planId: true, email: 'ok@example.it' },
      { planId: [basic], email: 'ok@example.it' },
      { planId: '0x10', email: 'ok@example.it' },
      { planId: -1, email: 'ok@example.it' },
      { planId: basic, email: 42 },
      { planId: basic, email: ['ok@example.it'] },
      { planId: basic, email: { $ne: null } },
      { planId: basic, email: `${'a'.repeat(250)}@example.it` },
      { planId: basic, email: 'ok@example.it', name: 'x'.repeat(201) },
      { planId: basic, email: 'ok@example.it', name: { first: 'x' } },
      { planId: basic },
      { email: 'ok@example.it' },
      'planId=1',
      [],
      null,
    ];
    for (const body of bodies) {
      const res = await subscribe(body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.message).toBe('string');
    }
    const tokens: unknown[] = [
      'abc\u0000def',
      42,
      ['abc'],
      { $gt: '' },
      null,
      '',
      'x'.repeat(201),
      '../../etc/passwd',
      'a b',
      "' or 1=1 --",
    ];
    for (const token of tokens) {
      const res = await confirm(token);
      expect(res.status, JSON.stringify(token)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    const bare = await ctx.api.post('/api/subscription/subscribe/confirm', {});
    expect(bare.status).toBe(400);
    expect(bare.body.errors?.[0]).toMatch(/^token: /);
    expect(await databaseFingerprint(ctx.db)).toEqual(before);
    expect(await newMail(outbox)).toEqual([]);
  });

  it('without the app key both calls answer 401', async () => {
    const anonymous = client(ctx.app, {}, null);
    expect(
      (await anonymous.post('/api/subscription/subscribe', { planId: basic, email: 'a@example.it' })).status,
    ).toBe(401);
    expect((await anonymous.post('/api/subscription/subscribe/confirm', { token: 'abc' })).status).toBe(401);
  });
});
