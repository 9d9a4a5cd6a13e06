/**
 * Getting paid, in Chromium against the real server and a fake PayPal on loopback (started here;
 * Demo Srl's PayPal row is pointed at it through the API). PayPal's browser SDK is answered by
 * the fake's stub through request interception: nothing reaches the internet.
 * Admin: plan synced with PayPal, payment link offered after create (copy + QR); a signed-out
 * customer pays; Active; the link replayed says 'Token non valido.'; cancel → Canceled (and at
 * PayPal). A prospect subscribes through the plan widget framed by another site, confirms through
 * the e-mailed link (outbox), then pays; the confirmation page's states at 390 and 1280 px.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startFakePayPal, type FakePayPal } from '../../server/providers/fake-paypal';
import {
  accounts,
  api,
  apiLogin,
  DEMO_TENANT,
  env,
  login,
  outboxSnapshot,
  screenshot,
  tenantIdByName,
  toast,
  waitForMail,
} from './support';

test.describe.configure({ mode: 'serial' });

let fake: FakePayPal;
let token: string;
let tenantId: number;
let planId: number;
let planName: string;
// Another site: a tiny server of this test on another loopback port (another origin). A page
// answered by interception would count as public, and Chromium's local-network checks block a
// public page from framing a loopback address.
let shop: Server;
let SHOP = '';
/** The confirmation link the widget e-mailed (the next test opens it once it is spent). */
let widgetLink = '';

/** PayPal's SDK script (any host) answered by the fake's stub; anything else of PayPal refused. */
/**
 * PayPal's SDK answered by the fake's stub, as if served from www.paypal.com: the page's CSP admits
 * only PayPal's hosts, so the stub's calls go to paypal.com too and are forwarded here to the fake
 * on loopback (the browser never reaches the internet).
 */
async function stubPayPal(context: BrowserContext | Page) {
  const paypal = 'https://www.paypal.com';
  await context.route(/paypal\.com\//, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith('/sdk/js'))
      return route.fulfill({
        contentType: 'application/javascript',
        body: fake.sdkScript().split(fake.url).join(paypal),
      });
    if (url.pathname.startsWith('/fake/')) {
      const response = await route.fetch({ url: `${fake.url}${url.pathname}${url.search}` });
      return route.fulfill({ response });
    }
    return route.abort();
  });
}

test.beforeAll(async () => {
  fake = await startFakePayPal();
  const admin = await apiLogin(accounts.admin);
  token = admin.token;
  tenantId = await tenantIdByName(token, DEMO_TENANT);
  const providers = await api<{ items: { id: number; isActive: boolean; kind: string }[] }>(
    'GET',
    '/api/paymentprovider/getAll?page=1&pageSize=20',
    { token, tenantId },
  );
  const active = providers.body.data!.items.find((p) => p.kind === 'paypal' && p.isActive)!;
  const updated = await api('PUT', '/api/paymentprovider/Update', {
    token,
    tenantId,
    body: {
      id: active.id,
      name: 'PayPal (finto, e2e)',
      apiUrl: fake.url,
      apiKey: 'fake-client-id',
      apiSecret: 'fake-secret',
      webhookId: 'WH-E2E',
    },
  });
  expect(updated.status).toBe(200);
  planName = `Piano e2e ${Date.now().toString(36)}`;
  const plan = await api<{ id: number }>('POST', '/api/plan/Create', {
    token,
    tenantId,
    body: {
      name: planName,
      recurringCostBeforeVAT: 19.9,
      vatPercentage: 22,
      recurrenceType: 3,
      isActive: true,
    },
  });
  expect(plan.status).toBe(200);
  planId = plan.body.data!.id;
  await api('POST', `/api/plan/associateFeatures/${planId}`, {
    token,
    tenantId,
    body: [{ featureName: 'Report mensili' }, { featureName: 'Supporto prioritario' }],
  });
});
test.afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => (shop ? shop.close(resolve) : resolve(undefined)));
});

test('Admin links a plan to PayPal, a signed-out customer pays, the link works once, cancel reaches PayPal', async ({
  page,
  browser,
}) => {
  await login(page, accounts.admin, { to: `/plan/${planId}` });
  await page.getByRole('button', { name: 'Sincronizza con PayPal' }).click();
  await expect(page.getByText(/ID piano PayPal: P-/)).toBeVisible();

  // A new subscription for a customer: the detail page offers the link at once.
  const users = await api<{ items: { id: number; email: string }[] }>(
    'GET',
    '/api/user/getAll?page=1&pageSize=5&searchTerm=mario.rossi',
    { token, tenantId },
  );
  const customer = users.body.data!.items[0]!;
  const created = await api<{ id: number }>('POST', '/api/subscription/Create', {
    token,
    tenantId,
    body: { userId: customer.id, planId },
  });
  const subId = created.body.data!.id;
  await page.goto(`/subscription/${subId}?offerLink=1`);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Link di pagamento' })).toBeVisible();
  await expect(dialog.getByRole('img', { name: 'QR code del link di pagamento' })).toBeVisible();
  const link = await dialog.getByRole('textbox', { name: 'Link di pagamento' }).inputValue();
  // The tenant's prefix, then 256 random bits (server/db/tenancy/public-home.ts).
  expect(link).toMatch(/\/payment\?token=t\d+_[\w-]{43}&bypassTenant=true$/);

  // The customer, signed out, at 390 px.
  const customerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await stubPayPal(customerContext);
  const pay = await customerContext.newPage();
  await pay.goto(link);
  await expect(pay.getByText(planName)).toBeVisible();
  await expect(pay.getByTestId('payment-amount')).toHaveText('24,28 €');
  await expect(pay.getByText('Totale ogni 3 mesi')).toBeVisible();
  await expect(pay.getByText('Report mensili')).toBeVisible();
  await screenshot(pay, 'payments/payment-page-390');
  await pay.setViewportSize({ width: 1280, height: 800 });
  await screenshot(pay, 'payments/payment-page-1280');
  await pay.getByRole('button', { name: 'Abbonati con PayPal' }).click();
  await expect(pay.getByRole('main').getByText("Pagamento completato! Grazie per l'acquisto.")).toBeVisible();
  await expect(toast(pay, "Pagamento completato! Grazie per l'acquisto.")).toBeVisible();
  await screenshot(pay, 'payments/payment-done-1280');

  // The Admin sees it Active, paid with PayPal.
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByText('Sottoscrizione attiva').first()).toBeVisible();

  // The same link again: spent.
  await pay.goto(link);
  await expect(pay.getByRole('main').getByRole('alert')).toHaveText(/Token non valido\./);
  await expect(toast(pay, 'Token non valido.')).toBeVisible();
  await customerContext.close();

  // Cancel: at PayPal first, then Canceled.
  await page.getByRole('button', { name: 'Cancella sottoscrizione' }).click();
  await page.getByRole('button', { name: 'Sì, cancella' }).click();
  await expect(page.getByText('Sottoscrizione Cancellata').first()).toBeVisible();
  const paypalIds = [...fake.subscriptions.values()];
  expect(paypalIds).toHaveLength(1);
  expect(paypalIds[0]!.status).toBe('CANCELLED');
});

test('a page without a token, and a token that does not exist', async ({ page }) => {
  await stubPayPal(page);
  await page.goto('/payment');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(/Token mancante nella richiesta\./);
  await expect(toast(page, 'Token mancante nella richiesta.')).toBeVisible();
  await page.goto('/payment/process?token=sconosciuto&bypassTenant=true');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(/Token non valido\./);
  await expect(toast(page, 'Token non valido.')).toBeVisible();
});

test('a prospect subscribes through the plan widget framed by another site, then pays', async ({ page }) => {
  // The plan on PayPal (the first test does it through the button; this one may run alone).
  expect((await api('POST', `/api/plan/syncPaypal/${planId}`, { token, tenantId })).status).toBe(200);
  await stubPayPal(page);
  const html = `<!doctype html><html lang="it"><head><meta name="viewport" content="width=device-width"><title>Negozio</title></head>
<body style="margin:0;font-family:system-ui;background:#f1f5f9">
<h1 style="padding:16px;margin:0">Il nostro negozio</h1>
<iframe title="Abbonamento" src="${env.baseUrl}/widget/plan?planId=${planId}" style="border:0;width:100%;max-width:420px;height:640px;display:block;margin:0 auto"></iframe>
</body></html>`;
  shop = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  SHOP = `http://localhost:${(shop.address() as AddressInfo).port}/`;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(SHOP);
    const widget = page.frameLocator('iframe[title="Abbonamento"]');
    await expect(widget.getByRole('heading', { name: planName })).toBeVisible();
    await expect(widget.getByText('24,28 €')).toBeVisible();
    await screenshot(page, `payments/widget-${width}`);
  }
  const widget = page.frameLocator('iframe[title="Abbonamento"]');
  await widget.getByLabel('Email').fill('non-valida');
  await widget.getByRole('button', { name: 'Abbonati' }).click();
  await expect(widget.getByRole('alert')).toHaveText('Formato email non valido.');
  const email = `widget.${Date.now().toString(36)}@example.com`;
  const before = await outboxSnapshot();
  await widget.getByLabel('Email').fill(email);
  await widget.getByLabel('Nome (facoltativo)').fill('Cliente Widget');
  await widget.getByRole('button', { name: 'Abbonati' }).click();
  // Nothing is created yet: the widget says a confirmation e-mail was sent, and stays.
  await expect(widget.getByRole('heading', { name: 'Controlla la tua email' })).toBeVisible();
  await expect(widget.getByText(`Abbiamo inviato un link di conferma a ${email}`)).toBeVisible();
  expect(page.url()).toBe(SHOP);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(widget.getByRole('heading', { name: 'Controlla la tua email' })).toBeVisible();
    await screenshot(page, `payments/widget-sent-${width}`);
  }
  const noCustomer = await api<{ totalCount: number }>(
    'GET',
    `/api/subscription/getAll?page=1&pageSize=5&searchTerm=${encodeURIComponent(email)}`,
    { token, tenantId },
  );
  expect(noCustomer.body.data!.totalCount).toBe(0);

  // The person opens the e-mailed link: confirmation, then the payment page.
  const mail = await waitForMail((m) => m.to === email, before);
  expect(mail.subject).toBe(`${DEMO_TENANT}: conferma l’abbonamento «${planName}»`);
  const link = /https?:\/\/\S+\/widget\/confirm\?token=[\w-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(link!);
  await page.waitForURL(/\/payment\?token=/);
  await expect(page.getByText(planName)).toBeVisible();
  // Opened again before paying: the same payment page, nothing created twice.
  const paymentPage = page.url();
  await page.goto(link!);
  await page.waitForURL(/\/payment\?token=/);
  expect(page.url()).toBe(paymentPage);
  widgetLink = link!;
  await page.getByRole('button', { name: 'Abbonati con PayPal' }).click();
  await expect(
    page.getByRole('main').getByText("Pagamento completato! Grazie per l'acquisto."),
  ).toBeVisible();
  await expect(toast(page, "Pagamento completato! Grazie per l'acquisto.")).toBeVisible();
  const subs = await api<{ items: { subscriptionStatus: number; user: { email: string } }[] }>(
    'GET',
    `/api/subscription/getAll?page=1&pageSize=5&searchTerm=${encodeURIComponent(email)}`,
    { token, tenantId },
  );
  expect(subs.body.data!.items.map((s) => s.subscriptionStatus)).toEqual([1]);
});

test('the widget’s confirmation page: while confirming, a spent link, an unknown one (390 and 1280 px)', async ({
  page,
}) => {
  expect(widgetLink, 'the widget test ran first').not.toBe('');
  // Held open, to see the page while it confirms.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/subscription/subscribe/confirm', async (route) => {
    await held;
    await route.continue();
  });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(widgetLink);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(page.getByText('Stiamo confermando il tuo abbonamento…')).toBeVisible();
    await screenshot(page, `payments/widget-confirming-${width}`);
  }
  release();
  // The subscription is paid: its payment link is spent, so the confirmation link says it was used.
  const used = page.getByRole('alert');
  await expect(used).toContainText('Link già usato');
  await expect(used).toContainText('Questo link di conferma è già stato usato.');
  await expect(page).toHaveURL(widgetLink);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await screenshot(page, `payments/widget-confirm-used-${width}`);
  }
  await page.unroute('**/api/subscription/subscribe/confirm');
  await page.goto('/widget/confirm?token=sconosciuto');
  await expect(page.getByRole('alert')).toContainText('Link non valido');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await screenshot(page, `payments/widget-confirm-invalid-${width}`);
  }
});
