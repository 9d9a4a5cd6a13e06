/**
 * The coupon's figures (the Admin's 'Coupon' card) of a payment that sets off a residual credit
 * (issue 30): one period's discounted amount stays the period's, the next payment's ask is shown
 * with the credit it sets off.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CouponFigures } from '../../../src/components/coupon-figures';

const withoutCredit = {
  code: 'DIECI',
  discountLabel: '10%',
  durationLabel: 'Una volta',
  periodsLeft: 1,
  discountAmount: 2.9,
  fullAmount: 35.38,
  amount: 31.84,
  applied: true,
};
const quote = { ...withoutCredit, amount: 19.64, creditUsed: 12.2 };

describe('CouponFigures with a residual credit', () => {
  it('per period the discounted amount; the next payment less the credit', () => {
    render(<CouponFigures coupon={quote} />);
    expect(screen.getByText('Per periodo').nextElementSibling).toHaveTextContent('35,38 €31,84 €');
    expect(screen.getByTestId('coupon-credit')).toHaveTextContent(
      'Prossimo pagamento19,64 €credito residuo −12,20 €',
    );
  });

  it('without a credit, as before', () => {
    render(<CouponFigures coupon={withoutCredit} />);
    expect(screen.getByText('Per periodo').nextElementSibling).toHaveTextContent('35,38 €31,84 €');
    expect(screen.queryByTestId('coupon-credit')).toBeNull();
  });
});
