import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged, SelectResult } from '../../contract/envelope';
import { messages, serverMessages } from '../../contract/messages';
import type { PaymentProvider } from '../../contract/schemas/payment-provider';
import { SECRET_MASK } from '../../contract/schemas/payment-provider';
import { validationMessages } from '../../contract/validation/italian';
import { paymentProviders } from '../../server/db/schema';
import { createSecretBox } from '../../server/lib/secret-box';
import { create, dataOf, expectOtherTenantUnreachable } from './helpers/entity-checks';
import { client, createTestContext, JWT_SECRET } from './helpers/test-app';
import type { ApiClient, ApiResponse, TestContext } from './helpers/test-app';

let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let demoId: number;
let rossiId: number;
const box = createSecretBox(JWT_SECRET);
const SLOT = 'payment_providers.api_secret_encrypted' as const;
const SECRET = 'EFx-super-segreto-0123456789';

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  rossiId = await ctx.tenantId('Studio Rossi');
});
afterAll(() => ctx.close());

const row = async (id: number) =>
  (await ctx.db.select().from(paymentProviders).where(eq(paymentProviders.id, id)))[0];
const providerCount = async () => (await ctx.db.select({ n: count() }).from(paymentProviders))[0]?.n;
// Inactive: the seeded sandbox row stays the tenant's one active PayPal (at most one per kind).
const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'PayPal',
  apiUrl: 'https://api-m.sandbox.paypal.com',
  apiKey: 'client-id-demo',
  isActive: false,
  ...overrides,
});
const expectNoSecret = (res: ApiResponse, secret = SECRET) => {
  expect(res.raw).not.toContain(secret);
  expect(res.raw).not.toContain('v1.');
};

describe('the API secret is write-only', () => {
  let provider: PaymentProvider;

  it('Create stores it encrypted and answers only the mask', async () => {
    const res = await admin.post<PaymentProvider>('/api/paymentprovider/Create', body({ ApiSecret: SECRET }));
    expectNoSecret(res);
    provider = dataOf(res);
    expect(provider).toEqual({
      id: expect.any(Number),
      name: 'PayPal',
      kind: 'paypal',
      mode: 'sandbox',
      webhookId: null,
      isActive: false,
      apiUrl: 'https://api-m.sandbox.paypal.com',
      apiKey: 'client-id-demo',
      apiSecret: SECRET_MASK,
      webhookSecret: null,
    });
    const stored = (await row(provider.id))?.apiSecretEncrypted ?? '';
    expect(stored).not.toContain(SECRET);
    // v2, the current key's id, bound to this row's api_secret_encrypted.
    expect(stored).toMatch(new RegExp(`^v2\\.${box.keyId}\\.`));
    expect(box.open(stored, SLOT, provider.id)).toBe(SECRET);
    // Another key, another row or another column cannot read it.
    expect(
      createSecretBox('another-server-secret-another-secret-0123').open(stored, SLOT, provider.id),
    ).toBeNull();
    expect(box.open(stored, SLOT, provider.id + 1)).toBeNull();
    expect(box.open(stored, 'payment_providers.webhook_secret_encrypted', provider.id)).toBeNull();
  });

  it('never appears in getAll, GetById or getAllForSelect', async () => {
    const list = await admin.get<Paged<PaymentProvider>>('/api/paymentprovider/getAll', {
      query: { pageSize: 100 },
    });
    expectNoSecret(list);
    expect(dataOf(list).items.every((p) => p.apiSecret === SECRET_MASK || p.apiSecret === null)).toBe(true);
    const one = await admin.get<PaymentProvider>(`/api/paymentprovider/GetById/${provider.id}`);
    expectNoSecret(one);
    expect(dataOf(one).apiSecret).toBe(SECRET_MASK);
    expectNoSecret(await admin.get<SelectResult>('/api/paymentprovider/getAllForSelect'));
  });

  it('an Update whose secret is absent, empty, null or the mask keeps it', async () => {
    const stored = (await row(provider.id))?.apiSecretEncrypted;
    for (const [i, secret] of [undefined, '', '   ', null, SECRET_MASK].entries()) {
      const res = await admin.put<PaymentProvider>('/api/paymentprovider/Update', {
        ...body({ apiKey: `client-${i}` }),
        id: provider.id,
        ...(secret === undefined ? {} : { apiSecret: secret }),
      });
      expectNoSecret(res);
      expect(dataOf(res)).toMatchObject({ apiKey: `client-${i}`, apiSecret: SECRET_MASK });
      expect((await row(provider.id))?.apiSecretEncrypted).toBe(stored);
    }
  });

  it('an Update with a new secret replaces it (and still answers the mask)', async () => {
    const res = await admin.put<PaymentProvider>('/api/paymentprovider/Update', {
      ...body(),
      id: provider.id,
      apiSecret: 'nuovo-segreto',
    });
    expectNoSecret(res, 'nuovo-segreto');
    expect(dataOf(res).apiSecret).toBe(SECRET_MASK);
    expect(box.open((await row(provider.id))?.apiSecretEncrypted ?? '', SLOT, provider.id)).toBe(
      'nuovo-segreto',
    );
  });
});

describe('validation and roles', () => {
  it('a new configuration needs name, http(s) URL, client id and secret (400, nothing written)', async () => {
    const before = await providerCount();
    const res = await admin.post('/api/paymentprovider/Create', {
      name: '',
      apiUrl: 'ftp://paypal.com',
      apiKey: '',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      `name: ${validationMessages.providerNameRequired}`,
      `apiUrl: ${validationMessages.apiUrlInvalid}`,
      `apiKey: ${validationMessages.apiKeyRequired}`,
      `apiSecret: ${validationMessages.apiSecretRequired}`,
    ]);
    const noSecret = await admin.post('/api/paymentprovider/Create', body({ apiSecret: SECRET_MASK }));
    expect(noSecret.body.errors).toEqual([`apiSecret: ${validationMessages.apiSecretRequired}`]);
    // An id in a Create body does not make it an update that may keep a (missing) secret.
    const withId = await admin.post('/api/paymentprovider/Create', { ...body({}), Id: 1 });
    expect(withId.status).toBe(400);
    expect(withId.body.errors).toEqual([`apiSecret: ${validationMessages.apiSecretRequired}`]);
    expect(await providerCount()).toBe(before);
  });

  it('a User may neither read nor write (403)', async () => {
    const before = await providerCount();
    expect((await cliente.get('/api/paymentprovider/getAll')).status).toBe(403);
    expect((await cliente.post('/api/paymentprovider/Create', body({ apiSecret: 'x' }))).status).toBe(403);
    expect(await providerCount()).toBe(before);
  });

  it('getAll searches and filters by name, in name order', async () => {
    await create(
      admin,
      'paymentprovider',
      body({ name: 'Stripe', apiUrl: 'https://api.stripe.com', apiSecret: 's' }),
    );
    const res = dataOf(
      await admin.get<Paged<PaymentProvider>>('/api/paymentprovider/getAll', {
        query: { 'filters[name]': 'STRI' },
      }),
    );
    expect(res).toMatchObject({ totalCount: 1, items: [{ name: 'Stripe' }] });
    const all = dataOf(await admin.get<Paged<PaymentProvider>>('/api/paymentprovider/getAll'));
    const names = all.items.map((p) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });
});

describe('GET api/paymentprovider/GetPayPalSettingsByTenant/{tenantId}', () => {
  const url = (tenantId: number) => `/api/paymentprovider/GetPayPalSettingsByTenant/${tenantId}`;

  it('is public (API key only) and answers only the client id of the PayPal row', async () => {
    const res = await ctx.api.get<{ apiKey: string }>(url(demoId));
    expect(res.status).toBe(200);
    // Demo Srl's first row named like PayPal: the seeded sandbox row (a placeholder client id).
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: { apiKey: 'SEGNAPOSTO-sandbox-client-id' },
    });
    expect(res.raw).not.toMatch(/secret|v1\./i);
    // Without the API key: 401.
    expect((await client(ctx.app, {}, null).get(url(demoId))).status).toBe(401);
  });

  it('prefers a row named like PayPal over the others', async () => {
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    await create(rossi, 'paymentprovider', body({ name: 'Stripe', apiKey: 'stripe-key', apiSecret: 'x' }));
    await create(
      rossi,
      'paymentprovider',
      body({ name: 'Conto PayPal live', apiKey: 'paypal-live', apiSecret: 'y' }),
    );
    expect((await ctx.api.get<{ apiKey: string }>(url(rossiId))).body.data).toEqual({
      apiKey: 'paypal-live',
    });
  });

  it('answers 404 with the Italian message when the tenant has none or does not exist', async () => {
    const empty = await ctx.as('superadmin');
    const tenant = dataOf(await empty.post<{ id: number }>('/api/tenant/Create', { name: 'Senza PayPal' }));
    for (const id of [tenant.id, 99_999]) {
      const res = await ctx.api.get(url(id));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: messages.payment.paypalNotConfigured, data: null });
    }
    expect((await ctx.api.get('/api/paymentprovider/GetPayPalSettingsByTenant/abc')).body.message).toBe(
      serverMessages.validation,
    );
  });
});

it('a provider of another tenant is out of reach (404) and unchanged', async () => {
  const rossi = await ctx.as('superadmin', 'Studio Rossi');
  const foreign = await create<PaymentProvider>(
    rossi,
    'paymentprovider',
    body({ name: 'Di Rossi', apiSecret: 'z' }),
  );
  await expectOtherTenantUnreachable(
    ctx,
    'paymentprovider',
    foreign.id,
    body({ name: 'Preso', apiSecret: 'rubato' }),
    () => row(foreign.id),
  );
});

describe('kind, mode, webhook id and one active provider of a kind per tenant', () => {
  it('a second active PayPal in the tenant is a 409 with a clear message, and nothing is written', async () => {
    const before = await providerCount();
    const res = await admin.post('/api/paymentprovider/Create', body({ isActive: true, apiSecret: 'x' }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Questo tenant ha già un fornitore attivo di questo tipo: disattiva l’altro prima di attivare questo.',
    );
    expect(await providerCount()).toBe(before);
    const live = dataOf(
      await admin.post<PaymentProvider>(
        '/api/paymentprovider/Create',
        body({ mode: 'live', apiUrl: 'https://api-m.paypal.com', webhookId: 'WH-1', apiSecret: 'x' }),
      ),
    );
    expect(live).toMatchObject({ kind: 'paypal', mode: 'live', webhookId: 'WH-1', isActive: false });
    const bad = await admin.post(
      '/api/paymentprovider/Create',
      body({ mode: 'prod', kind: 'bitcoin', apiSecret: 'x' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      'kind: Tipo di fornitore non valido (paypal o stripe).',
      'mode: Modalità non valida (sandbox o live).',
    ]);
  });
});
