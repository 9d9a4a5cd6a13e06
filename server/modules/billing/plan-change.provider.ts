/**
 * The provider's side of a plan change (issue 30, 'Cambia piano'), made BEFORE the unit of work
 * that changes Rinnova, outside any transaction (as the cancel does):
 *
 *   1. the route checks and computes the change (nothing written);
 *   2. this call: Stripe `subscriptions.update` of the subscription's item to the new plan's price
 *      with `proration_behavior: 'none'`, or PayPal `POST /v1/billing/subscriptions/{id}/revise`
 *      with the new plan's `plan_id`; either way the provider charges the new price from the next
 *      billing date on;
 *   3. the unit of work: plan, terms, documents, payment, history, event.
 *
 * Why first: a provider failure (timeout, 4xx, 5xx) throws before anything is written, so Rinnova
 * is unchanged (502 with the provider's Italian message). Why it is safe to repeat: the call is
 * keyed (Stripe Idempotency-Key, PayPal-Request-Id) by subscription, target plan and effective
 * day, and a subscription already on that price is left alone; if the unit then fails (a 409 from
 * a concurrent change), the provider charges the new price while Rinnova keeps the old plan — the
 * same request repeated completes it, and the daily provider sync shows the difference.
 *
 * Why not Stripe's own proration ('create_prorations' / 'always_invoice'): Stripe prorates by
 * the second over its own period (a 23-hour DST day is 23/24 of a day, a month's seconds differ
 * from its days) and charges its own lines; the customer would pay an amount different from the
 * Italian documents (the TD01 of the new days and the TD04 of the unused ones, day-exact, rounded
 * half-up once). Rinnova's proration payment carries the documents' amount.
 */
import { and, eq } from 'drizzle-orm';
import { billingMessages } from '../../../contract/messages';
import { plans } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { providerLabel, type ProviderDeps } from './provider-payments';

/** What the route passes: the checked change of a provider subscription. */
export interface ProviderPlanChange {
  subscriptionId: number;
  method: 'stripe' | 'paypal';
  providerSubscriptionId: string;
  toPlanId: number;
  whenKind: 'now' | 'renewal' | 'date';
  /** YYYY-MM-DD (Rome). */
  effectiveDay: string;
}

export async function changePlanAtProvider(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  change: ProviderPlanChange,
): Promise<void> {
  const [plan] = await deps
    .connectionFor(tenantId)
    .select({ name: plans.name, paypalPlanId: plans.paypalPlanId, stripePlanId: plans.stripePlanId })
    .from(plans)
    .where(and(eq(plans.tenantId, tenantId), eq(plans.id, change.toPlanId)));
  if (!plan) throw new HttpError(404, 'Piano non trovato.');
  const providerPlanId = change.method === 'stripe' ? plan.stripePlanId : plan.paypalPlanId;
  if (!providerPlanId)
    throw new HttpError(409, billingMessages.planNotAtProvider(plan.name, providerLabel(change.method)));
  const adapter = await deps.providers.adapterOf(tenantId, change.method);
  await adapter.changePlan(change.providerSubscriptionId, {
    providerPlanId,
    idempotencyKey: `rinnova-change-${tenantId}-${change.subscriptionId}-${change.toPlanId}-${change.effectiveDay}`,
  });
}
