/** PayPal approved on the public payment page: PUT payment/updatePayment {token, providerSubscriptionId}. */
import { apiPaths } from '../../../../contract/api-paths';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Public calls: no session, no tenant header. */
const publicCall = { tenantId: null } as const;

export function updatePayment(token: string, providerSubscriptionId: string) {
  return unwrap<{ result: string }>(
    http.put(apiPaths.payment.updatePayment, { token, providerSubscriptionId }, publicCall),
  );
}
