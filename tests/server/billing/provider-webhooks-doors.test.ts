/**
 * Provider webhooks as a stranger sees them (issues 23 and 31): one refusal whatever the reason
 * (unknown tenant, provider or secret not configured, unreadable secret, no or wrong signature),
 * so nobody learns a tenant's setup; an unsigned PayPal delivery, or one for a tenant without a
 * webhook id, costs no call to PayPal; signed PayPal deliveries are limited per tenant; an event
 * id is a duplicate only within its own tenant.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../../contract/messages';
import { paymentProviders, providerWebhookEvents } from '../../../server/db/schema';
import { webhookMessages } from '../../../server/modules/billing/payment.routes';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { createTestContext, type TestContext } from '../helpers/test-app';
import type { FastifyInstance } from 'fastify';

const STRIPE_WHSEC = 'whsec_rinnova_doors';
let ctx: TestContext;
let paypal: FakePayPal;
let stripe: FakeStripe;
let demo: number;
let rossi: number;
/** A tenant with providers but neither a PayPal webhook id nor a Stripe signing secret. */
let bare: number;

async function post(
  app: FastifyInstance,
  url: string,
  signed: { headers: Record<string, string>; body: string },
  remoteAddress = '203.0.113.7',
) {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: signed.headers,
    payload: signed.body,
    remoteAddress,
  });
  return { status: res.statusCode, body: res.body, retryAfter: res.headers['retry-after'] };
}

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  ctx = await createTestContext();
  demo = await ctx.tenantId('Demo Srl');
  rossi = await ctx.tenantId('Studio Rossi');
  const superadmin = await ctx.as('superadmin');
  // A third tenant, with a PayPal without webhook id and a Stripe without signing secret.
  const created = await superadmin.post<{ id: number }>('/api/tenant/Create', { name: 'Senza Webhook Srl' });
  expect(created.status, created.raw).toBe(200);
  bare = created.body.data!.id;
  for (const [tenant, paypalWebhookId, stripeSecret] of [
    [demo, 'WH-DEMO', STRIPE_WHSEC],
    [rossi, 'WH-ROSSI', STRIPE_WHSEC],
    [bare, null, null],
  ] as const) {
    const api = await ctx.as('superadmin', tenant);
    await ctx.db
      .update(paymentProviders)
      .set({ isActive: false })
      .where(eq(paymentProviders.tenantId, tenant));
    for (const body of [
      {
        name: 'PayPal (finto)',
        kind: 'paypal',
        apiUrl: paypal.url,
        apiKey: 'c',
        apiSecret: 's',
        webhookId: paypalWebhookId,
      },
      {
        name: 'Stripe (finto)',
        kind: 'stripe',
        apiUrl: stripe.url,
        apiKey: 'pk_test_x',
        apiSecret: 'sk_test_x',
        webhookSecret: stripeSecret,
      },
    ]) {
      const res = await api.post('/api/paymentprovider/Create', { mode: 'sandbox', isActive: true, ...body });
      expect(res.status, res.raw).toBe(200);
    }
  }
});
afterAll(async () => {
  await ctx?.close();
  await Promise.all([paypal?.close(), stripe?.close()]);
});

describe('POST api/webhooks/stripe/{tenantId}: one refusal whatever the tenant’s setup', () => {
  it('answers the same 400 for a wrong signature, no signing secret, no Stripe, an unreadable secret or no tenant', async () => {
    const event = stripe.event('customer.subscription.deleted', { id: 'sub_x', status: 'canceled' });
    const signed = stripe.signWebhook(event, STRIPE_WHSEC);
    const stored = async () => (await ctx.db.select().from(providerWebhookEvents)).length;
    const before = await stored();
    const answers = [
      await post(
        ctx.app,
        `/api/webhooks/stripe/${demo}`,
        stripe.signWebhook(event, STRIPE_WHSEC, { tamper: true }),
      ),
      await post(ctx.app, `/api/webhooks/stripe/${demo}`, {
        headers: { 'content-type': 'application/json' },
        body: signed.body,
      }),
      await post(ctx.app, `/api/webhooks/stripe/${bare}`, signed),
      await post(ctx.app, `/api/webhooks/stripe/987654`, signed),
    ];
    // Studio Rossi's Stripe key unreadable (sealed with a key no longer configured), for a moment.
    const [rossiStripe] = await ctx.db
      .select()
      .from(paymentProviders)
      .where(
        and(
          eq(paymentProviders.tenantId, rossi),
          eq(paymentProviders.kind, 'stripe'),
          eq(paymentProviders.isActive, true),
        ),
      );
    await ctx.db
      .update(paymentProviders)
      .set({ apiSecretEncrypted: 'v2.xxxxxxxx.aaaa.bbbb.cccc' })
      .where(eq(paymentProviders.id, rossiStripe!.id));
    answers.push(await post(ctx.app, `/api/webhooks/stripe/${rossi}`, signed));
    await ctx.db
      .update(paymentProviders)
      .set({ apiSecretEncrypted: rossiStripe!.apiSecretEncrypted })
      .where(eq(paymentProviders.id, rossiStripe!.id));
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toBe(answers[0]!.body);
    }
    expect(JSON.parse(answers[0]!.body).message).toBe(webhookMessages.unverified);
    expect(await stored()).toBe(before);
    // The tenant whose secret signed it accepts it: the refusals above were not a broken route.
    expect((await post(ctx.app, `/api/webhooks/stripe/${demo}`, signed)).status).toBe(200);
  });
});

describe('POST api/webhooks/paypal/{tenantId}', () => {
  it('one refusal for every reason; unsigned deliveries and tenants without a webhook id cost no call to PayPal', async () => {
    const event = paypal.event('BILLING.SUBSCRIPTION.CANCELLED', { id: 'I-NOBODY', status: 'CANCELLED' });
    const signed = paypal.signWebhook(event, 'WH-DEMO');
    const calls = paypal.calls.length;
    const quiet = [
      await post(ctx.app, `/api/webhooks/paypal/${demo}`, {
        headers: { 'content-type': 'application/json' },
        body: signed.body,
      }),
      await post(ctx.app, `/api/webhooks/paypal/${bare}`, signed),
      await post(ctx.app, `/api/webhooks/paypal/987654`, signed),
    ];
    expect(paypal.calls.length).toBe(calls);
    // A signature PayPal does not confirm: one verification call, the same answer.
    const tampered = await post(
      ctx.app,
      `/api/webhooks/paypal/${demo}`,
      paypal.signWebhook(event, 'WH-DEMO', { tamper: true }),
    );
    expect(paypal.calls.slice(calls).filter((c) => c.includes('verify-webhook-signature'))).toHaveLength(1);
    for (const answer of [...quiet, tampered]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toBe(quiet[0]!.body);
    }
    expect(JSON.parse(tampered.body).message).toBe(webhookMessages.unverified);
    expect((await post(ctx.app, `/api/webhooks/paypal/${demo}`, signed)).status).toBe(200);
  });

  it('signed deliveries are limited per tenant (429 with Retry-After, no call to PayPal); unsigned ones cost nothing and stay 400', async () => {
    const limited = await ctx.buildAnotherApp({ RATE_LIMIT_WEBHOOK_TENANT: '2' });
    const event = paypal.event('BILLING.SUBSCRIPTION.CANCELLED', { id: 'I-NOBODY', status: 'CANCELLED' });
    const signed = paypal.signWebhook(event, 'WH-ROSSI');
    // From three addresses: the limit is the tenant's, not an address's.
    expect((await post(limited, `/api/webhooks/paypal/${rossi}`, signed, '198.51.100.1')).status).toBe(200);
    expect((await post(limited, `/api/webhooks/paypal/${rossi}`, signed, '198.51.100.2')).status).toBe(200);
    const calls = paypal.calls.length;
    const over = await post(limited, `/api/webhooks/paypal/${rossi}`, signed, '198.51.100.3');
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body).message).toBe(serverMessages.rateLimited);
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    expect(paypal.calls.length).toBe(calls);
    // Unknown and unconfigured tenants count the same way (a 429 tells nothing of a setup).
    const unknown = paypal.signWebhook(event, 'WH-X');
    await post(limited, `/api/webhooks/paypal/987654`, unknown);
    await post(limited, `/api/webhooks/paypal/987654`, unknown);
    expect((await post(limited, `/api/webhooks/paypal/987654`, unknown)).status).toBe(429);
    // Unsigned: refused at once, never counted.
    const unsigned = await post(limited, `/api/webhooks/paypal/${rossi}`, {
      headers: { 'content-type': 'application/json' },
      body: signed.body,
    });
    expect(unsigned.status).toBe(400);
    // Another tenant has its own budget.
    expect(
      (await post(limited, `/api/webhooks/paypal/${demo}`, paypal.signWebhook(event, 'WH-DEMO'))).status,
    ).toBe(200);
  });
});

describe('duplicate provider events are per tenant', () => {
  const outcomes = async (eventId: string) =>
    (
      await ctx.db
        .select({ tenantId: providerWebhookEvents.tenantId })
        .from(providerWebhookEvents)
        .where(eq(providerWebhookEvents.eventId, eventId))
    )
      .map((r) => r.tenantId)
      .sort((a, b) => a - b);

  it('the same Stripe event id for two tenants is each one’s; again for one of them is a duplicate', async () => {
    const event = stripe.event('customer.subscription.deleted', { id: 'sub_shared', status: 'canceled' });
    const signed = stripe.signWebhook(event, STRIPE_WHSEC);
    const toDemo = JSON.parse((await post(ctx.app, `/api/webhooks/stripe/${demo}`, signed)).body);
    const toRossi = JSON.parse((await post(ctx.app, `/api/webhooks/stripe/${rossi}`, signed)).body);
    expect(toDemo.data.outcome).not.toBe('duplicate');
    expect(toRossi.data.outcome).not.toBe('duplicate');
    const again = JSON.parse((await post(ctx.app, `/api/webhooks/stripe/${demo}`, signed)).body);
    expect(again.data.outcome).toBe('duplicate');
    expect(await outcomes(event.id as string)).toEqual([demo, rossi].sort((a, b) => a - b));
  });

  it('the same PayPal event id for two tenants is each one’s', async () => {
    const event = paypal.event('BILLING.SUBSCRIPTION.CANCELLED', { id: 'I-SHARED', status: 'CANCELLED' });
    const toDemo = JSON.parse(
      (await post(ctx.app, `/api/webhooks/paypal/${demo}`, paypal.signWebhook(event, 'WH-DEMO'))).body,
    );
    const toRossi = JSON.parse(
      (await post(ctx.app, `/api/webhooks/paypal/${rossi}`, paypal.signWebhook(event, 'WH-ROSSI'))).body,
    );
    expect(toDemo.data.outcome).not.toBe('duplicate');
    expect(toRossi.data.outcome).not.toBe('duplicate');
    const again = JSON.parse(
      (await post(ctx.app, `/api/webhooks/paypal/${rossi}`, paypal.signWebhook(event, 'WH-ROSSI'))).body,
    );
    expect(again.data.outcome).toBe('duplicate');
    expect(await outcomes(event.id as string)).toEqual([demo, rossi].sort((a, b) => a - b));
  });
});
