/** 'Paga con carta' on the public payment page: POST payment/stripe/checkout {token}. */
import { apiPaths } from '../../../../contract/api-paths';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Public calls: no session, no tenant header. */
const publicCall = { tenantId: null } as const;

/** A Stripe Checkout Session for the token: `url` is Stripe's payment page. */
export function createStripeCheckout(token: string) {
  return unwrap<{ url: string; sessionId: string }>(
    http.post(apiPaths.payment.stripeCheckout, { token }, publicCall),
  );
}
