/**
 * Paying by card, in Chromium against the real server and a fake Stripe on loopback (started
 * here; Demo Srl gets a Stripe row pointed at it through the API, beside its PayPal). Stripe.js
 * (js.stripe.com) and PayPal's SDK are answered by stubs through request interception: nothing
 * reaches the internet. Admin: 'Sincronizza con Stripe' on a plan; a signed-out customer opens
 * the payment link, sees both ways to pay (390 and 1280 px), chooses the card, pays on the fake
 * Checkout (the redirect stand-in), is sent back to /payment/process, and the Admin sees Active.
 */
import { expect, test, type BrowserContext } from '@playwright/test';
import { startFakePayPal, type FakePayPal } from '../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../server/providers/fake-stripe';
import { accounts, api, apiLogin, DEMO_TENANT, login, screenshot, tenantIdByName, toast } from './support';

test.describe.configure({ mode: 'serial' });

const PUBLISHABLE_KEY = 'pk_test_e2e_rinnova';
let stripe: FakeStripe;
let paypal: FakePayPal;
let token: string;
let tenantId: number;
let planId: number;
let planName: string;

/**
 * Stripe.js answered by a stub that records the key it was given; PayPal's SDK by the fake
 * PayPal's stub (the page shows its button beside the card); anything else of theirs refused.
 */
async function stubProviders(context: BrowserContext, stripeJsRequests: string[]) {
  await context.route(/^https:\/\/([a-z0-9-]+\.)*stripe\.(com|network)\//, async (route) => {
    const url = route.request().url();
    if (url.startsWith('https://js.stripe.com/')) {
      stripeJsRequests.push(url);
      return route.fulfill({
        contentType: 'application/javascript',
        body: 'window.Stripe = function (key) { window.__stripeKey = key; return { elements: function () { return {}; } }; }; window.Stripe.version = 3;',
      });
    }
    return route.abort();
  });
  await context.route(/paypal\.com\//, async (route) => {
    if (new URL(route.request().url()).pathname.startsWith('/sdk/js'))
      return route.fulfill({ contentType: 'application/javascript', body: paypal.sdkScript() });
    return route.abort();
  });
}

test.beforeAll(async () => {
  [stripe, paypal] = await Promise.all([startFakeStripe(), startFakePayPal()]);
  const admin = await apiLogin(accounts.admin);
  token = admin.token;
  tenantId = await tenantIdByName(token, DEMO_TENANT);
  const providers = await api<{ items: { id: number; isActive: boolean; kind: string }[] }>(
    'GET',
    '/api/paymentprovider/getAll?page=1&pageSize=50',
    { token, tenantId },
  );
  const existing = providers.body.data!.items.find((p) => p.kind === 'stripe' && p.isActive);
  const row = {
    name: 'Stripe (finto, e2e)',
    kind: 'stripe',
    mode: 'sandbox',
    apiUrl: stripe.url,
    apiKey: PUBLISHABLE_KEY,
    apiSecret: 'sk_test_e2e_secret',
    webhookSecret: 'whsec_e2e_secret',
  };
  const saved = existing
    ? await api('PUT', '/api/paymentprovider/Update', { token, tenantId, body: { id: existing.id, ...row } })
    : await api('POST', '/api/paymentprovider/Create', { token, tenantId, body: row });
  expect(saved.status).toBe(200);
  planName = `Piano carta e2e ${Date.now().toString(36)}`;
  const plan = await api<{ id: number }>('POST', '/api/plan/Create', {
    token,
    tenantId,
    body: {
      name: planName,
      recurringCostBeforeVAT: 19.9,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
    },
  });
  expect(plan.status).toBe(200);
  planId = plan.body.data!.id;
  await api('POST', `/api/plan/associateFeatures/${planId}`, {
    token,
    tenantId,
    body: [{ featureName: 'Fatture elettroniche' }, { featureName: 'Assistenza via email' }],
  });
});
test.afterAll(async () => {
  await Promise.all([stripe?.close(), paypal?.close()]);
});

test('Admin puts a plan on Stripe; a signed-out customer chooses the card, pays on Checkout, comes back; Active', async ({
  page,
  browser,
}) => {
  await login(page, accounts.admin, { to: `/plan/${planId}` });
  await page.getByRole('button', { name: 'Sincronizza con Stripe' }).click();
  await expect(page.getByText(/ID prezzo Stripe: price_/)).toBeVisible();
  const [price] = [...stripe.prices.values()];
  expect(price).toMatchObject({
    unit_amount: 2428,
    currency: 'eur',
    recurring: { interval: 'month', interval_count: 1 },
  });

  const users = await api<{ items: { id: number }[] }>(
    'GET',
    '/api/user/getAll?page=1&pageSize=5&searchTerm=mario.rossi',
    { token, tenantId },
  );
  const created = await api<{ id: number; payments: { id: number }[] }>('POST', '/api/subscription/Create', {
    token,
    tenantId,
    body: { userId: users.body.data!.items[0]!.id, planId },
  });
  const subId = created.body.data!.id;
  const link = await api<{ paymentUrl: string }>('POST', '/api/PaymentToken/create', {
    token,
    tenantId,
    body: { paymentId: created.body.data!.payments[0]!.id },
  });
  expect(link.status).toBe(200);

  // The customer, signed out, at 390 px: both ways to pay, PayPal first.
  const stripeJs: string[] = [];
  const customer = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await stubProviders(customer, stripeJs);
  const pay = await customer.newPage();
  await pay.goto(link.body.data!.paymentUrl);
  await expect(pay.getByText(planName)).toBeVisible();
  await expect(pay.getByTestId('payment-amount')).toHaveText('24,28 €');
  await expect(pay.getByRole('radio', { name: 'PayPal' })).toBeChecked();
  await expect(pay.getByRole('button', { name: 'Abbonati con PayPal' })).toBeVisible();
  // Stripe.js is not loaded until the card is chosen.
  expect(stripeJs).toEqual([]);
  await screenshot(pay, 'payments/paypal-chosen-390');
  await pay.setViewportSize({ width: 1280, height: 800 });
  await screenshot(pay, 'payments/paypal-chosen-1280');

  await pay.getByText('Carta', { exact: true }).click();
  await expect(pay.getByRole('radio', { name: 'Carta' })).toBeChecked();
  await expect
    .poll(() => pay.evaluate(() => (globalThis as { __stripeKey?: string }).__stripeKey))
    .toBe(PUBLISHABLE_KEY);
  expect(stripeJs[0]).toMatch(/^https:\/\/js\.stripe\.com\//);
  await screenshot(pay, 'payments/card-chosen-1280');
  await pay.setViewportSize({ width: 390, height: 844 });
  await screenshot(pay, 'payments/card-chosen-390');

  // Stripe Checkout (the fake's stand-in), then back to /payment/process.
  await pay.getByRole('button', { name: 'Paga con carta' }).click();
  await pay.waitForURL(`${stripe.url}/checkout/**`);
  await expect(pay.getByTestId('fake-checkout-amount')).toHaveText('€ 24,28');
  const [session] = [...stripe.sessions.values()];
  expect(session).toMatchObject({
    mode: 'subscription',
    priceId: price!.id,
    customer_email: 'mario.rossi@example.com',
  });
  await pay.getByRole('button', { name: 'Paga con carta' }).click();
  await pay.waitForURL(/\/payment\/process\?session_id=cs_test_/);
  await expect(pay.getByRole('main').getByText("Pagamento completato! Grazie per l'acquisto.")).toBeVisible();
  await expect(toast(pay, "Pagamento completato! Grazie per l'acquisto.")).toBeVisible();
  await screenshot(pay, 'payments/card-paid-390');

  // Coming back again (a reload) changes nothing and still thanks the customer.
  await pay.reload();
  await expect(pay.getByRole('main').getByText("Pagamento completato! Grazie per l'acquisto.")).toBeVisible();
  await expect(toast(pay, "Pagamento completato! Grazie per l'acquisto.")).toBeVisible();
  // The link itself is spent.
  await pay.goto(link.body.data!.paymentUrl);
  await expect(pay.getByRole('main').getByRole('alert')).toHaveText(/Token non valido\./);
  await expect(toast(pay, 'Token non valido.')).toBeVisible();
  await customer.close();

  // The Admin sees it Active, paid by card through Stripe; cancelling reaches Stripe first.
  await page.goto(`/subscription/${subId}`);
  await expect(page.getByText('Sottoscrizione attiva').first()).toBeVisible();
  const sub = await api<{
    subscriptionStatus: number;
    payments: { method: string; providerSubscriptionId: string }[];
  }>('GET', `/api/subscription/GetById/${subId}`, { token, tenantId });
  expect(sub.body.data!.subscriptionStatus).toBe(1);
  expect(sub.body.data!.payments[0]).toMatchObject({
    method: 'stripe',
    providerSubscriptionId: session!.subscription,
  });
  await page.getByRole('button', { name: 'Cancella sottoscrizione' }).click();
  await page.getByRole('button', { name: 'Sì, cancella' }).click();
  await expect(page.getByText('Sottoscrizione Cancellata').first()).toBeVisible();
  expect(stripe.subscriptions.get(session!.subscription!)?.status).toBe('canceled');
});
