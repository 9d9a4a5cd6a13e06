/**
 * Issue 15 in Chromium: an Admin creates a tenant API key, copies it, the test calls the
 * entitlement API with it and the call shows in the key's log; then a webhook endpoint on a
 * loopback receiver started here, a subscription activated, the signed delivery arrives and its
 * attempt is listed. Screenshots at 1280 and 390 px.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import {
  accounts,
  api,
  apiLogin,
  env,
  expectNoHorizontalOverflow,
  login,
  screenshot,
  tenantIdByName,
  DEMO_TENANT,
} from './support';

const heading1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Delivery[] = [];
let receiver: http.Server;
let receiverUrl = '';

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/rinnova`;
});
test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

test.describe('Admin: integrations', () => {
  test('API key: create, copy, call the entitlement API, see the call in the log', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await login(page, accounts.admin, { to: '/apikey' });
    await expect(heading1(page, 'Chiavi API')).toBeVisible();
    const name = `Backend e2e ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Nuova chiave' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuova chiave API' });
    await dialog.getByLabel('Nome').fill(name);
    await dialog.getByRole('checkbox', { name: /Lettura/ }).check();
    await dialog.getByRole('button', { name: 'Crea chiave' }).click();
    await expect(dialog).toBeHidden();
    const secret = (await page.getByTestId('secret-value').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^rnv_live_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copia' }).click();
    await expect(page.getByRole('button', { name: 'Copiata ✓' })).toBeVisible();
    const clipboard = await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    );
    expect(clipboard).toBe(secret);
    await screenshot(page, 'integrations/apikey-1280');

    // The developer's product calls the entitlement API with the copied key.
    const res = await fetch(
      `${env.baseUrl}/api/v1/entitlements/check?customerEmail=cliente%40demo.rinnova.it&feature=report_avanzati`,
      { headers: { authorization: `Bearer ${clipboard}` } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    const body = (await res.json()) as { data: { allowed: boolean; feature: string } };
    expect(body.data.feature).toBe('report_avanzati');
    expect(typeof body.data.allowed).toBe('boolean');

    const row = page.getByTestId('api-key-row').filter({ hasText: name });
    await row.getByRole('link', { name: 'Registro' }).click();
    await expect(heading1(page, new RegExp(name))).toBeVisible();
    const log = page.getByTestId('request-log');
    await expect(log).toContainText('/api/v1/entitlements/check');
    await expect(log).toContainText('200');
    await expect(log).not.toContainText('cliente');
    await screenshot(page, 'integrations/apikey-log-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(log).toContainText('/api/v1/entitlements/check');
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'integrations/apikey-log-390');
    await page.goto('/apikey');
    await expect(page.getByTestId('api-key-row').filter({ hasText: name })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'integrations/apikey-390');
  });

  test('rate limits: an Admin reads them; a SuperAdmin edits them (field error, then saved)', async ({
    page,
  }) => {
    await login(page, accounts.admin, { to: '/apikey' });
    const card = page.getByRole('region', { name: 'Limiti di chiamate' });
    await expect(card.getByTestId('limits-read-only')).toContainText('al minuto');
    await expect(card.getByRole('button', { name: 'Salva limiti' })).toHaveCount(0);

    await login(page, accounts.superadmin, { to: '/apikey' });
    const perKey = card.getByLabel('Per chiave');
    const perTenant = card.getByLabel('Per tutto il tenant');
    await perKey.fill('9000');
    await perTenant.fill('900');
    await card.getByRole('button', { name: 'Salva limiti' }).click();
    await expect(card.getByText('Il limite per chiave non può superare quello del tenant.')).toBeVisible();
    await screenshot(page, 'integrations/apikey-limits-error-1280');
    await perKey.fill('900');
    await perTenant.fill('9.000');
    await card.getByRole('button', { name: 'Salva limiti' }).click();
    await expect(page.getByText('Limiti salvati.')).toBeVisible();
    await expect(perTenant).toHaveValue('9000');
    await page.reload();
    await expect(card.getByLabel('Per chiave')).toHaveValue('900');
    await screenshot(page, 'integrations/apikey-limits-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'integrations/apikey-limits-390');
  });

  test('webhook: endpoint on a loopback receiver, an activation arrives signed, its attempt is listed', async ({
    page,
  }) => {
    await login(page, accounts.admin, { to: '/webhook' });
    await expect(heading1(page, 'Webhook')).toBeVisible();
    await page.getByRole('button', { name: 'Nuovo endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuovo endpoint' });
    await dialog.getByLabel('URL').fill(receiverUrl);
    await dialog.getByRole('checkbox', { name: /Pagamento riuscito/ }).check();
    await dialog.getByRole('button', { name: 'Crea endpoint' }).click();
    await expect(dialog).toBeHidden();
    const secret = (await page.getByTestId('secret-value').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);

    // An Admin activates a subscription (bank transfer approved, activation confirmed).
    const session = await apiLogin(accounts.admin);
    const tenantId = await tenantIdByName(session.token, DEMO_TENANT);
    const call = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
      api<T>(method, url, { token: session.token, tenantId, body });
    const customers = await call<{ options: { value: number; label: string }[] }>(
      'GET',
      '/api/user/getAllForSelect?searchTerm=mario.rossi&pageSize=5',
    );
    const plans = await call<{ items: { id: number; name: string }[] }>(
      'GET',
      '/api/plan/getAll?pageSize=100',
    );
    const basic = plans.body.data!.items.find((p) => p.name === 'Basic')!;
    const sub = await call<{ id: number; payments: { id: number; amountDue: number }[] }>(
      'POST',
      '/api/subscription/Create',
      {
        userId: customers.body.data!.options[0]!.value,
        planId: basic.id,
      },
    );
    expect(sub.status).toBe(200);
    const id = sub.body.data!.id;
    const payment = sub.body.data!.payments[0]!;
    expect((await call('PUT', `/api/subscription/setPaymentWithBankTransfer/${id}`)).status).toBe(200);
    expect(
      (
        await call('POST', '/api/BankTransfer/create', {
          paymentId: payment.id,
          amount: payment.amountDue,
          approvalDate: new Date(Date.now() - 60_000).toISOString(),
        })
      ).status,
    ).toBe(200);
    expect((await call('PUT', `/api/subscription/setActiveNoRenewal/${id}`)).status).toBe(200);

    // The job engine sends it after commit, signed with the endpoint's secret.
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const types = received.map((r) => (JSON.parse(r.body) as { type: string }).type);
    expect(types).toEqual(expect.arrayContaining(['subscription.activated', 'payment.succeeded']));
    const activated = received.find((r) => r.body.includes('"subscription.activated"'))!;
    const [t, v1] = String(activated.headers['rinnova-signature'])
      .split(',')
      .map((p) => p.split('=')[1]);
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${activated.body}`).digest('hex'));
    expect(JSON.parse(activated.body).data.subscription.id).toBe(id);

    await page.reload();
    const delivery = page.getByTestId('delivery-row').filter({ hasText: 'subscription.activated' });
    await expect(delivery).toContainText('Consegnato');
    await delivery.getByRole('button', { name: 'Tentativi' }).click();
    await expect(delivery.getByTestId('attempts')).toContainText('HTTP 200');
    await screenshot(page, 'integrations/webhook-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(delivery.getByTestId('attempts')).toContainText('HTTP 200');
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'integrations/webhook-390');
  });
});
