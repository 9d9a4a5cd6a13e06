/**
 * 'Cambia piano' on a subscription PayPal charges (issue 30; server/README 'Plan changes',
 * 'Provider first'): PayPal's revise needs the buyer's consent, as for 'Applica coupon' at PayPal
 * (paypal-coupon-revise.ts), and this module mirrors it.
 *
 *   1. Before the change's unit, outside any transaction (`reviseAtPayPalForChange`): the PayPal
 *      plan to revise to — the new plan's own, or, when the running coupon stays on the new plan
 *      (the rule of `couponOnNewPlan`), the coupon's own PayPal plan made for the NEW plan's
 *      amounts (`couponPlanAtPayPal`: TRIAL cycles = periods left at the discounted net to pay,
 *      then REGULAR at the full one; keyed, a retry makes no second plan) — then
 *      `POST …/revise {plan_id, application_context.return_url}` with the change's key. PayPal
 *      answers the `approve` link; until the customer opens it PayPal bills the old plan. A
 *      PayPal failure throws (502) and nothing changes in Rinnova.
 *   2. The change's unit keeps the PayPal subscription, plan, link and next charge on the
 *      `plan_changes` row and publishes `planChange.paypalApprovalRequested`: its after-commit
 *      consumer mails the customer the link once (`paypal_mailed_at`).
 *   3. The customer's cards and the Admin's GetById show the change waiting (`paypalPlanChangeApproval`).
 *   4. PayPal's BILLING.SUBSCRIPTION.UPDATED on that plan (not overridden) or the read-back when the
 *      customer returns (`/?paypalPlanChange={subscriptionId}`) marks it approved, once.
 */
import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { fromCents, toCents, toPercentHundredths } from '../../../contract/money';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { redemptionOf } from '../../db/coupons';
import { planChanges, plans, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { EventBus } from '../../unit-of-work/events';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { couponPlanAtPayPal } from './coupon-apply.service';
import { mailPayPalApproval } from './paypal-approval-mail';
import type { ProviderDeps } from './provider-payments';
import { formatEur, subscriptionTermsWith } from './subscription.service';

export const paypalPlanChangeTexts = {
  mailSubject: (tenantName: string) => `${tenantName}: approva il nuovo piano su PayPal`,
  /** A running coupon would bring PayPal's charge to nothing: PayPal cannot bill a free cycle. */
  couponNotPossible:
    'Con il coupon in corso il nuovo piano costerebbe zero: PayPal non può addebitarlo. Termina prima il coupon o scegli un altro piano.',
};

/** What the change's unit keeps of the revise (null for a change PayPal does not charge). */
export interface PayPalPlanRevision {
  providerSubscriptionId: string;
  paypalPlanId: string;
  approveUrl: string | null;
  /** What PayPal's revised plan charges next (the coupon's discounted net to pay, or the full one). */
  amountCents: number;
}

/**
 * Step 1: the PayPal plan of the change (the new plan's, or the running coupon's own plan for the
 * new plan's amounts) and the revise waiting for the buyer's approval, keyed by `idempotencyKey`.
 */
export async function reviseAtPayPalForChange(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'> & { publicUrl?: () => string },
  tenantId: number,
  change: {
    subscriptionId: number;
    providerSubscriptionId: string;
    toPlanId: number;
    /** The new plan's PayPal plan (full price). */
    plainPlanId: string;
    idempotencyKey: string;
  },
): Promise<PayPalPlanRevision> {
  const scope = { tenantId, tx: deps.connectionFor(tenantId) };
  const [row] = await scope.tx
    .select({
      userId: subscriptions.userId,
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      months: plans.recurrenceType,
      productId: plans.paypalProductId,
    })
    .from(subscriptions)
    .innerJoin(plans, and(eq(plans.tenantId, subscriptions.tenantId), eq(plans.id, change.toPlanId)))
    .where(and(eq(subscriptions.tenantId, tenantId), eq(subscriptions.id, change.subscriptionId)));
  if (!row) throw new HttpError(404, 'Piano non trovato.');
  const r = await redemptionOf(scope, change.subscriptionId);
  // The coupon stays on the new plan (plan-change.service.ts `couponOnNewPlan`'s rule).
  const couponStays =
    r !== null && r.periodsLeft !== 0 && (r.planIds.length === 0 || r.planIds.includes(change.toPlanId));
  const { full, discounted } = await subscriptionTermsWith(
    scope,
    {
      userId: row.userId,
      planId: change.toPlanId,
      costBeforeVatCents: toCents(row.cost),
      vatHundredths: toPercentHundredths(row.vat),
    },
    couponStays ? r.discount : null,
  );
  let paypalPlanId = change.plainPlanId;
  let amountCents = full.netToPayCents;
  if (couponStays) {
    if (discounted.netToPayCents <= 0 || !row.productId)
      throw new HttpError(409, paypalPlanChangeTexts.couponNotPossible);
    paypalPlanId = await couponPlanAtPayPal(deps, tenantId, {
      subscriptionId: change.subscriptionId,
      // 0: not a payment link's plan; the new plan in the key (two plans of equal amounts differ).
      paymentId: 0,
      forPlanId: change.toPlanId,
      code: r.code,
      productId: row.productId,
      name: row.name,
      intervalMonths: row.months,
      fullCents: full.netToPayCents,
      discountedCents: discounted.netToPayCents,
      periods: r.periodsLeft,
    });
    amountCents = discounted.netToPayCents;
  }
  const { adapter } = await deps.providers.paypal(tenantId);
  if (!adapter.reviseForApproval) {
    await adapter.changePlan(change.providerSubscriptionId, {
      providerPlanId: paypalPlanId,
      idempotencyKey: change.idempotencyKey,
    });
    return {
      providerSubscriptionId: change.providerSubscriptionId,
      paypalPlanId,
      approveUrl: null,
      amountCents,
    };
  }
  // Back in the customer's area, which reads the subscription back (`checkPayPalPlanChangeApproval`).
  const returnUrl = deps.publicUrl
    ? `${deps.publicUrl().replace(/\/+$/, '')}/?paypalPlanChange=${change.subscriptionId}`
    : undefined;
  const { approveUrl } = await adapter.reviseForApproval(change.providerSubscriptionId, {
    providerPlanId: paypalPlanId,
    idempotencyKey: change.idempotencyKey,
    ...(returnUrl ? { returnUrl } : {}),
  });
  return { providerSubscriptionId: change.providerSubscriptionId, paypalPlanId, approveUrl, amountCents };
}

/**
 * Step 2, in the change's unit once its row exists: the revise kept on the row and, when PayPal
 * answered a link, the event whose consumer mails it.
 */
export async function recordPayPalRevision(
  w: UnitOfWork,
  subscriptionId: number,
  planChangeId: number,
  revision: PayPalPlanRevision | null | undefined,
): Promise<void> {
  if (!revision) return;
  await w.tx
    .update(planChanges)
    .set({
      paypalSubscriptionId: revision.providerSubscriptionId,
      paypalPlanId: revision.paypalPlanId,
      paypalApproveUrl: revision.approveUrl,
      paypalAmountCents: revision.amountCents,
    })
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, planChangeId)));
  if (revision.approveUrl)
    await w.publish('planChange.paypalApprovalRequested', { subscriptionId, planChangeId });
}

/** The consumer's actor (the outbox delivers the event after the change's unit committed). */
export const PAYPAL_PLAN_CHANGE_MAIL = 'paypal-plan-change-mail';

/**
 * The customer's e-mail with the approval link of change `planChangeId`, in the consumer's own unit:
 * written to the outbox once (`paypal_mailed_at`), only while the change still waits (not
 * cancelled, not approved). A retried delivery sends nothing more.
 */
export async function mailPlanChangeApproval(w: UnitOfWork, planChangeId: number): Promise<boolean> {
  const [row] = await w.tx
    .select({
      status: planChanges.status,
      subscriptionId: planChanges.subscriptionId,
      approveUrl: planChanges.paypalApproveUrl,
      approvedAt: planChanges.paypalApprovedAt,
      mailedAt: planChanges.paypalMailedAt,
      nextCents: planChanges.paypalAmountCents,
      fullCents: planChanges.amountDueCents,
      planName: plans.name,
    })
    .from(planChanges)
    .innerJoin(plans, and(eq(plans.tenantId, planChanges.tenantId), eq(plans.id, planChanges.toPlanId)))
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, planChangeId)))
    .for('update', { of: planChanges });
  if (!row?.approveUrl || row.status === 'canceled' || row.approvedAt || row.mailedAt) return false;
  const approveUrl = row.approveUrl;
  const [sub] = await w.tx
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, row.subscriptionId)));
  if (!sub) return false;
  await w.tx
    .update(planChanges)
    .set({ paypalMailedAt: w.now })
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, planChangeId)));
  const next = row.nextCents ?? row.fullCents;
  return mailPayPalApproval(w, sub.userId, {
    subject: paypalPlanChangeTexts.mailSubject,
    what: (tenantName) =>
      `${tenantName} ha cambiato il tuo abbonamento al piano ${row.planName}: ` +
      (next !== row.fullCents
        ? `con il coupon in corso pagherai ${formatEur(next)} a periodo finché vale lo sconto, poi ${formatEur(row.fullCents)}.`
        : `pagherai ${formatEur(next)} a periodo.`),
    how:
      'Il tuo abbonamento si rinnova con PayPal: perché PayPal addebiti il nuovo piano devi approvarlo su PayPal da questo link. ' +
      'Finché non lo approvi, PayPal continua ad addebitare il piano precedente.',
    linkText: 'Approva il nuovo piano su PayPal',
    approveUrl,
  });
}

/** Billing's after-commit consumer of a PayPal plan change: the approval e-mail (app start). */
export function subscribePayPalPlanChangeMail(events: EventBus, deps: () => Pick<ProviderDeps, 'uow'>): void {
  events.subscribe('planChange.paypalApprovalRequested', {
    name: 'billing.paypalPlanChangeMail',
    phase: 'afterCommit',
    handle: async ({ tenantId, payload }) => {
      await deps().uow.run({ tenantId, actor: { kind: 'system', job: PAYPAL_PLAN_CHANGE_MAIL } }, (w) =>
        mailPlanChangeApproval(w, payload.planChangeId),
      );
    },
  });
}

export interface PayPalPlanChangeApprovalView {
  planChangeId: number;
  planName: string;
  approveUrl: string;
  /** What PayPal charges next once approved (euro). */
  amount: number;
  /** The new plan's full price per period (euro); differs from `amount` while a coupon runs. */
  fullAmount: number;
}

/**
 * The plan changes customers must approve on PayPal, by subscription id, in one query for all of
 * `subscriptionIds`: the subscription's latest change revised at PayPal (not cancelled), while
 * PayPal has not confirmed it, on an Active or ActiveNoRenewal subscription.
 */
export async function paypalPlanChangeApprovalsOf(
  scope: TenantScope,
  subscriptionIds: readonly number[],
): Promise<Map<number, PayPalPlanChangeApprovalView>> {
  const out = new Map<number, PayPalPlanChangeApprovalView>();
  if (subscriptionIds.length === 0) return out;
  const rows = await scope.tx
    .select({
      id: planChanges.id,
      subscriptionId: planChanges.subscriptionId,
      planName: plans.name,
      approveUrl: planChanges.paypalApproveUrl,
      approvedAt: planChanges.paypalApprovedAt,
      nextCents: planChanges.paypalAmountCents,
      fullCents: planChanges.amountDueCents,
    })
    .from(planChanges)
    .innerJoin(plans, and(eq(plans.tenantId, planChanges.tenantId), eq(plans.id, planChanges.toPlanId)))
    .innerJoin(
      subscriptions,
      and(eq(subscriptions.tenantId, planChanges.tenantId), eq(subscriptions.id, planChanges.subscriptionId)),
    )
    .where(
      and(
        eq(planChanges.tenantId, scope.tenantId),
        inArray(planChanges.subscriptionId, [...subscriptionIds]),
        ne(planChanges.status, 'canceled'),
        sql`${planChanges.paypalPlanId} is not null`,
        sql`${subscriptions.status} in (${SubscriptionStatus.Active}, ${SubscriptionStatus.ActiveNoRenewal})`,
      ),
    )
    .orderBy(desc(planChanges.id));
  const seen = new Set<number>();
  for (const row of rows) {
    if (seen.has(row.subscriptionId)) continue;
    seen.add(row.subscriptionId);
    if (!row.approveUrl || row.approvedAt) continue;
    out.set(row.subscriptionId, {
      planChangeId: row.id,
      planName: row.planName,
      approveUrl: row.approveUrl,
      amount: fromCents(row.nextCents ?? row.fullCents),
      fullAmount: fromCents(row.fullCents),
    });
  }
  return out;
}

/** The plan change a customer must approve on PayPal for one subscription, or null. */
export async function paypalPlanChangeApprovalOf(
  scope: TenantScope,
  subscriptionId: number,
): Promise<PayPalPlanChangeApprovalView | null> {
  return (await paypalPlanChangeApprovalsOf(scope, [subscriptionId])).get(subscriptionId) ?? null;
}

/**
 * PayPal confirms that `providerSubscriptionId` bills `planId` (step 4): the change revised to that
 * plan and not yet confirmed is marked approved, once (the row locked). 'unchanged' when none waits
 * (a replay, the read-back after the webhook, a plan that is no change's).
 */
export async function confirmPayPalPlanChange(
  w: UnitOfWork,
  providerSubscriptionId: string,
  planId: string,
): Promise<{ outcome: 'applied' | 'unchanged'; detail: string }> {
  const [row] = await w.tx
    .select({ id: planChanges.id, subscriptionId: planChanges.subscriptionId })
    .from(planChanges)
    .where(
      and(
        eq(planChanges.tenantId, w.tenantId),
        eq(planChanges.paypalSubscriptionId, providerSubscriptionId),
        eq(planChanges.paypalPlanId, planId),
        ne(planChanges.status, 'canceled'),
        isNull(planChanges.paypalApprovedAt),
      ),
    )
    .orderBy(desc(planChanges.id))
    .limit(1)
    .for('update');
  if (!row)
    return { outcome: 'unchanged', detail: `nessun cambio di piano in attesa sul piano PayPal ${planId}` };
  await w.tx
    .update(planChanges)
    .set({ paypalApprovedAt: w.now })
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, row.id)));
  return {
    outcome: 'applied',
    detail: `cambio di piano ${row.id} approvato su PayPal: sottoscrizione ${row.subscriptionId}`,
  };
}

/**
 * The read-back when the customer returns from PayPal: the subscription's change waiting for
 * approval confirmed if PayPal now bills its plan (not overridden). A PayPal failure changes
 * nothing. Answers whether it was confirmed now.
 */
export async function checkPayPalPlanChangeApproval(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  subscriptionId: number,
  run: <T>(fn: (w: UnitOfWork) => Promise<T>) => Promise<T>,
): Promise<boolean> {
  const [row] = await deps
    .connectionFor(tenantId)
    .select({ providerSubscriptionId: planChanges.paypalSubscriptionId })
    .from(planChanges)
    .where(
      and(
        eq(planChanges.tenantId, tenantId),
        eq(planChanges.subscriptionId, subscriptionId),
        ne(planChanges.status, 'canceled'),
        sql`${planChanges.paypalApproveUrl} is not null`,
        isNull(planChanges.paypalApprovedAt),
      ),
    )
    .orderBy(desc(planChanges.id))
    .limit(1);
  const providerSubscriptionId = row?.providerSubscriptionId;
  if (!providerSubscriptionId) return false;
  const { adapter } = await deps.providers.paypal(tenantId);
  const remote = await adapter.getSubscription(providerSubscriptionId);
  if (!remote.planId || remote.planOverridden === true) return false;
  const planId = remote.planId;
  const done = await run((w) => confirmPayPalPlanChange(w, providerSubscriptionId, planId));
  return done.outcome === 'applied';
}
