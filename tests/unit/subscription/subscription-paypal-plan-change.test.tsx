/**
 * 'Cambia piano' on a subscription PayPal charges (issue 30): the Admin's subscription page says
 * the change waits for the customer's approval at PayPal (GetById's `paypalPlanChangeApproval`);
 * nothing when none waits.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { renderApp } from '../app/harness';
import { subscription, subscriptionServer } from './fixtures';

async function page(over: Parameters<typeof subscription>[2]) {
  subscriptionServer([subscription(12, 3, { scheduledPlanChange: null, ...over })]);
  renderApp('/subscription/12', { role: Role.Admin, tenantId: 1 });
  await screen.findByRole('heading', { name: 'Azioni disponibili' }, { timeout: 20_000 });
}

describe('a plan change waiting for the customer at PayPal', () => {
  it('is said on the subscription page', async () => {
    await page({
      paypalPlanChangeApproval: {
        planChangeId: 4,
        planName: 'Mensile plus',
        approveUrl: 'https://www.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-3',
        amount: 47.58,
        fullAmount: 47.58,
      },
    });
    const box = await screen.findByTestId('subscription-paypal-plan-change');
    expect(box).toHaveTextContent(
      'Il cambio al piano «Mensile plus» attende l’approvazione del cliente su PayPal',
    );
    expect(box).toHaveTextContent('PayPal continua ad addebitare il piano precedente');
  }, 30_000);

  it('none waiting: nothing shown', async () => {
    await page({ paypalPlanChangeApproval: null });
    expect(screen.queryByTestId('subscription-paypal-plan-change')).toBeNull();
  }, 30_000);
});
