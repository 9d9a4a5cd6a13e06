/**
 * 'Applica coupon' on a subscription PayPal charges (issue 30): the server revises it at PayPal and
 * answers the quote not applied; the Admin is told the customer must approve it on PayPal (not
 * 'Coupon … applicato.'), and the subscription page then shows the coupon waiting, with the
 * amounts and the approval link, instead of the form.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { couponMessages } from '../../../contract/messages';
import type { CouponQuote } from '../../../contract/schemas/coupon-apply';
import type { Subscription } from '../../../contract/schemas/subscription';
import { renderApp } from '../app/harness';
import { apiPost, ok, server } from '../msw/server';
import { subscription, subscriptionServer } from './fixtures';

const APPROVE = 'https://www.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-7';
const quote: CouponQuote = {
  code: 'RVTRIMESTRE',
  discountLabel: '20%',
  durationLabel: 'Per 3 periodi',
  periodsLeft: 3,
  discountAmount: 5.8,
  fullAmount: 35.38,
  amount: 28.3,
  applied: false,
};

describe("'Applica coupon' on a subscription PayPal charges", () => {
  it('says the customer must approve it on PayPal, then shows it waiting with the link', async () => {
    const sub: Subscription = { ...subscription(11, 1), coupon: null, paypalCouponApproval: null };
    subscriptionServer([sub]);
    const applied: boolean[] = [];
    server.use(
      apiPost('subscription/applyCoupon/:id', async ({ request }) => {
        const body = (await request.json()) as { preview: boolean };
        applied.push(!body.preview);
        if (!body.preview)
          sub.paypalCouponApproval = {
            code: quote.code,
            approveUrl: APPROVE,
            amount: quote.amount,
            fullAmount: quote.fullAmount,
            periods: 3,
            expiresAt: '2026-04-14T10:00:00Z',
          };
        return ok({ ...quote, approveUrl: body.preview ? null : APPROVE });
      }),
    );
    const { user } = renderApp('/subscription/11', { role: Role.Admin, tenantId: 1 });
    const card = (await screen.findByRole('heading', { name: 'Coupon' })).closest('section')!;
    await user.type(within(card as HTMLElement).getByLabelText('Codice del coupon'), 'rvtrimestre');
    await user.click(within(card as HTMLElement).getByRole('button', { name: 'Anteprima' }));
    await user.click(await within(card as HTMLElement).findByRole('button', { name: 'Applica coupon' }));

    expect(await screen.findByText(couponMessages.pendingAtPayPal('RVTRIMESTRE'))).toBeInTheDocument();
    expect(screen.queryByText(couponMessages.applied('RVTRIMESTRE'))).not.toBeInTheDocument();
    expect(applied).toEqual([false, true]);
    const waiting = await screen.findByTestId('subscription-coupon-waiting');
    expect(waiting).toHaveTextContent('in attesa dell’approvazione del cliente su PayPal');
    expect(waiting).toHaveTextContent(/28,30\s€ invece di 35,38\s€/);
    expect(waiting).toHaveTextContent(
      'Se non lo approva entro il 14/04/2026, la richiesta scade e si può applicare di nuovo un coupon.',
    );
    expect(within(waiting).getByRole('link', { name: APPROVE })).toHaveAttribute('href', APPROVE);
    expect(screen.queryByLabelText('Codice del coupon')).not.toBeInTheDocument();
  });
});
