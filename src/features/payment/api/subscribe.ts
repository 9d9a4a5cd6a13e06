/** The plan widget's request (POST subscription/subscribe): an e-mailed confirmation link. */
import { apiPaths } from '../../../../contract/api-paths';
import type { SubscribeAnswer } from '../../../../contract/schemas/payment';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Public calls: no session, no tenant header. */
const publicCall = { tenantId: null } as const;

/** The widget's request: the server e-mails a confirmation link and creates nothing yet. */
export function subscribe(body: { planId: number; email: string; name?: string; couponCode?: string }) {
  return unwrap<SubscribeAnswer>(http.post(apiPaths.subscription.subscribe, body, publicCall));
}
