/**
 * A coupon waiting for the customer's approval on PayPal (issue 30,
 * src/features/customer-area/paypal-coupon-approval.tsx): the card shows the amounts and the link
 * 'Approva lo sconto su PayPal'; back from PayPal (`?paypalCoupon={id}`) the subscription is read
 * back once; without a waiting coupon nothing is shown.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import type { Subscription } from '../../../contract/schemas/subscription';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, ok, server } from '../msw/server';
import { payment, subscription } from '../subscription/fixtures';

const APPROVE = 'https://www.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-1';
const ACTIVE: Subscription = {
  ...subscription(11, 1, {
    nextBillingDate: '2026-04-15T09:00:00Z',
    payments: [
      payment({
        id: 511,
        method: 'paypal',
        periodStart: '2026-03-15T09:00:00Z',
        periodEnd: '2026-04-15T09:00:00Z',
        paidAt: '2026-03-15T09:00:00Z',
      }),
    ],
  }),
  paypalCouponApproval: {
    code: 'RVTRIMESTRE',
    approveUrl: APPROVE,
    amount: 28.3,
    fullAmount: 35.38,
    periods: 3,
    expiresAt: '2026-04-14T10:00:00Z',
  },
};

function customerServer(sub: Subscription) {
  const checks: string[] = [];
  server.use(
    apiGet('subscription/getAll', () => ok({ items: [sub], totalCount: 1 })),
    apiGet('invoice/getAll', () => ok({ items: [], totalCount: 0 })),
    apiGet('user/me/subscriptions/renewal', () => ok({ items: [] })),
    apiGet('user/me/subscriptions/:id/changePlan', () => ok({ allowed: false, plans: [] })),
    apiPost('user/me/subscriptions/:id/paypalCoupon', ({ params }) => {
      checks.push(String(params.id));
      return ok({ redeemed: true });
    }),
  );
  return checks;
}

const card = async () => (await screen.findByRole('heading', { name: 'Pro', level: 3 })).closest('li')!;

describe('a coupon waiting for approval on PayPal', () => {
  it('shows the amounts and the approval link; back from PayPal it is read back once', async () => {
    const checks = customerServer(ACTIVE);
    renderApp('/?paypalCoupon=11', { role: Role.User, tenantId: 1 });
    const c = await card();
    const box = await within(c).findByTestId('area-paypal-coupon');
    expect(box).toHaveTextContent('Sconto in attesa della tua approvazione: coupon RVTRIMESTRE');
    expect(box).toHaveTextContent(/28,30\s€ invece di 35,38\s€ per i prossimi 3 periodi/);
    expect(box).toHaveTextContent('Puoi approvarlo entro il 14/04/2026.');
    expect(within(box).getByRole('link', { name: 'Approva lo sconto su PayPal' })).toHaveAttribute(
      'href',
      APPROVE,
    );
    await waitFor(() => expect(checks).toEqual(['11']));
  }, 40_000);

  it('shows nothing and reads nothing back without a waiting coupon', async () => {
    const checks = customerServer({ ...ACTIVE, paypalCouponApproval: null });
    renderApp('/?paypalCoupon=11', { role: Role.User, tenantId: 1 });
    const c = await card();
    await waitFor(() => expect(within(c).queryByText('Prossimo addebito')).toBeInTheDocument());
    expect(within(c).queryByTestId('area-paypal-coupon')).not.toBeInTheDocument();
    expect(checks).toEqual([]);
  });
});
