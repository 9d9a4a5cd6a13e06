/**
 * A plan change waiting for the customer's approval on PayPal (issue 30,
 * src/features/customer-area/paypal-plan-change-approval.tsx): the card shows the new plan, the
 * amount and the link 'Approva il nuovo piano su PayPal'; back from PayPal (`?paypalPlanChange={id}`)
 * the subscription is read back once; without a waiting change nothing is shown.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import type { Subscription } from '../../../contract/schemas/subscription';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, ok, server } from '../msw/server';
import { payment, subscription } from '../subscription/fixtures';

const APPROVE = 'https://www.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-2';
const ACTIVE: Subscription = {
  ...subscription(12, 1, {
    nextBillingDate: '2026-04-15T09:00:00Z',
    payments: [
      payment({
        id: 512,
        method: 'paypal',
        periodStart: '2026-03-15T09:00:00Z',
        periodEnd: '2026-04-15T09:00:00Z',
        paidAt: '2026-03-15T09:00:00Z',
      }),
    ],
  }),
  paypalPlanChangeApproval: {
    planChangeId: 7,
    planName: 'Mensile plus',
    approveUrl: APPROVE,
    amount: 47.58,
    fullAmount: 47.58,
  },
};

function customerServer(sub: Subscription) {
  const checks: string[] = [];
  server.use(
    apiGet('subscription/getAll', () => ok({ items: [sub], totalCount: 1 })),
    apiGet('invoice/getAll', () => ok({ items: [], totalCount: 0 })),
    apiGet('user/me/subscriptions/renewal', () => ok({ items: [] })),
    apiGet('user/me/subscriptions/:id/changePlan', () => ok({ allowed: false, plans: [] })),
    apiPost('user/me/subscriptions/:id/paypalPlanChange', ({ params }) => {
      checks.push(String(params.id));
      return ok({ approved: true });
    }),
  );
  return checks;
}

const card = async () => (await screen.findByRole('heading', { name: 'Pro', level: 3 })).closest('li')!;

describe('a plan change waiting for approval on PayPal', () => {
  it('shows the new plan, the amount and the approval link; back from PayPal it is read back once', async () => {
    const checks = customerServer(ACTIVE);
    renderApp('/?paypalPlanChange=12', { role: Role.User, tenantId: 1 });
    const c = await card();
    const box = await within(c).findByTestId('area-paypal-plan-change');
    expect(box).toHaveTextContent('Nuovo piano in attesa della tua approvazione: Mensile plus');
    expect(box).toHaveTextContent(/Pagherai 47,58\s€ a periodo\./);
    expect(box).toHaveTextContent('PayPal continua ad addebitare il piano precedente');
    expect(within(box).getByRole('link', { name: 'Approva il nuovo piano su PayPal' })).toHaveAttribute(
      'href',
      APPROVE,
    );
    await waitFor(() => expect(checks).toEqual(['12']));
  }, 40_000);

  it('with a running coupon: the discounted amount, then the full one', async () => {
    customerServer({
      ...ACTIVE,
      paypalPlanChangeApproval: { ...ACTIVE.paypalPlanChangeApproval!, amount: 38.06 },
    });
    renderApp('/', { role: Role.User, tenantId: 1 });
    const box = await within(await card()).findByTestId('area-paypal-plan-change');
    expect(box).toHaveTextContent(/Pagherai 38,06\s€ a periodo finché vale il coupon, poi 47,58\s€\./);
  });

  it('shows nothing and reads nothing back without a waiting change', async () => {
    const checks = customerServer({ ...ACTIVE, paypalPlanChangeApproval: null });
    renderApp('/?paypalPlanChange=12', { role: Role.User, tenantId: 1 });
    const c = await card();
    await waitFor(() => expect(within(c).queryByText('Prossimo addebito')).toBeInTheDocument());
    expect(within(c).queryByTestId('area-paypal-plan-change')).not.toBeInTheDocument();
    expect(checks).toEqual([]);
  });
});
