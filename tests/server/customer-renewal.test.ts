/**
 * 'Disattiva il rinnovo' of the customer area (issue 28): `POST api/user/me/subscriptions/{id}/
 * cancelRenewal {reason, note?}` and `…/resumeRenewal`, `GET api/user/me/subscriptions/renewal`.
 * Own rows only (another customer's, another tenant's and unknown ids: the same 404); Active →
 * ActiveNoRenewal and back through the state machine; Stripe gets `cancel_at_period_end`, PayPal
 * a suspension (and its activation); a provider failure changes nothing; twice is once; the
 * `subscriptions-expire` job ends it at its next billing date; the Admin sees the reason in the
 * history and in the export.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renewalMessages, type OwnRenewal } from '../../contract/schemas/renewal';
import type { Subscription } from '../../contract/schemas/subscription';
import { SubscriptionStatus, type SubscriptionStatusId } from '../../contract/subscription-status';
import { payments, subscriptionEvents, subscriptionReminders, subscriptions } from '../../server/db/schema';
import { JOB_NAMES, sendRenewalReminders } from '../../server/modules/billing/billing-jobs';
import { startFakePayPal, type FakePayPal } from '../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../server/providers/fake-stripe';
import { createTestContext, DEMO, type ApiClient, type TestContext } from './helpers/test-app';
import {
  createSubscription,
  movableClock,
  planId,
  pointPayPalAt,
  pointStripeAt,
  userId,
} from './billing/helpers';

const START = '2026-03-10T09:00:00.000Z';
const clock = movableClock(START);
let paypal: FakePayPal;
let stripe: FakeStripe;
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let me: number;
let mario: number;
let basic: number;
let rossiId: number;

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext({ app: { now: clock.now }, env: { PAYPAL_TIMEOUT: '2s' } });
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  me = await userId(ctx, DEMO.cliente);
  mario = await userId(ctx, 'mario.rossi@example.com');
  basic = await planId(ctx, 'Demo Srl', 'Basic');
  rossiId = await ctx.tenantId('Studio Rossi');
  await pointPayPalAt(ctx, admin, 'Demo Srl', { url: paypal.url, webhookId: 'WH-DEMO-0001' });
  await pointStripeAt(admin, { url: stripe.url, webhookSecret: 'whsec_rinnova_test_secret' });
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([paypal.close(), stripe.close()]);
});
beforeEach(() => {
  paypal.clearFailures();
  stripe.clearFailures();
  clock.set(START);
});

type Kind = 'stripe' | 'paypal' | 'none';

/** A subscription of `customer` made Active as its provider would (PayPal/Stripe id on the payment). */
async function activeSub(kind: Kind, customer = me) {
  const sub = await createSubscription(admin, { userId: customer, planId: basic });
  let providerId: string | null = null;
  if (kind === 'stripe') providerId = stripe.subscribe('price_renewal_test');
  if (kind === 'paypal') {
    providerId = `I-RNW${randomBytes(5).toString('hex').toUpperCase()}`;
    paypal.subscriptions.set(providerId, {
      id: providerId,
      status: 'ACTIVE',
      plan_id: 'P-RENEWAL',
      create_time: START,
    });
  }
  await ctx.db
    .update(payments)
    .set({ method: kind === 'none' ? null : kind, providerSubscriptionId: providerId, paidAt: clock.now() })
    .where(eq(payments.id, sub.payments[0]!.id));
  await setStatus(sub.id, SubscriptionStatus.Active);
  return { id: sub.id, providerId, nextBillingDate: sub.nextBillingDate };
}

async function setStatus(id: number, status: SubscriptionStatusId) {
  await ctx.db.update(subscriptions).set({ status }).where(eq(subscriptions.id, id));
}

async function row(id: number) {
  const [r] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return r!;
}
const eventsOf = (id: number) =>
  ctx.db
    .select()
    .from(subscriptionEvents)
    .where(eq(subscriptionEvents.subscriptionId, id))
    .orderBy(asc(subscriptionEvents.id));

const stop = (
  id: number,
  body: unknown = { reason: 'tooExpensive', note: 'Costa più del previsto' },
  as = cliente,
) => as.post<OwnRenewal>(`/api/user/me/subscriptions/${id}/cancelRenewal`, body);
const resume = (id: number, as = cliente) =>
  as.post<OwnRenewal>(`/api/user/me/subscriptions/${id}/resumeRenewal`);
const stripeCalls = (id: string) => stripe.calls.filter((c) => c === `POST /v1/subscriptions/${id}`).length;
const paypalCalls = (id: string) =>
  paypal.calls.filter((c) => c.startsWith(`POST /v1/billing/subscriptions/${id}/`));

describe('cancelRenewal / resumeRenewal with Stripe', () => {
  it('sets cancel_at_period_end, moves Active → ActiveNoRenewal with the reason, and a second call does nothing', async () => {
    const sub = await activeSub('stripe');
    const res = await stop(sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      subscriptionId: sub.id,
      status: SubscriptionStatus.ActiveNoRenewal,
      renewal: 'stopped',
      endsAt: sub.nextBillingDate,
      reason: 'Troppo costoso — Costa più del previsto',
      canResume: true,
    });
    expect(res.body.message).toMatch(
      /^Rinnovo disattivato: l’abbonamento resta attivo fino al \d{2}\/\d{2}\/2026\.$/,
    );
    expect(stripe.subscriptions.get(sub.providerId!)).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
    });
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.ActiveNoRenewal);
    // The next billing date stays: the paid period is used to its end.
    expect((await row(sub.id)).nextBillingDate.toISOString()).toBe(sub.nextBillingDate);

    const again = await stop(sub.id, { reason: 'other', note: 'ripensamento' });
    expect(again.status, again.raw).toBe(200);
    expect(again.body.data?.reason).toBe('Troppo costoso — Costa più del previsto');
    expect(stripeCalls(sub.providerId!)).toBe(1);
    const moves = (await eventsOf(sub.id)).filter((e) => e.event === 'stopRenewal');
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({
      fromStatus: SubscriptionStatus.Active,
      toStatus: SubscriptionStatus.ActiveNoRenewal,
      actorKind: 'user',
      actorId: String(me),
      reason: 'Troppo costoso — Costa più del previsto',
    });
  });

  it('resume clears cancel_at_period_end and moves back to Active; twice is once', async () => {
    const sub = await activeSub('stripe');
    expect((await stop(sub.id, { reason: 'notUsedEnough' })).status).toBe(200);
    const res = await resume(sub.id);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.message).toBe(renewalMessages.resumed);
    expect(res.body.data).toMatchObject({
      renewal: 'on',
      status: SubscriptionStatus.Active,
      canResume: false,
    });
    expect(stripe.subscriptions.get(sub.providerId!)?.cancel_at_period_end).toBe(false);
    expect((await resume(sub.id)).status).toBe(200);
    expect(stripeCalls(sub.providerId!)).toBe(2);
    const events = (await eventsOf(sub.id)).map((e) => e.event);
    expect(events.filter((e) => e === 'resumeRenewal')).toHaveLength(1);
    // And off again, with a new reason.
    expect((await stop(sub.id, { reason: 'switching' })).body.data?.reason).toBe('Passo a un altro servizio');
  });

  it('a Stripe failure answers 502 in Italian and changes nothing', async () => {
    const sub = await activeSub('stripe');
    stripe.failNext(`POST /v1/subscriptions/${sub.providerId}`, 500);
    const before = await eventsOf(sub.id);
    const res = await stop(sub.id);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/Stripe/);
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.Active);
    expect(await eventsOf(sub.id)).toEqual(before);
    expect(stripe.subscriptions.get(sub.providerId!)?.cancel_at_period_end).toBe(false);

    // Resume failing leaves it off.
    expect((await stop(sub.id)).status).toBe(200);
    stripe.failNext(`POST /v1/subscriptions/${sub.providerId}`, 503);
    expect((await resume(sub.id)).status).toBe(502);
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.ActiveNoRenewal);
    expect(stripe.subscriptions.get(sub.providerId!)?.cancel_at_period_end).toBe(true);
  });
});

describe('cancelRenewal / resumeRenewal with PayPal', () => {
  it('suspends at PayPal (reversible: no charge while suspended) and re-activates on resume', async () => {
    const sub = await activeSub('paypal');
    const res = await stop(sub.id, { reason: 'technicalProblems', note: 'Il login non funziona' });
    expect(res.status, res.raw).toBe(200);
    expect(paypal.subscriptions.get(sub.providerId!)?.status).toBe('SUSPENDED');
    expect(paypalCalls(sub.providerId!)).toEqual([
      `POST /v1/billing/subscriptions/${sub.providerId}/suspend`,
    ]);
    expect((await stop(sub.id)).status).toBe(200);
    expect(paypalCalls(sub.providerId!)).toHaveLength(1);

    const back = await resume(sub.id);
    expect(back.status, back.raw).toBe(200);
    expect(paypal.subscriptions.get(sub.providerId!)?.status).toBe('ACTIVE');
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.Active);
  });

  it('PayPal down: 502, nothing changes; PayPal already suspended (a lost answer) counts as done', async () => {
    const sub = await activeSub('paypal');
    paypal.failNext(`POST /v1/billing/subscriptions/${sub.providerId}/suspend`, 500);
    const res = await stop(sub.id);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/PayPal/);
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.Active);
    expect((await eventsOf(sub.id)).some((e) => e.event === 'stopRenewal')).toBe(false);
    expect(paypal.subscriptions.get(sub.providerId!)?.status).toBe('ACTIVE');

    paypal.setStatus(sub.providerId!, 'SUSPENDED');
    expect((await stop(sub.id)).status).toBe(200);
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.ActiveNoRenewal);
  });
});

describe('PayPal’s webhooks after a renewal move', () => {
  it('the suspension’s own SUSPENDED event changes nothing; one created before a resume is stale; a later one still suspends', async () => {
    const sub = await activeSub('paypal');
    const deliver = async (createTime: string) => {
      const event = paypal.event(
        'BILLING.SUBSCRIPTION.SUSPENDED',
        { id: sub.providerId, status: 'SUSPENDED' },
        createTime,
      );
      const signed = paypal.signWebhook(event, 'WH-DEMO-0001');
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/webhooks/paypal/${await ctx.tenantId('Demo Srl')}`,
        headers: signed.headers,
        payload: signed.body,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    expect((await stop(sub.id)).status).toBe(200);
    await deliver('2026-03-10T09:00:01.000Z');
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.ActiveNoRenewal);

    clock.set('2026-03-10T09:05:00.000Z');
    expect((await resume(sub.id)).status).toBe(200);
    // Delivered late (or retried) after the resume: ignored.
    await deliver('2026-03-10T09:00:01.000Z');
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.Active);
    // A suspension PayPal made later (a failed charge) is applied as before.
    await deliver('2026-03-11T09:00:00.000Z');
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.NotActive);
  });
});

describe('a subscription without a provider (nothing to call)', () => {
  it('moves in Rinnova only', async () => {
    const sub = await activeSub('none');
    const calls = stripe.calls.length + paypal.calls.length;
    expect((await stop(sub.id, { reason: 'other', note: 'Chiudo l’attività' })).status).toBe(200);
    expect((await resume(sub.id)).status).toBe(200);
    expect(stripe.calls.length + paypal.calls.length).toBe(calls);
  });
});

describe('own rows only', () => {
  it('another customer’s, another tenant’s and an unknown id answer the same 404, and nothing moves', async () => {
    const marios = await activeSub('stripe', mario);
    const [rossiSub] = await ctx.db
      .select({ id: subscriptions.id, status: subscriptions.status })
      .from(subscriptions)
      .where(and(eq(subscriptions.tenantId, rossiId), eq(subscriptions.status, SubscriptionStatus.Active)))
      .limit(1);
    expect(rossiSub).toBeDefined();
    for (const id of [marios.id, rossiSub!.id, 2_000_000_000]) {
      for (const res of [await stop(id), await resume(id)]) {
        expect(res.status, `${id} ${res.raw}`).toBe(404);
        expect(res.body.message).toBe('Elemento non trovato.');
      }
    }
    expect((await row(marios.id)).status).toBe(SubscriptionStatus.Active);
    expect((await row(rossiSub!.id)).status).toBe(SubscriptionStatus.Active);
    expect(stripeCalls(marios.providerId!)).toBe(0);
    // The renewal list names only the caller's own subscriptions.
    const mine = await cliente.get<{ items: OwnRenewal[] }>('/api/user/me/subscriptions/renewal');
    expect(mine.status).toBe(200);
    const ids = mine.body.data!.items.map((i) => i.subscriptionId);
    expect(ids).not.toContain(marios.id);
    const own = await ctx.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.userId, me));
    expect([...ids].sort()).toEqual(
      own
        .map((o) => o.id)
        .filter((id) => ids.includes(id))
        .sort(),
    );
    expect(ids.length).toBeGreaterThan(0);
  });

  it('staff get 403 (a customer’s call), no session 401, a tenant the customer is not in 403', async () => {
    const sub = await activeSub('none');
    expect((await stop(sub.id, undefined, admin)).status).toBe(403);
    expect((await resume(sub.id, await ctx.as('superadmin', 'Demo Srl'))).status).toBe(403);
    expect(
      (await ctx.api.post(`/api/user/me/subscriptions/${sub.id}/cancelRenewal`, { reason: 'other' })).status,
    ).toBe(401);
    const elsewhere = await ctx.as('cliente', 'Studio Rossi');
    expect((await stop(sub.id, undefined, elsewhere)).status).toBe(403);
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.Active);
  });
});

describe('input and status', () => {
  it('reason is required, «Altro» needs a note, the note has a maximum: Italian field errors, nothing moves', async () => {
    const sub = await activeSub('none');
    const cases: [unknown, string][] = [
      [{}, `reason: ${renewalMessages.reasonRequired}`],
      [{ reason: 'expensive' }, `reason: ${renewalMessages.reasonRequired}`],
      [{ reason: 'other', note: '   ' }, `note: ${renewalMessages.noteRequired}`],
      [{ reason: 'tooExpensive', note: 'x'.repeat(501) }, `note: ${renewalMessages.noteTooLong}`],
    ];
    for (const [body, error] of cases) {
      const res = await stop(sub.id, body);
      expect(res.status, res.raw).toBe(400);
      expect(res.body.errors).toContain(error);
    }
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.Active);
  });

  it('not Active: 409 with an Italian message; an ActiveNoRenewal renewing neither at a provider nor by bank transfer cannot be turned on or off', async () => {
    const notActive = await createSubscription(admin, { userId: me, planId: basic });
    expect((await stop(notActive.id)).status).toBe(409);
    expect((await stop(notActive.id)).body.message).toBe(renewalMessages.notActive);
    expect((await resume(notActive.id)).body.message).toBe(renewalMessages.notResumable);

    const transfer = await activeSub('none');
    await setStatus(transfer.id, SubscriptionStatus.ActiveNoRenewal);
    for (const res of [await stop(transfer.id), await resume(transfer.id)]) {
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(renewalMessages.notAutomatic);
    }
    const canceled = await activeSub('none');
    await setStatus(canceled.id, SubscriptionStatus.Canceled);
    expect((await stop(canceled.id)).status).toBe(409);
  });
});

describe('the end of the paid period', () => {
  it('resume is refused once the next billing date has come; the expire job ends it through the state machine', async () => {
    const sub = await activeSub('stripe');
    expect((await stop(sub.id)).status).toBe(200);
    clock.set(new Date(new Date(sub.nextBillingDate).getTime() + 60_000).toISOString());
    const late = await resume(sub.id);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(renewalMessages.periodOver);
    expect(stripeCalls(sub.providerId!)).toBe(1);

    await ctx.app.jobs!.runJobNow(JOB_NAMES.expireSubscriptions);
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.NotActive);
    const last = (await eventsOf(sub.id)).at(-1);
    expect(last).toMatchObject({
      event: 'expire',
      fromStatus: SubscriptionStatus.ActiveNoRenewal,
      toStatus: SubscriptionStatus.NotActive,
      actorKind: 'system',
    });
    const view = await cliente.get<{ items: OwnRenewal[] }>('/api/user/me/subscriptions/renewal');
    expect(view.body.data!.items.find((i) => i.subscriptionId === sub.id)?.renewal).toBe('none');
  });

  it('no renewal reminder (with its payment link) for a renewal the customer turned off', async () => {
    const sub = await activeSub('none');
    expect((await stop(sub.id)).status).toBe(200);
    // The control: the seller's own ActiveNoRenewal (no customer's stop) is reminded as before.
    const seller = await activeSub('none');
    await setStatus(seller.id, SubscriptionStatus.ActiveNoRenewal);
    clock.set(new Date(new Date(sub.nextBillingDate).getTime() - 3 * 86_400_000).toISOString());
    // The job's own work, with a link maker that only records whom it was asked for.
    const linked: number[] = [];
    const done = await sendRenewalReminders(
      {
        uow: ctx.app.unitOfWork,
        createLink: async (_w, input) => {
          linked.push(input.subscriptionId);
          return `https://pagamenti.example/${input.subscriptionId}`;
        },
      },
      await ctx.tenantId('Demo Srl'),
    );
    expect(done.failed).toEqual([]);
    expect(linked).toContain(seller.id);
    expect(linked).not.toContain(sub.id);
    const remindersOf = (id: number) =>
      ctx.db.select().from(subscriptionReminders).where(eq(subscriptionReminders.subscriptionId, id));
    expect(await remindersOf(sub.id)).toEqual([]);
    expect(await remindersOf(seller.id)).toHaveLength(1);
    for (const id of [sub.id, seller.id]) await setStatus(id, SubscriptionStatus.Canceled);
  });

  it('before its date the job leaves it alone', async () => {
    const sub = await activeSub('none');
    expect((await stop(sub.id)).status).toBe(200);
    clock.set(new Date(new Date(sub.nextBillingDate).getTime() - 60_000).toISOString());
    await ctx.app.jobs!.runJobNow(JOB_NAMES.expireSubscriptions);
    expect((await row(sub.id)).status).toBe(SubscriptionStatus.ActiveNoRenewal);
    await ctx.db
      .update(subscriptions)
      .set({ status: SubscriptionStatus.Canceled })
      .where(and(eq(subscriptions.id, sub.id), ne(subscriptions.status, SubscriptionStatus.Canceled)));
  });
});

describe('what the Admin sees', () => {
  it('the history names the customer’s move and reason; the export has the reason and the day', async () => {
    const sub = await activeSub('stripe');
    expect((await stop(sub.id, { reason: 'other', note: 'Ci serve solo d’estate' })).status).toBe(200);
    const read = await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`);
    const entry = read.body.data!.history!.find((h) => h.event === 'stopRenewal');
    expect(entry).toMatchObject({
      fromStatus: SubscriptionStatus.Active,
      toStatus: SubscriptionStatus.ActiveNoRenewal,
      actor: { kind: 'user', name: DEMO.cliente },
      reason: 'Altro — Ci serve solo d’estate',
    });

    const csv = await admin.get('/api/subscription/export?format=csv&filters[status]=3');
    expect(csv.status, csv.raw).toBe(200);
    const lines = csv.raw.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toContain('Motivo disattivazione rinnovo;Rinnovo disattivato il');
    expect(lines.some((l) => l.includes('Altro — Ci serve solo d’estate;10/03/2026'))).toBe(true);

    // Turned back on: the history shows it and the export no longer names a reason.
    expect((await resume(sub.id)).status).toBe(200);
    const again = await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`);
    expect(again.body.data!.history!.at(-1)).toMatchObject({
      event: 'resumeRenewal',
      toStatus: SubscriptionStatus.Active,
    });
  });
});
