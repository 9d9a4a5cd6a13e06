/** The widget's e-mailed link opened (POST subscription/subscribe/confirm). */
import { apiPaths } from '../../../../contract/api-paths';
import type { SubscribeConfirmAnswer } from '../../../../contract/schemas/payment';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Public calls: no session, no tenant header. */
const publicCall = { tenantId: null } as const;

/** The e-mailed link opened: customer, subscription and payment are made; `paymentUrl` is where to pay. */
export function confirmSubscription(token: string) {
  return unwrap<SubscribeConfirmAnswer>(
    http.post(apiPaths.subscription.subscribeConfirm, { token }, publicCall),
  );
}
