import { expect, test, type Page } from '@playwright/test';
import { startFakePayPal, type FakePayPal } from '../../server/providers/fake-paypal';
import {
  accounts,
  api,
  apiLogin,
  DEMO_TENANT,
  expectCustomerArea,
  expectNoHorizontalOverflow,
  login,
  outboxSnapshot,
  screenshot,
  tenantIdByName,
  toast,
  waitForMail,
  loginLinkOf,
} from './support';
import {
  adminCalls,
  createCustomer,
  milanoId,
  planByName,
  stampOf,
  subscribeByTransfer,
} from './support/demo-tenant';

/**
 * The customers' own area (issue 28), as a customer uses it: signed in from the e-mailed link,
 * they pay what is due by bank transfer ('Paga ora': IBAN, amount, causale), fill in the codice
 * fiscale their invoice waited for and download it from 'Le mie fatture'; then they turn the
 * renewal of a PayPal subscription off with a reason and back on. Screens at 390 and 1280 px.
 */

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `customer-area/${width}-${name}`);
  }
}

test('a new customer signs in from the e-mail, pays by bank transfer, fills in the codice fiscale and downloads the invoice that waited for it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const call = await adminCalls();
  const stamp = stampOf();
  // A private person with an address but no codice fiscale: their invoice cannot be issued yet.
  const email = `giulia.conti.${stamp}@example.it`;
  const customerId = await createCustomer(call, {
    name: 'Giulia Conti',
    email,
    street: 'Via Torino 12',
    zip: '20123',
    municipality: await milanoId(call),
  });
  const basic = await planByName(call, 'Basic');
  const { id: subscriptionId, payment } = await subscribeByTransfer(call, customerId, basic.id);

  // Signed in with the link the login page e-mails: no password ever.
  const before = await outboxSnapshot();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Ricevi un link di accesso' }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Invia il link di accesso' }).click();
  const mail = await waitForMail((m) => m.to === email, before);
  const link = loginLinkOf(mail);
  await page.goto(`${link.pathname}${link.search}`);
  await expectCustomerArea(page);

  // 'Da pagare ora': the bank transfer's data, each to copy.
  const due = page.getByRole('region', { name: 'Da pagare ora' });
  await expect(due).toContainText('Basic');
  await due.getByRole('button', { name: 'Paga ora' }).click();
  const transfer = page.getByRole('region', { name: 'Dati per il bonifico' });
  await expect(transfer).toBeVisible();
  await expect(transfer).toContainText(/IT\d{2}/);
  const amount = payment.amountDue.toFixed(2).replace('.', ',');
  await expect(transfer).toContainText(amount);
  await expect(transfer.getByRole('button', { name: /^Copia / }).first()).toBeVisible();
  await shots(page, 'home-pay-now');

  // The seller receives the transfer and confirms it: paid, but the invoice waits for the CF.
  const recorded = await call('POST', '/api/BankTransfer/create', {
    paymentId: payment.id,
    amount: payment.amountDue,
    approvalDate: new Date(Date.now() - 3_600_000).toISOString(),
  });
  expect(recorded.status).toBe(200);
  expect((await call('PUT', `/api/subscription/setActiveNoRenewal/${subscriptionId}`)).status).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/my/invoices');
  await expect(heading1(page, 'Le mie fatture')).toBeVisible();
  await expect(page.getByText('Nessuna fattura.')).toBeVisible();

  // 'Dati di fatturazione': a wrong check character is said on the field; the right one saves
  // and the invoice is issued at once.
  await page.getByRole('button', { name: 'Apri menu principale' }).click();
  await page
    .getByRole('dialog', { name: 'Menu principale' })
    .getByRole('link', { name: 'Dati di fatturazione' })
    .click();
  await expect(heading1(page, 'Dati di fatturazione')).toBeVisible();
  const cf = page.getByRole('textbox', { name: 'Codice fiscale' });
  await cf.fill('CNTGLI85M41F205X');
  await page.getByRole('button', { name: 'Salva dati di fatturazione' }).click();
  await expect(cf).toHaveAccessibleDescription(/codice fiscale/i);
  await shots(page, 'billing-invalid');
  await cf.fill('CNTGLI85M41F205P');
  await page.getByRole('button', { name: 'Salva dati di fatturazione' }).click();
  await expect(toast(page, 'Dati di fatturazione salvati: 1 fattura emessa.')).toBeVisible();

  await page.goto('/my/invoices');
  const invoices = page.getByRole('list', { name: 'Le mie fatture' });
  await expect(invoices.getByRole('listitem')).toHaveCount(1);
  await expect(invoices).toContainText(amount);
  const download = page.waitForEvent('download');
  await invoices.getByRole('button', { name: /^Scarica il PDF di / }).click();
  expect((await download).suggestedFilename()).toMatch(/^Fattura_\d{4}-\d+\.pdf$/);
  const xml = page.waitForEvent('download');
  await invoices.getByRole('button', { name: /^Scarica l’XML di / }).click();
  expect((await xml).suggestedFilename()).toMatch(/^IT\w+_\w+\.xml$/);
  await shots(page, 'my-invoices');
});

test.describe('renewal of a PayPal subscription', () => {
  let paypal: FakePayPal;
  test.beforeAll(async () => {
    paypal = await startFakePayPal();
    const call = await adminCalls();
    // Demo Srl's PayPal row, pointed at the loopback PayPal of this run.
    const providers = await call<{ items: { id: number; kind: string; isActive: boolean }[] }>(
      'GET',
      '/api/paymentprovider/getAll?page=1&pageSize=50',
    );
    const row = providers.body.data!.items.find((p) => p.kind === 'paypal' && p.isActive);
    expect(row).toBeDefined();
    const saved = await call('PUT', '/api/paymentprovider/Update', {
      id: row!.id,
      name: 'PayPal (finto, e2e)',
      kind: 'paypal',
      mode: 'sandbox',
      apiUrl: paypal.url,
      apiKey: 'client-e2e',
      apiSecret: 'secret-e2e',
      webhookId: 'WH-E2E-0001',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });
  test.afterAll(async () => paypal?.close());

  test('the customer turns it off with a reason (suspended at PayPal) and back on', async ({ page }) => {
    const cliente = await apiLogin(accounts.cliente);
    const tenantId = await tenantIdByName(cliente.token, DEMO_TENANT);
    const mine = await api<{
      items: {
        id: number;
        subscriptionStatus: number;
        plan: { name: string };
        payments: { providerSubscriptionId: string | null }[];
      }[];
    }>('GET', '/api/subscription/getAll?page=1&pageSize=50', { token: cliente.token, tenantId });
    const pro = mine.body.data!.items.find((s) => s.subscriptionStatus === 1)!;
    const paypalId = pro.payments.map((p) => p.providerSubscriptionId).find((id) => id !== null)!;
    expect(paypalId).toBeTruthy();
    paypal.subscriptions.set(paypalId, {
      id: paypalId,
      status: 'ACTIVE',
      plan_id: 'P-E2E',
      create_time: new Date().toISOString(),
    });

    await login(page, accounts.cliente);
    await expectCustomerArea(page);
    const card = page
      .getByRole('list', { name: 'I tuoi abbonamenti' })
      .locator('> li')
      .filter({ has: page.getByRole('heading', { name: pro.plan.name, exact: true }) });
    await card.getByRole('button', { name: 'Disattiva il rinnovo' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Perché disattivi il rinnovo?');
    await shots(page, 'renewal-dialog');
    await dialog.getByRole('radio', { name: 'Troppo costoso' }).check();
    await dialog.getByRole('textbox', { name: 'Vuoi dirci di più?' }).fill('Per ora ne faccio a meno');
    await dialog.getByRole('button', { name: 'Disattiva il rinnovo' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('Il rinnovo è disattivato: resta attivo fino al');
    expect(paypal.subscriptions.get(paypalId)?.status).toBe('SUSPENDED');
    await shots(page, 'renewal-stopped');

    // The seller reads the reason in the subscription's history.
    const call = await adminCalls();
    const detail = await call<{ history: { event: string; reason: string | null }[] }>(
      'GET',
      `/api/subscription/GetById/${pro.id}`,
    );
    expect(detail.status).toBe(200);
    const last = detail.body.data!.history.at(-1);
    expect(last?.event).toBe('stopRenewal');
    expect(last?.reason).toContain('Troppo costoso');

    await card.getByRole('button', { name: 'Riattiva il rinnovo' }).click();
    await expect(card.getByRole('button', { name: 'Disattiva il rinnovo' })).toBeVisible();
    expect(paypal.subscriptions.get(paypalId)?.status).toBe('ACTIVE');
  });
});
