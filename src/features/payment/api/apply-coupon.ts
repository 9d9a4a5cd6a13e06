/** 'Hai un codice sconto?' on the public payment page: POST Payment/coupon {token, couponCode}. */
import { apiPaths } from '../../../../contract/api-paths';
import type { CouponQuote } from '../../../../contract/schemas/coupon-apply';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Public calls: no session, no tenant header. */
const publicCall = { tenantId: null } as const;

/** Applies the code to the link's payment; the quote of what is asked from now on. */
export function applyPaymentCoupon(token: string, couponCode: string) {
  return unwrap<CouponQuote>(http.post(apiPaths.payment.coupon, { token, couponCode }, publicCall));
}
