import { expect, test, type Page } from '@playwright/test';
import { accounts, expectNoHorizontalOverflow, login, screenshot, toast } from './support';
import { adminCalls, createCustomer, milanoId, stampOf } from './support/demo-tenant';

/**
 * A free trial that converts (issue 30, 'Prove'). The seller's plan offers 14 days of trial; a
 * subscription created on it is usable at once ('In prova fino al …' beside its status, the end
 * date on the page, nothing paid); the customer's first payment arrives by bank transfer and the
 * seller records it with 'Segna come pagato': the trial is converted and its invoice is issued.
 * The screens are looked at in 1280 and 390 px.
 */

const DAY_MS = 86_400_000;
const romeDay = (d: Date) =>
  new Intl.DateTimeFormat('it-IT', {
    timeZone: 'Europe/Rome',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(d);

/** `settle`: the charts lay out again only after a reload at the new width. */
async function shots(page: Page, name: string, settle?: () => Promise<void>) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (settle) {
      await page.reload();
      await settle();
    }
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `trial/${width}-${name}`);
  }
}

test('a trial subscription: active with its end shown, converted by the first payment, its invoice issued', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const call = await adminCalls();
  const stamp = stampOf();
  const plan = await call<{ id: number; trialDays: number | null }>('POST', '/api/plan/Create', {
    name: `Pro in prova ${stamp}`,
    recurringCostBeforeVAT: 30,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
    trialDays: 14,
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  expect(plan.body.data!.trialDays).toBe(14);
  const name = `Marta Colombo ${stamp}`;
  const customerId = await createCustomer(call, {
    name,
    email: `marta.colombo.${stamp}@example.it`,
    fiscalCode: 'RSSMRA80A01H501U',
    street: 'Via Torino 12',
    zip: '20123',
    municipality: await milanoId(call),
  });
  const created = await call<{ id: number; trialEndsAt: string; payments: { id: number }[] }>(
    'POST',
    '/api/subscription/Create',
    { userId: customerId, planId: plan.body.data!.id },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const sub = created.body.data!;
  const ends = new Date(sub.trialEndsAt);
  expect(Math.round((ends.getTime() - Date.now()) / DAY_MS)).toBe(14);

  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.admin, { to: `/subscription/${sub.id}` });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('trial-badge')).toHaveText(`In prova fino al ${romeDay(ends)}`);
  // Live (entitlements true) without automatic renewal: nothing is charged during the trial.
  await expect(page.getByText('Attiva, ma senza rinnovo automatico').first()).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Fine del periodo di prova' })).toHaveValue(romeDay(ends));
  const panel = page.getByRole('region', { name: 'Periodo di prova' });
  await expect(panel).toContainText('36,60');
  await shots(page, 'running');

  // The first payment arrives by bank transfer: 'Segna come pagato'.
  await page.setViewportSize({ width: 1280, height: 900 });
  await panel.getByRole('button', { name: 'Segna come pagato' }).click();
  const dialog = page.getByRole('dialog', { name: 'Segna come pagato' });
  await expect(dialog).toContainText('36,60');
  await screenshot(page, 'trial/1280-mark-paid');
  await dialog.getByRole('button', { name: 'Segna come pagato' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Pagamento registrato: prova convertita.')).toBeVisible();
  await expect(page.getByTestId('trial-badge')).toHaveText('Prova convertita');
  await expect(panel).toHaveCount(0);
  await shots(page, 'converted');

  // The dashboard: trials running and the conversion of the last 12 months.
  await page.goto('/');
  const trials = page.getByRole('region', { name: 'Prove gratuite' });
  await expect(trials.getByTestId('kpi-trials-running')).toContainText('Prove in corso');
  await expect(trials.getByTestId('kpi-trials-conversion')).toContainText(/\d+,\d %/);
  await shots(page, 'dashboard', async () => {
    await expect(trials.getByTestId('kpi-trials-running')).toBeVisible();
  });

  // Its invoice was issued, once, for the first payment.
  const invoices = await call<{ items: { paymentId: number; number: string | null }[] }>(
    'GET',
    `/api/invoice/getAll?pageSize=100&searchTerm=${encodeURIComponent(name)}`,
  );
  expect(invoices.status, JSON.stringify(invoices.body)).toBe(200);
  expect(invoices.body.data!.items.filter((i) => i.paymentId === sub.payments[0]!.id)).toHaveLength(1);
});
