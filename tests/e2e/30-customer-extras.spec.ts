/**
 * The customer's own view of a subscription after its first payment (issue 30), in Chromium
 * against the real server and a fake Stripe on loopback (started here; Demo Srl's Stripe row
 * pointed at it through the API; Stripe.js answered by a stub through request interception).
 * The Admin adds a one-off charge 'Subito' to the demo customer's subscription paid by transfer;
 * the customer sees it in their area ('Addebiti una tantum', 'Da pagare', 111,02 €) and under 'Da
 * pagare ora', pays it by card ('Paga ora' → the payment page of that charge → the Checkout
 * stand-in → back), and the area then reads 'Pagato'. Looked at in 1280 and 390 px.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startFakeStripe, type FakeStripe } from '../../server/providers/fake-stripe';
import {
  accounts,
  apiLogin,
  expectCustomerArea,
  expectNoHorizontalOverflow,
  login,
  screenshot,
} from './support';
import { adminCalls, stampOf, subscribeByTransfer } from './support/demo-tenant';

test.describe.configure({ mode: 'serial' });

let stripe: FakeStripe;

async function stubStripeJs(context: BrowserContext) {
  await context.route(/^https:\/\/([a-z0-9-]+\.)*stripe\.(com|network)\//, async (route) => {
    if (route.request().url().startsWith('https://js.stripe.com/'))
      return route.fulfill({
        contentType: 'application/javascript',
        body: 'window.Stripe = function (key) { window.__stripeKey = key; return { elements: function () { return {}; } }; }; window.Stripe.version = 3;',
      });
    return route.abort();
  });
}

async function shots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `customer-extras/${width}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.beforeAll(async () => {
  stripe = await startFakeStripe();
});
test.afterAll(async () => {
  await stripe?.close();
});

test('the customer sees a one-off charge in their area and pays it by card', async ({ page, context }) => {
  test.setTimeout(180_000);
  const call = await adminCalls();
  const stamp = stampOf();
  // Demo Srl's Stripe (the fake of this file).
  const providers = await call<{ items: { id: number; isActive: boolean; kind: string }[] }>(
    'GET',
    '/api/paymentprovider/getAll?page=1&pageSize=50',
  );
  const existing = providers.body.data!.items.find((p) => p.kind === 'stripe' && p.isActive);
  const row = {
    name: 'Stripe (finto, e2e 28)',
    kind: 'stripe',
    mode: 'sandbox',
    apiUrl: stripe.url,
    apiKey: 'pk_test_e2e_rinnova_28',
    apiSecret: 'sk_test_e2e_secret',
    webhookSecret: 'whsec_e2e_secret',
  };
  const saved = existing
    ? await call('PUT', '/api/paymentprovider/Update', { id: existing.id, ...row })
    : await call('POST', '/api/paymentprovider/Create', row);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);

  const me = (await apiLogin(accounts.cliente)).user.id;
  const planName = `Area extra ${stamp}`;
  const plan = await call<{ id: number }>('POST', '/api/plan/Create', {
    name: planName,
    recurringCostBeforeVAT: 20,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  const { id } = await subscribeByTransfer(call, me, plan.body.data!.id, 'confirmed');
  const description = `Configurazione dominio ${stamp}`;
  const made = await call<{ paymentId: number; amountDue: number }>(
    'POST',
    `/api/subscription/charges/${id}`,
    {
      description,
      quantity: 2,
      unitPrice: '45,50',
      collect: 'now',
    },
  );
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  expect(made.body.data!.amountDue).toBe(111.02);

  await stubStripeJs(context);
  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.cliente);
  await expectCustomerArea(page);
  const card = page
    .getByRole('list', { name: 'I tuoi abbonamenti' })
    .locator('> li')
    .filter({ has: page.getByRole('heading', { name: planName, exact: true }) });
  const charges = card.getByRole('region', { name: 'Addebiti una tantum' });
  const item = charges.getByTestId('own-charge').filter({ hasText: description });
  await expect(item).toContainText('× 2');
  await expect(item).toContainText('111,02 €');
  await expect(item).toContainText('Da pagare');
  const due = page
    .getByRole('region', { name: 'Da pagare ora' })
    .getByTestId('due-card')
    .filter({ hasText: description });
  await expect(due).toContainText(`Addebito una tantum: «${description}»`);
  await expect(due).toContainText('111,02 €');
  await card.scrollIntoViewIfNeeded();
  await shots(page, 'charge-due');

  // 'Paga ora': the payment page of that charge, by card only.
  await due.getByRole('button', { name: /Paga ora/ }).click();
  await page.waitForURL(/\/payment\?token=/);
  const summary = page.getByTestId('payment-extra');
  await expect(summary).toContainText('Addebito una tantum');
  await expect(summary).toContainText(description);
  await expect(page.getByTestId('payment-amount')).toHaveText('111,02 €');
  await expect(
    page.getByText('Pagamento unico con carta: non cambia il rinnovo dell’abbonamento.'),
  ).toBeVisible();
  await shots(page, 'payment-page');

  await page.getByRole('button', { name: 'Paga con carta' }).click();
  await page.waitForURL(`${stripe.url}/checkout/**`);
  await expect(page.getByTestId('fake-checkout-amount')).toHaveText('€ 111,02');
  const session = [...stripe.sessions.values()].at(-1)!;
  expect(session).toMatchObject({ mode: 'payment', amount_total: 11102 });
  await page.getByRole('button', { name: 'Paga con carta' }).click();
  await page.waitForURL(/\/payment\/process\?session_id=cs_test_/);
  await expect(page.getByRole('main').getByText(/Pagamento completato!/)).toBeVisible();

  // Back in the area: paid, nothing due for it any more.
  await page.goto('/');
  await expectCustomerArea(page);
  await expect(item).toContainText('Pagato');
  // Paid once by card, the subscription still renews as before (its method is the periods').
  await expect(card).not.toContainText('Carta (Stripe)');
  await expect(
    page
      .getByRole('region', { name: 'Da pagare ora' })
      .getByTestId('due-card')
      .filter({ hasText: description }),
  ).toHaveCount(0);
  const charged = await call<{ status: string }[]>('GET', `/api/subscription/charges/${id}`);
  expect(charged.body.data![0]).toMatchObject({ status: 'paid' });
  await card.scrollIntoViewIfNeeded();
  await shots(page, 'charge-paid');
});

test('where the seller allows it, the customer pauses their collection and resumes it', async ({ page }) => {
  test.setTimeout(120_000);
  const call = await adminCalls();
  const stamp = stampOf();
  const tenantId = (
    await call<{ items: { id: number; name: string }[] }>('GET', '/api/tenant/getAll')
  ).body.data!.items.find((t) => t.name === 'Demo Srl')!.id;
  const tenant = (await call<Record<string, unknown>>('GET', `/api/tenant/GetById/${tenantId}`)).body.data!;
  expect((await call('PUT', '/api/tenant/Update', { ...tenant, customerPause: true })).status).toBe(200);
  try {
    const me = (await apiLogin(accounts.cliente)).user.id;
    const planName = `Area pausa ${stamp}`;
    const plan = await call<{ id: number }>('POST', '/api/plan/Create', {
      name: planName,
      recurringCostBeforeVAT: 15,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const { id } = await subscribeByTransfer(call, me, plan.body.data!.id, 'confirmed');

    await page.setViewportSize({ width: 1280, height: 900 });
    await login(page, accounts.cliente);
    await expectCustomerArea(page);
    const card = page
      .getByRole('list', { name: 'I tuoi abbonamenti' })
      .locator('> li')
      .filter({ has: page.getByRole('heading', { name: planName, exact: true }) });
    const pause = card.getByTestId('area-pause');
    await pause.getByLabel('Sospendi per').selectOption('2');
    await card.scrollIntoViewIfNeeded();
    await shots(page, 'pause-offered');
    await pause.getByRole('button', { name: 'Sospendi per 2 periodi' }).click();
    await expect(pause).toContainText('Incasso sospeso dal');
    const paused = await call<{ pause: { periods: number; entitlements: string } | null }>(
      'GET',
      `/api/subscription/GetById/${id}`,
    );
    expect(paused.body.data!.pause).toMatchObject({ periods: 2, entitlements: 'suspend' });
    await card.scrollIntoViewIfNeeded();
    await shots(page, 'paused');
    await pause.getByRole('button', { name: 'Riprendi ora' }).click();
    await expect(pause.getByRole('button', { name: /^Sospendi per \d+ period/ })).toBeVisible();
    const resumed = await call<{ pause: unknown }>('GET', `/api/subscription/GetById/${id}`);
    expect(resumed.body.data!.pause).toBeNull();
  } finally {
    // Back to the default, for the other files' customer area.
    expect((await call('PUT', '/api/tenant/Update', { ...tenant, customerPause: false })).status).toBe(200);
  }
});
