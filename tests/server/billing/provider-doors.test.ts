/**
 * The payment providers' doors (issue 23): a provider's apiUrl is pinned to the provider's
 * official hosts in production (when saved, and before every call for rows saved earlier); a
 * stored secret is never sent to an address chosen after it (changing apiUrl asks for the secret
 * again); PayPal's and Stripe's calls go through the outbound door (the socket checked at connect
 * time, no redirects); a Stripe Checkout URL is followed only on checkout.stripe.com.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../../contract/messages';
import type { PaymentProvider } from '../../../contract/schemas/payment-provider';
import { paymentProviders } from '../../../server/db/schema';
import { createOutbound, type Outbound } from '../../../server/lib/outbound';
import { providerHostMessages, secretRetypeMessages } from '../../../server/lib/outbound/provider-hosts';
import { createSecretBox } from '../../../server/lib/secret-box';
import { startFakePayPal, type FakePayPal } from '../../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../../server/providers/fake-stripe';
import { ProviderError } from '../../../server/providers/payment-provider';
import { createPayPalAdapter } from '../../../server/providers/paypal';
import { createStripeAdapter } from '../../../server/providers/stripe';
import { dataOf } from '../helpers/entity-checks';
import {
  client,
  createTestContext,
  DEMO,
  JWT_SECRET,
  type ApiClient,
  type TestContext,
} from '../helpers/test-app';
import { planId } from './helpers';

const box = createSecretBox(JWT_SECRET);
let ctx: TestContext;
let admin: ApiClient;
let paypal: FakePayPal;
let stripe: FakeStripe;
let open: Outbound;
let guarded: Outbound;

beforeAll(async () => {
  [paypal, stripe] = await Promise.all([startFakePayPal(), startFakeStripe()]);
  open = createOutbound({ allowPrivate: true });
  guarded = createOutbound({ allowPrivate: false });
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
});
afterAll(async () => {
  open.close();
  guarded.close();
  await ctx?.close();
  await Promise.all([paypal?.close(), stripe?.close()]);
});

async function stored(id: number) {
  const [row] = await ctx.db.select().from(paymentProviders).where(eq(paymentProviders.id, id));
  return row!;
}

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('the call went through');
}

describe('a stored secret goes only to the address it was saved for', () => {
  let id: number;
  const base = {
    name: 'PayPal secondario',
    kind: 'paypal',
    mode: 'sandbox',
    apiKey: 'client-id',
    isActive: false,
  };

  it('changing apiUrl without typing the secret again is a 400 on apiSecret, and changes nothing', async () => {
    id = dataOf(
      await admin.post<PaymentProvider>('/api/paymentprovider/Create', {
        ...base,
        apiUrl: 'https://api-m.sandbox.paypal.com',
        apiSecret: 'segreto-originale',
      }),
    ).id;
    const before = await stored(id);
    for (const apiSecret of [undefined, null, '', '••••••••']) {
      const res = await admin.put('/api/paymentprovider/Update', {
        ...base,
        id,
        name: 'Cambiato',
        apiUrl: 'https://attaccante.example.com',
        ...(apiSecret === undefined ? {} : { apiSecret }),
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(serverMessages.validation);
      expect(res.body.errors).toEqual([`apiSecret: ${secretRetypeMessages.apiSecret}`]);
    }
    expect(await stored(id)).toEqual(before);
  });

  it('the same address written otherwise is no change; a new address with the secret typed again is saved', async () => {
    const same = await admin.put('/api/paymentprovider/Update', {
      ...base,
      id,
      apiUrl: 'https://API-M.sandbox.paypal.com/',
    });
    expect(same.status, same.raw).toBe(200);
    const moved = await admin.put('/api/paymentprovider/Update', {
      ...base,
      id,
      apiUrl: paypal.url,
      apiSecret: 'segreto-ridigitato',
    });
    expect(moved.status, moved.raw).toBe(200);
    const row = await stored(id);
    expect(row.apiUrl).toBe(paypal.url);
    expect(box.open(row.apiSecretEncrypted!, 'payment_providers.api_secret_encrypted', id)).toBe(
      'segreto-ridigitato',
    );
  });
});

describe('in production (the outbound guard on) apiUrl is one of the provider’s official hosts', () => {
  let guardedAdmin: ApiClient;
  beforeAll(async () => {
    const app = await ctx.buildAnotherApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
    const token = await ctx.login(DEMO.admin, DEMO.password);
    guardedAdmin = client(app, {
      authorization: `Bearer ${token}`,
      'x-tenant-id': String(await ctx.tenantId('Demo Srl')),
    });
  });

  const row = (kind: string, mode: string, apiUrl: string) => ({
    name: `${kind} ${mode}`,
    kind,
    mode,
    apiUrl,
    apiKey: 'client',
    apiSecret: 'segreto',
    isActive: false,
  });

  it.each([
    ['paypal', 'sandbox', 'http://127.0.0.1:8790'],
    ['paypal', 'sandbox', 'https://api-m.paypal.com'],
    ['paypal', 'live', 'https://api-m.sandbox.paypal.com'],
    ['paypal', 'sandbox', 'http://api-m.sandbox.paypal.com'],
    ['paypal', 'sandbox', 'https://api-m.sandbox.paypal.com:8443'],
    ['paypal', 'sandbox', 'https://api-m.sandbox.paypal.com.attaccante.example'],
    ['paypal', 'sandbox', 'https://utente@api-m.sandbox.paypal.com'],
    ['paypal', 'sandbox', 'https://api-m.sandbox.paypal.com/v1/altro'],
    ['stripe', 'sandbox', 'https://api.stripe.com.attaccante.example'],
    ['stripe', 'live', 'https://checkout.stripe.com'],
    ['stripe', 'sandbox', 'https://[::ffff:a9fe:a9fe]'],
  ])('%s %s at %s: 400 on apiUrl, nothing written', async (kind, mode, apiUrl) => {
    const count = async () => (await ctx.db.select().from(paymentProviders)).length;
    const before = await count();
    const res = await guardedAdmin.post('/api/paymentprovider/Create', row(kind, mode, apiUrl));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      `apiUrl: ${kind === 'stripe' ? providerHostMessages.stripe : providerHostMessages.paypal(mode as 'live')}`,
    ]);
    expect(await count()).toBe(before);
  });

  it.each([
    ['paypal', 'sandbox', 'https://api-m.sandbox.paypal.com'],
    ['paypal', 'live', 'https://api-m.paypal.com/'],
    ['stripe', 'sandbox', 'https://api.stripe.com'],
    ['stripe', 'live', 'https://api.stripe.com'],
  ])('%s %s at %s is saved', async (kind, mode, apiUrl) => {
    const res = await guardedAdmin.post('/api/paymentprovider/Create', row(kind, mode, apiUrl));
    expect(res.status, res.raw).toBe(200);
  });

  it('a row saved earlier at another address is refused before its secret is sent (409), the address hears nothing', async () => {
    // The tenant's active PayPal, pointed at the fake by the app with the guard off (development).
    const [active] = await ctx.db
      .select({ id: paymentProviders.id })
      .from(paymentProviders)
      .where(
        and(
          eq(paymentProviders.tenantId, await ctx.tenantId('Demo Srl')),
          eq(paymentProviders.kind, 'paypal'),
          eq(paymentProviders.isActive, true),
        ),
      );
    const pointed = await admin.put('/api/paymentprovider/Update', {
      id: active!.id,
      name: 'PayPal (finto)',
      apiUrl: paypal.url,
      apiKey: 'fake-client-id',
      apiSecret: 'fake-secret',
    });
    expect(pointed.status, pointed.raw).toBe(200);
    const before = paypal.calls.length;
    const basic = await planId(ctx, 'Demo Srl', 'Basic');
    const res = await guardedAdmin.post(`/api/plan/syncPaypal/${basic}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(providerHostMessages.storedPaypal);
    expect(paypal.calls.length).toBe(before);
    // The same call from the app with the guard off (development) reaches the fake.
    expect((await admin.post(`/api/plan/syncPaypal/${basic}`)).status).toBe(200);
    expect(paypal.calls.length).toBeGreaterThan(before);
  });
});

describe('PayPal and Stripe calls go through the outbound door', () => {
  it('PayPal: the guard refuses the fake on loopback at connect time; redirects are not followed', async () => {
    const credentials = { apiUrl: paypal.url, clientId: 'c', secret: 's' };
    const options = { timeoutMs: 5000, now: () => Date.now() };
    const before = paypal.calls.length;
    const refused = await providerError(
      createPayPalAdapter(credentials, { ...options, fetch: guarded.fetch(5000) }).getSubscription('I-X'),
    );
    expect(refused.kind).toBe('network');
    expect(paypal.calls.length).toBe(before);
    // A server answering 307 towards the fake: the token call is not repeated there.
    const redirector = http.createServer((req, res) => {
      res.writeHead(307, { location: `${paypal.url}${req.url}` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
      const error = await providerError(
        createPayPalAdapter(
          { ...credentials, apiUrl: url },
          { ...options, fetch: open.fetch(5000) },
        ).getSubscription('I-X'),
      );
      expect(error.providerStatus).toBe(307);
      expect(paypal.calls.length).toBe(before);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });

  it('Stripe: the package’s sockets come from the door (refused on loopback with the guard on)', async () => {
    const credentials = { apiUrl: stripe.url, secretKey: 'sk_test_x', webhookSecret: null };
    const before = stripe.calls.length;
    const refused = await providerError(
      createStripeAdapter(credentials, {
        timeoutMs: 5000,
        outbound: guarded,
        checkoutHostPinned: true,
      }).getPrice('price_x'),
    );
    expect(refused.kind).toBe('network');
    expect(stripe.calls.length).toBe(before);
    const reached = await providerError(
      createStripeAdapter(credentials, {
        timeoutMs: 5000,
        outbound: open,
        checkoutHostPinned: false,
      }).getPrice('price_x'),
    );
    expect(reached.kind).toBe('notFound');
    expect(stripe.calls.slice(before)).toEqual(['GET /v1/prices/price_x']);
  });

  it('Stripe Checkout: with the guard on, a session URL off checkout.stripe.com is not followed', async () => {
    const real = await startFakeStripe({ checkoutBaseUrl: 'https://checkout.stripe.com/c/pay' });
    try {
      for (const [fake, pinned, expected] of [
        [stripe, true, 'refused'],
        [stripe, false, 'followed'],
        [real, true, 'followed'],
      ] as const) {
        const adapter = createStripeAdapter(
          { apiUrl: fake.url, secretKey: 'sk_test_x', webhookSecret: null },
          { timeoutMs: 5000, outbound: open, checkoutHostPinned: pinned },
        );
        const product = await adapter.createProduct({ name: 'Piano' });
        const priceId = await adapter.createPlan({
          productId: product,
          name: 'Piano',
          priceCents: 1000,
          intervalMonths: 1,
        });
        const session = adapter.createCheckoutSession({
          priceId,
          successUrl: 'https://rinnova.example/ok',
          cancelUrl: 'https://rinnova.example/ko',
          clientReferenceId: 'r',
          metadata: {},
        });
        if (expected === 'refused') expect((await providerError(session)).kind).toBe('invalid');
        else
          expect((await session).url).toMatch(
            pinned ? /^https:\/\/checkout\.stripe\.com\// : /^http:\/\/127\.0\.0\.1/,
          );
      }
    } finally {
      await real.close();
    }
  });
});
