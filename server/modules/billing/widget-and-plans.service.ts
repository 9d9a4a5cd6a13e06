/**
 * The embeddable plan widget's view of a plan (its subscribe call and the confirmation are in
 * widget-requests.service.ts) and 'Sincronizza con PayPal' on a plan (creates the PayPal product
 * and billing plan, so no Admin copies ids by hand).
 */
import { and, asc, eq } from 'drizzle-orm';
import { serverMessages } from '../../../contract/messages';
import { fromCents } from '../../../contract/money';
import { listPriceOf } from '../../db/fiscal-profiles';
import type { PlanWidgetView } from '../../../contract/schemas/payment';
import { recurrenceTypeNames, type RecurrenceTypeId } from '../../../contract/schemas/plan';
import type { Database } from '../../db/client';
import { planFeatures, plans, tenants } from '../../db/schema';
import { fromDecimalString } from '../../lib/money';
import { HttpError } from '../../lib/http-error';
import type { ProviderRegistry } from '../../providers/registry';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import { trialEnd } from './trials';

export const widgetMessages = {
  planSynced: 'Piano sincronizzato con PayPal.',
} as const;

/** An active plan, with its tenant, looked up by id alone (public calls): unknown or inactive → 404. */
export async function activePlan(db: Database, planId: number) {
  const [plan] = await db
    .select({
      id: plans.id,
      tenantId: plans.tenantId,
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      natura: plans.natura,
      recurrence: plans.recurrenceType,
      isActive: plans.isActive,
      trialDays: plans.trialDays,
      tenantName: tenants.name,
    })
    .from(plans)
    .innerJoin(tenants, eq(tenants.id, plans.tenantId))
    .where(eq(plans.id, planId));
  if (!plan || !plan.isActive) throw new HttpError(404, serverMessages.notFound);
  return plan;
}

/**
 * `GET api/plan/widget?planId=` (public): what the widget shows. A plan with trial days (issue 30)
 * says so, with when a trial started `now` would end (trials.ts `trialEnd`): the widget cannot
 * know whether the address already had one (it never reads who an address belongs to), so this
 * is the plan's offer.
 */
export async function planWidgetView(db: Database, planId: number, now: Date): Promise<PlanWidgetView> {
  const plan = await activePlan(db, planId);
  const features = await db
    .select({ featureName: planFeatures.featureName, description: planFeatures.description })
    .from(planFeatures)
    .where(and(eq(planFeatures.tenantId, plan.tenantId), eq(planFeatures.planId, plan.id)))
    .orderBy(asc(planFeatures.id));
  const recurrence = plan.recurrence as RecurrenceTypeId;
  const trialDays = plan.trialDays ?? 0;
  return {
    id: plan.id,
    name: plan.name,
    recurringCostBeforeVAT: fromDecimalString(plan.cost),
    vatPercentage: fromDecimalString(plan.vat),
    // What the widget's buyer pays for a period: the tenant's cassa, VAT and bollo included.
    amount: fromCents(await listPriceOf(db, plan.tenantId, plan)),
    currency: 'EUR',
    recurrenceType: recurrence,
    recurrenceTypeName: recurrenceTypeNames[recurrence],
    features,
    tenantName: plan.tenantName,
    trialDays: trialDays > 0 ? trialDays : null,
    trialEndsAt: trialDays > 0 ? trialEnd(now, trialDays).toISOString() : null,
  };
}

/**
 * A plan of the tenant as a provider's plan sync needs it (404 when it is not the tenant's): name,
 * recurrence, the providers' ids, the tenant's name and the list price in cents (listPriceOf: what a
 * private buyer pays a period, cassa, VAT and bollo included).
 */
export async function planToSync(db: Database, tenantId: number, planId: number) {
  const [plan] = await db
    .select({
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      natura: plans.natura,
      recurrence: plans.recurrenceType,
      paypalProductId: plans.paypalProductId,
      stripePlanId: plans.stripePlanId,
      tenantName: tenants.name,
    })
    .from(plans)
    .innerJoin(tenants, eq(tenants.id, plans.tenantId))
    .where(and(eq(plans.tenantId, tenantId), eq(plans.id, planId)));
  if (!plan) throw new HttpError(404, serverMessages.notFound);
  return { ...plan, priceCents: await listPriceOf(db, tenantId, plan) };
}

/**
 * 'Sincronizza con PayPal' on a plan: creates (once) the PayPal product and a billing plan of
 * `recurrence` months at the list price in EUR (listPriceOf), then stores their ids and the price. The
 * PayPal calls come first; if one fails nothing is stored.
 */
export async function syncPlanWithPaypal(
  deps: { providers: ProviderRegistry; connectionFor: (tenantId: number) => Database },
  tenantId: number,
  planId: number,
  /** The caller's unit of work, where the ids are recorded once PayPal has answered. */
  inUnit: (work: (w: UnitOfWork) => Promise<void>) => Promise<void>,
): Promise<{ paypalPlanId: string; paypalProductId: string }> {
  const db = deps.connectionFor(tenantId);
  const plan = await planToSync(db, tenantId, planId);
  const { adapter } = await deps.providers.paypal(tenantId);
  const priceCents = plan.priceCents;
  const productId =
    plan.paypalProductId ??
    (await adapter.createProduct({ name: plan.name, description: `${plan.tenantName}: ${plan.name}` }));
  const paypalPlanId = await adapter.createPlan({
    productId,
    name: `${plan.name} (${recurrenceTypeNames[plan.recurrence as RecurrenceTypeId]})`,
    priceCents,
    intervalMonths: plan.recurrence,
  });
  await inUnit(async (w) => {
    await w.tx
      .update(plans)
      .set({ paypalProductId: productId, paypalPlanId, paypalPriceCents: priceCents, updatedAt: w.now })
      .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, planId)));
  });
  return { paypalPlanId, paypalProductId: productId };
}
