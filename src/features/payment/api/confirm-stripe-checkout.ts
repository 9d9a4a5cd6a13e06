/** Back from Stripe on the public payment page: PUT payment/stripe/confirm {sessionId, tenantId}. */
import { apiPaths } from '../../../../contract/api-paths';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Public calls: no session, no tenant header. */
const publicCall = { tenantId: null } as const;

/** Back from Stripe: the server confirms the session with Stripe, then records the payment. */
export function confirmStripeCheckout(sessionId: string, tenantId: number) {
  return unwrap<{ result: string }>(
    http.put(apiPaths.payment.stripeConfirm, { sessionId, tenantId }, publicCall),
  );
}
