import { expect, test, type Page } from '@playwright/test';
import { accounts, expectNoHorizontalOverflow, login, screenshot } from './support';
import { adminCalls } from './support/demo-tenant';

/**
 * The demo seed's issue-30 stories (server/db/seed/demo-lifecycle.ts) as Demo Srl's Admin sees
 * them on a fresh start: the dashboard's 'Prove gratuite' card, the coupon list, a subscription
 * whose collection is paused, one with a downgrade scheduled and one with one-off charges.
 * Read-only; the screens are looked at in 1280 and 390 px.
 */

/** `ready`: what shows once the page is laid out again (charts only after a reload at the width). */
async function shots(page: Page, name: string, ready: () => Promise<void>) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.reload();
    await ready();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `demo-lifecycle/${width}-${name}`);
  }
}

interface Item {
  id: number;
  pause?: unknown;
  scheduledPlanChange?: unknown;
  trialState?: string | null;
}

test('the demo shows trials, coupons, a pause, a scheduled change and one-off charges', async ({ page }) => {
  test.setTimeout(180_000);
  const call = await adminCalls();
  const list = (await call<{ items: Item[] }>('GET', '/api/subscription/getAll?pageSize=100')).body.data!;
  const details = await Promise.all(
    list.items.map(async (s) => (await call<Item>('GET', `/api/subscription/GetById/${s.id}`)).body.data!),
  );
  const paused = details.find((s) => s.pause);
  const scheduled = details.find((s) => s.scheduledPlanChange);
  expect(paused).toBeDefined();
  expect(scheduled).toBeDefined();

  await login(page, accounts.admin, { to: '/' });
  const trials = page.getByRole('region', { name: 'Prove gratuite' });
  await shots(page, 'dashboard', async () => {
    await expect(trials).toBeVisible();
    await expect(trials.getByText('Prove in corso')).toBeVisible();
  });

  await page.goto('/coupon');
  await shots(page, 'coupons', async () => {
    await expect(page.getByText('PROMO20').first()).toBeVisible();
    await expect(page.getByText('RINNOVO15').first()).toBeVisible();
  });

  await page.goto(`/subscription/${paused!.id}`);
  await shots(page, 'paused', () => expect(page.getByRole('button', { name: 'Riprendi ora' })).toBeVisible());

  await page.goto(`/subscription/${scheduled!.id}`);
  await shots(page, 'scheduled-change', () =>
    expect(page.getByText(/Cambio piano programmato al/).first()).toBeVisible(),
  );
});
