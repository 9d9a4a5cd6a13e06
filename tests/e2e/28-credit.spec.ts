import { expect, test, type Page } from '@playwright/test';
import { accounts, expectNoHorizontalOverflow, login, screenshot } from './support';
import { adminCalls, createCustomer, milanoId, stampOf, subscribeByTransfer } from './support/demo-tenant';

/**
 * 'Cambia piano' (issue 30): a downgrade made now credits more than it charges; the subscription
 * page shows the customer's credit ('Credito a favore del cliente') and that it will be set off on
 * the next payment, looked at in 1280 and 390 px.
 */

const DAY_MS = 86_400_000;
const norm = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
const eur = (value: number) =>
  norm(new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' }).format(value));

async function shots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `credit/${width}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a downgrade now leaves a credit the subscription page shows, to be set off on the next payment', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const call = await adminCalls();
  const stamp = stampOf();
  const customerId = await createCustomer(call, {
    name: `Paolo Serra ${stamp}`,
    email: `paolo.serra.${stamp}@example.it`,
    fiscalCode: 'RSSMRA80A01H501U',
    street: 'Via Dante 9',
    zip: '20121',
    municipality: await milanoId(call),
  });
  const plan = async (planName: string, cost: number) => {
    const res = await call<{ id: number }>('POST', '/api/plan/Create', {
      name: planName,
      recurringCostBeforeVAT: cost,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data!.id;
  };
  const plus = await plan(`Plus credito ${stamp}`, 50);
  const start = await plan(`Start credito ${stamp}`, 20);
  const { id } = await subscribeByTransfer(call, customerId, plus, 'confirmed', {
    startDate: new Date(Date.now() - 5 * DAY_MS).toISOString(),
  });
  const made = await call<{ residualCredit: number }>('POST', `/api/subscription/changePlan/${id}`, {
    planId: start,
    when: 'now',
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const credit = made.body.data!.residualCredit;
  expect(credit).toBeGreaterThan(0);

  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.admin, { to: `/subscription/${id}` });
  const box = page.getByTestId('subscription-credit');
  await expect(box).toContainText(`Credito a favore del cliente: ${eur(credit)}`);
  await expect(box).toContainText('Sarà scalato dal prossimo pagamento');
  await shots(page, 'subscription');
});
