/**
 * The change made, for both callers of the 'Cambia piano' dialog (the Admin's
 * `subscription/changePlan/{id}` and the customer's `user/me/subscriptions/{id}/changePlan`: the
 * same body and answer): the result and the server's message for the done step.
 */
import type { Envelope } from '../../../contract/envelope';
import { unwrap } from '../../lib/entity-hooks';
import { http } from '../../lib/http';
import type { PlanChangeRequest, PlanChangeResult } from './plan-change-dialog';

export async function postPlanChange(
  url: string,
  body: PlanChangeRequest,
  tenantId: number | null,
): Promise<{ data: PlanChangeResult; message: string | null }> {
  const res = await http.post<Envelope<PlanChangeResult>>(url, { ...body, preview: false }, { tenantId });
  const data = await unwrap<PlanChangeResult>(Promise.resolve(res));
  if (!data) throw new Error('risposta senza dati');
  return { data, message: res.data?.message ?? null };
}
