/**
 * A coupon on the public payment page (issue 30), in Chromium against the real server and a fake
 * Stripe on loopback (Stripe.js and PayPal's SDK stubbed by interception, as file 18). A signed-out
 * customer opens the payment link, opens 'Hai un codice sconto?', types a wrong code (the error
 * under the field, the total unchanged), then a valid one: the discount line, the crossed-out
 * full price, the discounted total and for how many periods; PayPal is no longer offered (the plan
 * is on Stripe only: the link is Stripe's). Paying by card on the Checkout stand-in charges the discounted amount
 * (the Stripe coupon of the session), the subscription is Active and its invoice carries the
 * ScontoMaggiorazione SC and the discounted ImportoPagamento. 390 and 1280 px.
 */
import { expect, test, type BrowserContext } from '@playwright/test';
import { startFakePayPal, type FakePayPal } from '../../server/providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../server/providers/fake-stripe';
import {
  accounts,
  api,
  apiLogin,
  DEMO_TENANT,
  env,
  expectNoHorizontalOverflow,
  login,
  screenshot,
  tenantIdByName,
} from './support';

test.describe.configure({ mode: 'serial' });

let stripe: FakeStripe;
let paypal: FakePayPal;
let token: string;
let tenantId: number;
let planId: number;
let planName: string;
let code: string;

async function stubProviders(context: BrowserContext) {
  await context.route(/^https:\/\/([a-z0-9-]+\.)*stripe\.(com|network)\//, async (route) => {
    if (route.request().url().startsWith('https://js.stripe.com/'))
      return route.fulfill({
        contentType: 'application/javascript',
        body: 'window.Stripe = function () { return { elements: function () { return {}; } }; }; window.Stripe.version = 3;',
      });
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
    name: 'Stripe (finto, e2e coupon)',
    kind: 'stripe',
    mode: 'sandbox',
    apiUrl: stripe.url,
    apiKey: 'pk_test_e2e_coupon',
    apiSecret: 'sk_test_e2e_coupon',
    webhookSecret: 'whsec_e2e_coupon',
  };
  const saved = existing
    ? await api('PUT', '/api/paymentprovider/Update', { token, tenantId, body: { id: existing.id, ...row } })
    : await api('POST', '/api/paymentprovider/Create', { token, tenantId, body: row });
  expect(saved.status).toBe(200);
  const suffix = Date.now().toString(36).toUpperCase();
  planName = `Piano coupon e2e ${suffix}`;
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
  expect((await api('POST', `/api/plan/syncStripe/${planId}`, { token, tenantId })).status).toBe(200);
  code = `PRIMI3-${suffix}`;
  const coupon = await api('POST', '/api/coupon/Create', {
    token,
    tenantId,
    body: { code, percentOff: 10, duration: 'repeating', durationPeriods: 3, planIds: [planId] },
  });
  expect(coupon.status).toBe(200);
});
test.afterAll(async () => {
  await Promise.all([stripe?.close(), paypal?.close()]);
});

test('a customer enters a wrong code, then a valid one, pays the discounted total by card; Active, invoice with the discount', async ({
  browser,
}) => {
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
  expect(created.status).toBe(200);
  const subId = created.body.data!.id;
  const paymentId = created.body.data!.payments[0]!.id;
  const link = await api<{ paymentUrl: string }>('POST', '/api/PaymentToken/create', {
    token,
    tenantId,
    body: { paymentId },
  });
  expect(link.status).toBe(200);

  const customer = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await stubProviders(customer);
  const pay = await customer.newPage();
  await pay.goto(link.body.data!.paymentUrl);
  await expect(pay.getByText(planName)).toBeVisible();
  await expect(pay.getByTestId('payment-amount')).toHaveText('24,28 €');

  // A wrong code: the error under the field, nothing else changes.
  await pay.getByRole('button', { name: 'Hai un codice sconto?' }).click();
  const field = pay.getByRole('textbox', { name: 'Hai un codice sconto?' });
  await field.fill('sbagliato');
  await expect(field).toHaveValue('SBAGLIATO');
  await pay.getByRole('button', { name: 'Applica' }).click();
  await expect(pay.getByText('Coupon non valido', { exact: true })).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(pay.getByTestId('payment-amount')).toHaveText('24,28 €');
  await expectNoHorizontalOverflow(pay);
  await screenshot(pay, 'payments/coupon-error-390');

  // The valid code: 19,90 − 10 % = 17,91 + IVA 3,94 = 21,85, for the first 3 periods.
  await field.fill(code.toLowerCase());
  await pay.getByRole('button', { name: 'Applica' }).click();
  await expect(pay.getByTestId('payment-discount')).toContainText(code);
  await expect(pay.getByTestId('payment-discount')).toContainText('−1,99 €');
  await expect(pay.getByTestId('payment-amount')).toHaveText(/24,28\s€\s*21,85\s€/);
  await expect(pay.getByTestId('payment-coupon-periods')).toHaveText(
    'Sconto per i primi 3 periodi, poi 24,28 € al mese.',
  );
  await expect(pay.getByRole('textbox', { name: 'Hai un codice sconto?' })).toHaveCount(0);
  // Only the card now: the plan is on Stripe only, so the link is Stripe's (a link PayPal charges
  // keeps PayPal with the coupon's own PayPal plan: tests/server/billing/paypal-coupon.test.ts).
  await expect(pay.getByRole('radio', { name: 'PayPal' })).toHaveCount(0);
  await expect(pay.getByRole('button', { name: 'Paga con carta' })).toBeVisible();
  await expectNoHorizontalOverflow(pay);
  await screenshot(pay, 'payments/coupon-applied-390');
  await pay.setViewportSize({ width: 1280, height: 800 });
  await expectNoHorizontalOverflow(pay);
  await screenshot(pay, 'payments/coupon-applied-1280');

  // A reload keeps it (the link's payment is discounted on the server).
  await pay.reload();
  await expect(pay.getByTestId('payment-amount')).toHaveText(/21,85\s€$/);
  await expect(pay.getByTestId('payment-discount')).toContainText(code);

  // Stripe Checkout charges the discounted amount, then back to /payment/process.
  await pay.getByRole('button', { name: 'Paga con carta' }).click();
  await pay.waitForURL(`${stripe.url}/checkout/**`);
  await expect(pay.getByTestId('fake-checkout-amount')).toHaveText('€ 21,85');
  const [session] = [...stripe.sessions.values()];
  expect(stripe.coupons.get(session!.couponId!)).toMatchObject({
    amount_off: 243,
    duration: 'repeating',
    duration_in_months: 3,
  });
  await pay.getByRole('button', { name: 'Paga con carta' }).click();
  await pay.waitForURL(/\/payment\/process\?session_id=cs_test_/);
  await expect(pay.getByRole('main').getByText("Pagamento completato! Grazie per l'acquisto.")).toBeVisible();
  await customer.close();

  const sub = await api<{ subscriptionStatus: number; payments: { id: number; amountDue: number }[] }>(
    'GET',
    `/api/subscription/GetById/${subId}`,
    { token, tenantId },
  );
  expect(sub.body.data!.subscriptionStatus).toBe(1);
  expect(sub.body.data!.payments[0]!.amountDue).toBe(21.85);
  const invoices = await api<{ items: { id: number; paymentId: number; total: number }[] }>(
    'GET',
    '/api/invoice/getAll?page=1&pageSize=100',
    { token, tenantId },
  );
  const invoice = invoices.body.data!.items.find((i) => i.paymentId === paymentId);
  expect(invoice, 'the paid payment has its invoice').toBeDefined();
  expect(invoice!.total).toBe(21.85);
  const xml = await (
    await fetch(`${env.baseUrl}/api/invoice/xml/${invoice!.id}`, {
      headers: { 'x-api-key': env.apiKey, Authorization: `Bearer ${token}`, 'X-Tenant-Id': String(tenantId) },
    })
  ).text();
  expect(xml).toMatch(/<ScontoMaggiorazione>\s*<Tipo>SC<\/Tipo>\s*<Percentuale>10\.00<\/Percentuale>/);
  expect(xml).toContain('<ImportoPagamento>21.85</ImportoPagamento>');
});

test("an Admin applies a coupon on a subscription: 'Anteprima', 'Applica coupon', then the coupon in effect", async ({
  page,
}) => {
  const users = await api<{ items: { id: number }[] }>(
    'GET',
    '/api/user/getAll?page=1&pageSize=5&searchTerm=mario.rossi',
    { token, tenantId },
  );
  const created = await api<{ id: number }>('POST', '/api/subscription/Create', {
    token,
    tenantId,
    body: { userId: users.body.data!.items[0]!.id, planId },
  });
  expect(created.status).toBe(200);
  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.admin, { to: `/subscription/${created.body.data!.id}` });
  const card = page.getByRole('region', { name: 'Coupon' });
  const field = card.getByRole('textbox', { name: 'Codice del coupon' });
  await field.fill('nonesiste');
  await card.getByRole('button', { name: 'Anteprima' }).click();
  await expect(card.getByText('Coupon non valido', { exact: true })).toBeVisible();
  await field.fill(code);
  await card.getByRole('button', { name: 'Anteprima' }).click();
  await expect(card.getByText('Sconto per i prossimi 3 periodi.')).toBeVisible();
  await expect(card.getByText('21,85 €')).toBeVisible();
  await screenshot(page, 'subscriptions/coupon-preview-1280');
  await card.getByRole('button', { name: 'Applica coupon' }).click();
  await expect(card.getByTestId('subscription-coupon')).toContainText(code);
  await expect(card.getByTestId('coupon-periods-left')).toHaveText('3 rimasti');
  await expect(page.getByText(/·\s21,85\s€/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  await screenshot(page, 'subscriptions/coupon-applied-390');
});
