import { expect, test, type Page } from '@playwright/test';
import {
  DEMO_TENANT,
  accounts,
  api,
  apiLogin,
  expectNoHorizontalOverflow,
  login,
  screenshot,
  tenantIdByName,
} from './support';

/** The value of a KPI card, by its label. */
const kpi = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: label }) })
    .locator('dd')
    .first();

test.describe('dashboard on the demo history', () => {
  test('Admin of Demo Srl: KPIs, four charts from the server, at 1280 px and 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const session = await login(page, accounts.admin);
    expect(session.user.name).toBeTruthy();
    await expect(
      page.getByRole('heading', {
        level: 1,
        name: `Benvenuto, ${session.user.name}. Cosa vuoi fare oggi con Rinnova?`,
      }),
    ).toBeVisible();
    await expect(kpi(page, 'Entrate ricorrenti mensili (MRR)')).toHaveText(/^[1-9][\d.]*,\d\d\s€$/);
    await expect(kpi(page, 'Abbonamenti attivi')).toHaveText(/^[1-9]\d*$/);
    await expect(kpi(page, 'Tasso di churn')).toHaveText(/^\d+,\d %$|^—$/);
    for (const title of [
      'Fatturato ultimi 12 mesi',
      'Abbonamenti per piano',
      'Conteggio abbonamenti (Ultimi 12 mesi)',
      'Nuovi abbonamenti vs. Churn (Ultimi 12 mesi)',
    ]) {
      await expect(
        page.getByRole('region', { name: title }).locator('svg.recharts-surface').first(),
      ).toBeVisible();
    }
    // The donut's slices: Basic, Pro, Enterprise in the spec's colours.
    const slices = page
      .getByRole('region', { name: 'Abbonamenti per piano' })
      .locator('.recharts-pie-sector path');
    await expect(slices.first()).toHaveAttribute('fill', '#0ea5e9');
    await expect(slices.nth(1)).toHaveAttribute('fill', '#3b82f6');
    await expect(slices.nth(2)).toHaveAttribute('fill', '#6366f1');
    // The revenue axis in thousands of euro.
    await expect(
      page
        .getByRole('region', { name: 'Fatturato ultimi 12 mesi' })
        .getByText(/^\d+(,\d)?k$/)
        .first(),
    ).toBeVisible();
    // Same numbers after a reload.
    const mrr = await kpi(page, 'Entrate ricorrenti mensili (MRR)').textContent();
    await page.reload();
    await expect(kpi(page, 'Entrate ricorrenti mensili (MRR)')).toHaveText(mrr!);
    await page.waitForTimeout(0);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Benvenuto');
    // Typed greeting finished (the charts' animations are long over by then).
    await expect(page.locator('h1 + p')).toHaveText('Cosa vuoi fare oggi con Rinnova?');
    await screenshot(page, 'dashboard-1280');

    // A phone opens the dashboard at its own width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Fatturato ultimi 12 mesi' }).locator('svg.recharts-surface').first(),
    ).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await expect(page.locator('h1 + p')).toHaveText('Cosa vuoi fare oggi con Rinnova?');
    await screenshot(page, 'dashboard-390');
  });

  test('an activation raises the active count by one', async ({ page }) => {
    await login(page, accounts.admin);
    const active = kpi(page, 'Abbonamenti attivi');
    await expect(active).toHaveText(/^\d+$/);
    const before = Number(await active.textContent());

    // An Admin activates a subscription: create, bank transfer, transfer approved, confirm.
    const { token } = await apiLogin(accounts.admin);
    const tenantId = await tenantIdByName(token, DEMO_TENANT);
    const users = await api<{ items: { id: number; email: string }[] }>(
      'GET',
      '/api/user/getAll?page=1&pageSize=100',
      {
        token,
        tenantId,
      },
    );
    const customer = users.body.data!.items.find((u) => u.email === 'giulia.romano@example.it')!;
    const plans = await api<{ items: { id: number; name: string }[] }>(
      'GET',
      '/api/plan/getAll?page=1&pageSize=100',
      {
        token,
        tenantId,
      },
    );
    const basic = plans.body.data!.items.find((p) => p.name === 'Basic')!;
    const created = await api<{ id: number; amountDue: number; payments: { id: number }[] }>(
      'POST',
      '/api/subscription/Create',
      { token, tenantId, body: { userId: customer.id, planId: basic.id } },
    );
    expect(created.status).toBe(200);
    const sub = created.body.data!;
    expect(
      (await api('PUT', `/api/subscription/setPaymentWithBankTransfer/${sub.id}`, { token, tenantId }))
        .status,
    ).toBe(200);
    const transfer = await api('POST', '/api/BankTransfer/create', {
      token,
      tenantId,
      body: {
        paymentId: sub.payments[0]!.id,
        amount: sub.amountDue,
        approvalDate: new Date(Date.now() - 60_000).toISOString(),
      },
    });
    expect(transfer.status).toBe(200);
    expect(
      (await api('PUT', `/api/subscription/setActiveNoRenewal/${sub.id}`, { token, tenantId })).status,
    ).toBe(200);

    await page.goto('/subscription');
    await page.getByRole('link', { name: 'Rinnova, vai alla home' }).click();
    await expect(active).toHaveText(String(before + 1));
  });
});

test.describe('/hangfire', () => {
  test('SuperAdmin: the engine’s real counters and jobs; running a recurring job now shows it succeeded', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await login(page, accounts.superadmin, { to: '/hangfire' });
    await expect(page.getByRole('heading', { name: 'Status aggiornamento subscription' })).toBeVisible();
    await expect(page.getByTestId('counter-recurring')).toHaveText(/^[1-9]\d*$/);
    const succeeded = Number(await page.getByTestId('counter-succeeded').textContent());

    await page
      .getByRole('button', { name: 'Esegui ora: Sottoscrizioni senza rinnovo scadute → non attive' })
      .click();
    await expect(page.getByText('Job accodato: parte entro pochi secondi.')).toBeVisible();
    // The engine's workers run it (and the one job per tenant it enqueues); the page refreshes by itself.
    const rows = page
      .getByRole('row')
      .filter({ hasText: 'Sottoscrizioni senza rinnovo scadute → non attive' });
    await expect(rows.filter({ hasText: 'Tutti i tenant' }).first()).toContainText('Riuscito', {
      timeout: 30_000,
    });
    await expect(rows.filter({ hasText: 'Tenant ' }).first()).toContainText('Riuscito', { timeout: 30_000 });
    await expect
      .poll(async () => Number(await page.getByTestId('counter-succeeded').textContent()), {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(succeeded + 2);
    await screenshot(page, 'hangfire-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId('counter-succeeded')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'hangfire-390');
  });

  test('closed to an Admin: no sidebar entry, the page refused, the API 403', async ({ page }) => {
    await login(page, accounts.admin, { to: '/hangfire' });
    await expect(page.getByRole('heading', { name: 'Accesso negato' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Status aggiornamento subscription' })).toHaveCount(0);
    const { token } = await apiLogin(accounts.admin);
    expect((await api('GET', '/api/hangfire/stats', { token })).status).toBe(403);
    expect((await api('GET', '/api/hangfire/recent', { token })).status).toBe(403);
  });
});
