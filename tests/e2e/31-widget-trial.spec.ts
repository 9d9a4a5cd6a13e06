import { expect, test } from '@playwright/test';
import { expectNoHorizontalOverflow, screenshot } from './support';
import { adminCalls, stampOf } from './support/demo-tenant';

/**
 * The plan widget says 'prova' (issue 30): a plan with 14 trial days shows 'Prova gratuita di 14
 * giorni' and what is due from when; the confirmation page of a trial (and of a widget coupon
 * refused at the confirmation) stays to tell it. The confirmation's answer is stubbed here (the
 * real one is covered by tests/server/billing/widget-trial.test.ts and widget-coupon.test.ts).
 * Looked at in 390 and 1280 px (screenshots `widget-trial/`).
 */
test('the widget of a plan with a trial, and the confirmation that tells the trial and a refused coupon', async ({
  page,
}) => {
  const call = await adminCalls();
  const plan = await call<{ id: number }>('POST', '/api/plan/Create', {
    name: `Pro con prova ${stampOf()}`,
    recurringCostBeforeVAT: 30,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
    trialDays: 14,
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/widget/plan?planId=${plan.body.data!.id}`);
    await expect(page.getByText('Prova gratuita di 14 giorni')).toBeVisible();
    await expect(page.getByText(/^Poi 36,60\s€ al mese dal \d\d\/\d\d\/\d{4}, IVA inclusa\.$/)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `widget-trial/widget-${width}`);
  }

  await page.route('**/api/subscription/subscribe/confirm', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        success: true,
        message: 'Abbonamento confermato: completa il pagamento.',
        data: {
          paymentUrl: '/payment?token=finto&bypassTenant=true',
          result: 'created',
          trialEndsAt: new Date(Date.now() + 14 * 86_400_000).toISOString(),
          amount: 36.6,
          coupon: { code: 'ULTIMO', error: 'Coupon esaurito' },
        },
      }),
    }),
  );
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/widget/confirm?token=finto');
    await expect(page.getByText('Codice sconto non applicato')).toBeVisible();
    await expect(page.getByText(/^Prova gratuita attiva fino al /)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Paga ora' })).toBeVisible();
    await expect(page).toHaveURL(/\/widget\/confirm\?token=finto$/);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `widget-trial/confirm-${width}`);
  }
});
