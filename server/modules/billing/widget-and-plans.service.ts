/**
 * The embeddable plan widget (a prospect subscribes by themselves) and 'Sincronizza con PayPal'
 * on a plan (creates the PayPal product and billing plan, so no Admin copies ids by hand).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { Role } from '../../../contract/enums';
import { serverMessages } from '../../../contract/messages';
import { amountWithVat, fromCents, toCents, toPercentHundredths } from '../../../contract/money';
import type { PlanWidgetView } from '../../../contract/schemas/payment';
import { recurrenceTypeNames, type RecurrenceTypeId } from '../../../contract/schemas/plan';
import type { Database } from '../../db/client';
import { planFeatures, plans, tenants, users, userTenants } from '../../db/schema';
import { fromDecimalString } from '../../lib/money';
import { HttpError } from '../../lib/http-error';
import type { ProviderRegistry } from '../../providers/registry';
import type { UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { firstPayment } from './billing.repository';
import { createSubscription } from './subscription.service';
import { createPaymentLink, type CreatedLink } from './payment-token.service';

export const widgetMessages = {
  emailNotAllowed: 'Questa email non può essere usata per abbonarsi da qui: scrivi al venditore.',
  subscribed: 'Sottoscrizione creata: completa il pagamento.',
  planSynced: 'Piano sincronizzato con PayPal.',
} as const;

/** An active plan, with its tenant, looked up by id alone (public calls): unknown or inactive → 404. */
async function activePlan(db: Database, planId: number) {
  const [plan] = await db
    .select({
      id: plans.id,
      tenantId: plans.tenantId,
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      recurrence: plans.recurrenceType,
      isActive: plans.isActive,
      tenantName: tenants.name,
    })
    .from(plans)
    .innerJoin(tenants, eq(tenants.id, plans.tenantId))
    .where(eq(plans.id, planId));
  if (!plan || !plan.isActive) throw new HttpError(404, serverMessages.notFound);
  return plan;
}

/** `GET api/plan/widget?planId=` (public): what the widget shows. */
export async function planWidgetView(db: Database, planId: number): Promise<PlanWidgetView> {
  const plan = await activePlan(db, planId);
  const features = await db
    .select({ featureName: planFeatures.featureName, description: planFeatures.description })
    .from(planFeatures)
    .where(and(eq(planFeatures.tenantId, plan.tenantId), eq(planFeatures.planId, plan.id)))
    .orderBy(asc(planFeatures.id));
  const recurrence = plan.recurrence as RecurrenceTypeId;
  return {
    id: plan.id,
    name: plan.name,
    recurringCostBeforeVAT: fromDecimalString(plan.cost),
    vatPercentage: fromDecimalString(plan.vat),
    amount: fromCents(amountWithVat(toCents(plan.cost), toPercentHundredths(plan.vat))),
    currency: 'EUR',
    recurrenceType: recurrence,
    recurrenceTypeName: recurrenceTypeNames[recurrence],
    features,
    tenantName: plan.tenantName,
  };
}

/** The customer of `email` in the unit's tenant: found, attached (a User elsewhere) or created without password. */
async function customerOf(w: UnitOfWork, email: string, name: string | null): Promise<number> {
  const [existing] = await w.tx
    .select({ id: users.id, roleId: users.roleId })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (existing) {
    // Only customers (User role) subscribe here: roles are global, and an Admin's identity is not
    // something a public form may attach or bill.
    if (existing.roleId !== Role.User) throw new HttpError(409, widgetMessages.emailNotAllowed);
    const [member] = await w.tx
      .select({ userId: userTenants.userId })
      .from(userTenants)
      .where(and(eq(userTenants.tenantId, w.tenantId), eq(userTenants.userId, existing.id)));
    if (member) return existing.id;
    await w.tx
      .insert(userTenants)
      .values({ userId: existing.id, tenantId: w.tenantId, name, createdAt: w.now, updatedAt: w.now });
    return existing.id;
  }
  const [created] = await w.tx
    .insert(users)
    .values({
      email,
      name,
      roleId: Role.User,
      defaultTenantId: w.tenantId,
      createdAt: w.now,
      updatedAt: w.now,
    })
    .returning({ id: users.id });
  if (!created) throw new Error('user insert returned no row');
  await w.tx
    .insert(userTenants)
    .values({ userId: created.id, tenantId: w.tenantId, name, createdAt: w.now, updatedAt: w.now });
  return created.id;
}

/**
 * `POST api/subscription/subscribe {planId, email, name?}` (public): finds or creates the
 * customer, creates the NotActive subscription with its first payment and a payment link, in one
 * unit of work of the plan's tenant. Unknown or inactive plan → 404.
 */
export async function subscribeFromWidget(
  deps: { uow: UnitOfWorkRunner; shared: Database },
  input: { planId: number; email: string; name?: string | null },
): Promise<CreatedLink & { subscriptionId: number }> {
  const plan = await activePlan(deps.shared, input.planId);
  return deps.uow.run(
    { tenantId: plan.tenantId, actor: { kind: 'system', job: 'plan-widget' } },
    async (w) => {
      const userId = await customerOf(w, input.email, input.name?.trim() || null);
      const subscriptionId = await createSubscription(w, { userId, planId: plan.id });
      const payment = await firstPayment(w, subscriptionId);
      if (!payment) throw new Error('subscription without payment');
      const link = await createPaymentLink(w, payment.id);
      return { ...link, subscriptionId };
    },
  );
}

/**
 * A plan of the tenant as a provider's plan sync needs it (404 when it is not the tenant's): name,
 * recurrence, the providers' ids, the tenant's name and the price with VAT in cents.
 */
export async function planToSync(db: Database, tenantId: number, planId: number) {
  const [plan] = await db
    .select({
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      recurrence: plans.recurrenceType,
      paypalProductId: plans.paypalProductId,
      stripePlanId: plans.stripePlanId,
      tenantName: tenants.name,
    })
    .from(plans)
    .innerJoin(tenants, eq(tenants.id, plans.tenantId))
    .where(and(eq(plans.tenantId, tenantId), eq(plans.id, planId)));
  if (!plan) throw new HttpError(404, serverMessages.notFound);
  return { ...plan, priceCents: amountWithVat(toCents(plan.cost), toPercentHundredths(plan.vat)) };
}

/**
 * 'Sincronizza con PayPal' on a plan: creates (once) the PayPal product and a billing plan of
 * `recurrence` months at the price with VAT in EUR, then stores their ids and the price. The
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
