/**
 * 'Applica coupon' on a subscription PayPal charges (issue 30; server/README 'Coupons at PayPal').
 *
 *   1. In a unit, checked and computed only (`paypalReviseTarget`): the subscription (another
 *      tenant's: 404), PayPal charging it, the code checked as for any subscription (the same 400s).
 *   2. Outside any transaction: the coupon's own PayPal plan (`couponPlanAtPayPal`, keyed: a retry
 *      makes no second plan), then `POST …/revise` to it (keyed too), whose `approve` link the buyer
 *      must open: PayPal keeps billing the old plan until then. A PayPal failure throws (502) and
 *      nothing changes in Rinnova.
 *   3. In a unit: the pending application (`paypal_coupon_revisions`), other pending ones of the
 *      subscription replaced, and the customer's e-mail with the link (outbox, after commit).
 *      Nothing is redeemed: the subscription's amount due stays the full price.
 *   4. PayPal's confirmation (BILLING.SUBSCRIPTION.UPDATED whose plan_id is the coupon's plan, or
 *      the subscription read back on it: `confirmPayPalCoupon`): the coupon is redeemed once (the
 *      row locked and moved to 'redeemed'; a replay finds nothing pending) and the subscription's
 *      amount due becomes the discounted one, so each renewal PayPal charges on its TRIAL cycles
 *      carries the redemption and asks exactly what PayPal took; at 0 periods left the full price
 *      again, PayPal's REGULAR cycle.
 */
import { couponMessages } from '../../../contract/messages';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { serverMessages } from '../../../contract/messages';
import { fromCents, toCents } from '../../../contract/money';
import type { CouponQuote } from '../../../contract/schemas/coupon-apply';
import { discountOf, type CouponDuration } from '../../../contract/schemas/coupon';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { redeemCoupon } from '../../db/coupons';
import {
  coupons,
  payments,
  paypalCouponRevisions,
  plans,
  subscriptions,
  tenants,
  userTenants,
  users,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { escapeHtml } from '../../lib/html';
import { layout, withSignInLink } from '../../mail/templates';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription } from './billing.repository';
import {
  applyCouponToSubscription,
  appliedCouponOf,
  chargedByProvider,
  couponPlanAtPayPal,
  type PayPalCouponTarget,
} from './coupon-apply.service';
import type { ProviderDeps } from './provider-payments';
import { formatEur } from './subscription.service';

export const paypalCouponTexts = {
  /** The Admin's answer: nothing applied yet. */
  pending: couponMessages.pendingAtPayPal,
  /** A plan PayPal could not bill (a discounted net of 0) or without a PayPal product. */
  notPossible:
    'Questo coupon non si può applicare alla sottoscrizione addebitata da PayPal: lo sconto porterebbe a zero l’importo o il piano non è su PayPal.',
  mailSubject: (tenantName: string) => `${tenantName}: approva lo sconto su PayPal`,
};

/** What the Admin's call answers for a PayPal subscription: the quote (not applied) and the link. */
export type PayPalCouponPending = CouponQuote & { approveUrl: string | null };

interface ReviseTarget extends PayPalCouponTarget {
  couponId: number;
  providerSubscriptionId: string;
  quote: CouponQuote;
}

/** The latest PayPal subscription id of a subscription PayPal charges. */
async function paypalSubscriptionIdOf(scope: TenantScope, subscriptionId: number) {
  const [row] = await scope.tx
    .select({ providerSubscriptionId: payments.providerSubscriptionId })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        eq(payments.method, 'paypal'),
        sql`${payments.providerSubscriptionId} is not null`,
      ),
    )
    .orderBy(desc(payments.id))
    .limit(1);
  return row?.providerSubscriptionId ?? null;
}

/**
 * Step 1: null when PayPal does not charge the subscription (the caller goes on as before);
 * otherwise the plan to make and the revise to ask. The same 404/409/400s as 'Applica coupon'.
 */
export async function paypalReviseTarget(
  w: UnitOfWork,
  subscriptionId: number,
  code: string,
): Promise<ReviseTarget | null> {
  const sub = await findSubscription(w, subscriptionId);
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  if ((await chargedByProvider(w, sub)) !== 'paypal') return null;
  const providerSubscriptionId = await paypalSubscriptionIdOf(w, sub.id);
  if (!providerSubscriptionId) return null;
  // The code checked as for any subscription (400s; the same code already applied: its quote).
  const quote = await applyCouponToSubscription(w, { subscriptionId, code, preview: true });
  if (quote.applied) return null;
  const discountedCents = toCents(quote.amount);
  const [plan] = await w.tx
    .select({ name: plans.name, productId: plans.paypalProductId, months: plans.recurrenceType })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, sub.planId)));
  if (discountedCents <= 0 || !plan?.productId) throw new HttpError(409, paypalCouponTexts.notPossible);
  const [coupon] = await w.tx
    .select({ id: coupons.id })
    .from(coupons)
    .where(and(eq(coupons.tenantId, w.tenantId), sql`lower(${coupons.code}) = lower(${quote.code})`));
  if (!coupon) throw new HttpError(404, serverMessages.notFound);
  return {
    subscriptionId,
    // 0: not a payment link's plan (those carry their payment's id), so its key is its own.
    paymentId: 0,
    code: quote.code,
    productId: plan.productId,
    name: plan.name,
    intervalMonths: plan.months,
    fullCents: toCents(quote.fullAmount),
    discountedCents,
    periods: quote.periodsLeft,
    couponId: coupon.id,
    providerSubscriptionId,
    quote,
  };
}

/**
 * 'Applica coupon' (not a preview) on a subscription PayPal charges: null when PayPal does not
 * charge it (or the same code is already applied), so the caller applies it as before. `run` is
 * the request's own unit of work (its actor).
 */
export async function applyCouponAtPayPal(
  deps: Pick<ProviderDeps, 'providers'> & { publicUrl?: () => string },
  tenantId: number,
  subscriptionId: number,
  code: string,
  run: <T>(fn: (w: UnitOfWork) => Promise<T>) => Promise<T>,
): Promise<PayPalCouponPending | null> {
  const target = await run((w) => paypalReviseTarget(w, subscriptionId, code));
  if (!target) return null;
  const paypalPlanId = await couponPlanAtPayPal(deps, tenantId, target);
  const { adapter } = await deps.providers.paypal(tenantId);
  if (!adapter.reviseForApproval) throw new HttpError(409, paypalCouponTexts.notPossible);
  // Back in the customer's area, which reads the subscription back (`checkPayPalCouponApproval`).
  const returnUrl = deps.publicUrl
    ? `${deps.publicUrl().replace(/\/+$/, '')}/?paypalCoupon=${subscriptionId}`
    : undefined;
  const { approveUrl } = await adapter.reviseForApproval(target.providerSubscriptionId, {
    providerPlanId: paypalPlanId,
    idempotencyKey: `rnv-coupon-revise-${tenantId}-${subscriptionId}-${paypalPlanId}`,
    ...(returnUrl ? { returnUrl } : {}),
  });
  return run(async (w) => {
    const sub = await findSubscription(w, subscriptionId, { lock: true });
    if (!sub) throw new HttpError(404, serverMessages.notFound);
    // Applied meanwhile (another code, or this one confirmed): the same answers as before.
    const quote = await applyCouponToSubscription(w, { subscriptionId, code, preview: true });
    if (quote.applied) return { ...quote, approveUrl: null };
    await w.tx
      .update(paypalCouponRevisions)
      .set({ status: 'replaced' })
      .where(
        and(
          eq(paypalCouponRevisions.tenantId, w.tenantId),
          eq(paypalCouponRevisions.subscriptionId, subscriptionId),
          eq(paypalCouponRevisions.status, 'pending'),
          ne(paypalCouponRevisions.paypalPlanId, paypalPlanId),
        ),
      );
    const [known] = await w.tx
      .select({ id: paypalCouponRevisions.id, status: paypalCouponRevisions.status })
      .from(paypalCouponRevisions)
      .where(
        and(
          eq(paypalCouponRevisions.tenantId, w.tenantId),
          eq(paypalCouponRevisions.subscriptionId, subscriptionId),
          eq(paypalCouponRevisions.paypalPlanId, paypalPlanId),
        ),
      )
      .for('update');
    if (known?.status === 'redeemed') return { ...quote, approveUrl: null };
    if (known)
      await w.tx
        .update(paypalCouponRevisions)
        .set({ approveUrl, status: 'pending' })
        .where(and(eq(paypalCouponRevisions.tenantId, w.tenantId), eq(paypalCouponRevisions.id, known.id)));
    else
      await w.tx.insert(paypalCouponRevisions).values({
        tenantId: w.tenantId,
        subscriptionId,
        couponId: target.couponId,
        providerSubscriptionId: target.providerSubscriptionId,
        paypalPlanId,
        approveUrl,
        discountedCents: target.discountedCents,
        fullCents: target.fullCents,
        periods: target.periods,
        createdAt: w.now,
      });
    // The customer is told once per application (a second click sends nothing more).
    if (known?.status !== 'pending' && approveUrl)
      await mailApproval(w, sub.userId, sub.planId, target, approveUrl);
    return { ...quote, approveUrl };
  });
}

/** The customer's e-mail with the approval link (outbox: sent after commit). */
async function mailApproval(
  w: UnitOfWork,
  userId: number,
  planId: number,
  t: ReviseTarget,
  approveUrl: string,
) {
  const [who] = await w.tx
    .select({ email: users.email, name: userTenants.name })
    .from(users)
    .leftJoin(userTenants, and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, w.tenantId)))
    .where(eq(users.id, userId));
  if (!who?.email) return;
  const [tenant] = await w.tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, w.tenantId));
  const [plan] = await w.tx
    .select({ name: plans.name })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, planId)));
  const tenantName = tenant?.name ?? '';
  const periods =
    t.periods === null
      ? 'per sempre'
      : t.periods === 1
        ? 'per il prossimo periodo'
        : `per i prossimi ${t.periods} periodi`;
  const greeting = `Gentile ${who.name ?? who.email},`;
  const what =
    `${tenantName} ti ha applicato il coupon ${t.code} sull’abbonamento ${plan?.name ?? ''}: ` +
    `pagherai ${formatEur(t.discountedCents)} invece di ${formatEur(t.fullCents)} ${periods}.`;
  const how =
    'Il tuo abbonamento si rinnova con PayPal: perché lo sconto valga devi approvarlo su PayPal da questo link. ' +
    'Finché non lo approvi, PayPal continua ad addebitare il prezzo pieno.';
  await w.outbox.email(
    withSignInLink(
      {
        to: who.email,
        subject: paypalCouponTexts.mailSubject(tenantName),
        text: `${greeting}\n\n${what}\n${how}\nApprova lo sconto su PayPal: ${approveUrl}\n`,
        html: layout(
          paypalCouponTexts.mailSubject(tenantName),
          `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(what)}</p><p>${escapeHtml(how)}</p>` +
            `<p><a href="${escapeHtml(approveUrl)}">Approva lo sconto su PayPal</a></p>`,
        ),
      },
      userId,
    ),
  );
}

/** The pending application a customer must approve on PayPal (their area's link), or null. */
export async function paypalCouponApprovalOf(
  scope: TenantScope,
  subscriptionId: number,
): Promise<{
  code: string;
  approveUrl: string;
  amount: number;
  fullAmount: number;
  periods: number | null;
} | null> {
  const [row] = await scope.tx
    .select({
      code: coupons.code,
      approveUrl: paypalCouponRevisions.approveUrl,
      discountedCents: paypalCouponRevisions.discountedCents,
      fullCents: paypalCouponRevisions.fullCents,
      periods: paypalCouponRevisions.periods,
    })
    .from(paypalCouponRevisions)
    .innerJoin(
      coupons,
      and(
        eq(coupons.id, paypalCouponRevisions.couponId),
        eq(coupons.tenantId, paypalCouponRevisions.tenantId),
      ),
    )
    .innerJoin(
      subscriptions,
      and(
        eq(subscriptions.id, paypalCouponRevisions.subscriptionId),
        eq(subscriptions.tenantId, paypalCouponRevisions.tenantId),
      ),
    )
    .where(
      and(
        eq(paypalCouponRevisions.tenantId, scope.tenantId),
        eq(paypalCouponRevisions.subscriptionId, subscriptionId),
        eq(paypalCouponRevisions.status, 'pending'),
        sql`${paypalCouponRevisions.approveUrl} is not null`,
        sql`${subscriptions.status} in (${SubscriptionStatus.Active}, ${SubscriptionStatus.ActiveNoRenewal})`,
      ),
    )
    .orderBy(desc(paypalCouponRevisions.id))
    .limit(1);
  if (!row?.approveUrl) return null;
  return {
    code: row.code,
    approveUrl: row.approveUrl,
    amount: fromCents(row.discountedCents),
    fullAmount: fromCents(row.fullCents),
    periods: row.periods,
  };
}

/**
 * PayPal confirms that subscription `providerSubscriptionId` bills `planId` (step 4): the pending
 * application on that plan, if any, is redeemed once. 'unchanged' when nothing waits (a replay,
 * another update, a plan that is no coupon's).
 */
export async function confirmPayPalCoupon(
  w: UnitOfWork,
  providerSubscriptionId: string,
  planId: string,
): Promise<{ outcome: 'applied' | 'unchanged'; detail: string }> {
  const [row] = await w.tx
    .select()
    .from(paypalCouponRevisions)
    .where(
      and(
        eq(paypalCouponRevisions.tenantId, w.tenantId),
        eq(paypalCouponRevisions.providerSubscriptionId, providerSubscriptionId),
        eq(paypalCouponRevisions.paypalPlanId, planId),
        eq(paypalCouponRevisions.status, 'pending'),
      ),
    )
    .for('update');
  if (!row) return { outcome: 'unchanged', detail: `nessun coupon in attesa sul piano PayPal ${planId}` };
  const sub = await findSubscription(w, row.subscriptionId, { lock: true });
  const [c] = await w.tx
    .select()
    .from(coupons)
    .where(and(eq(coupons.tenantId, w.tenantId), eq(coupons.id, row.couponId)));
  if (!sub || !c) return { outcome: 'unchanged', detail: 'sottoscrizione o coupon non trovati' };
  if (await appliedCouponOf(w, sub.id)) {
    // A coupon applied meanwhile by another way: one coupon per subscription.
    await w.tx
      .update(paypalCouponRevisions)
      .set({ status: 'replaced' })
      .where(and(eq(paypalCouponRevisions.tenantId, w.tenantId), eq(paypalCouponRevisions.id, row.id)));
    return { outcome: 'unchanged', detail: `sottoscrizione ${sub.id}: un coupon è già applicato` };
  }
  // The customer approved what PayPal now charges: redeemed as approved, even if the coupon's last
  // day passed meanwhile (its maximum is still enforced: exhausted, the 400 makes the event fail
  // and PayPal retry; the Admin sees it in the provider events).
  const redemptionId = await redeemCoupon(
    w,
    {
      id: c.id,
      code: c.code,
      duration: c.duration as CouponDuration,
      durationPeriods: c.durationPeriods,
      planIds: c.planIds,
      discount: discountOf(c),
    },
    sub.id,
  );
  await w.tx
    .update(subscriptions)
    .set({ amountDueCents: row.discountedCents, updatedAt: w.now })
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
  await w.tx
    .update(paypalCouponRevisions)
    .set({ status: 'redeemed', redemptionId, confirmedAt: w.now })
    .where(and(eq(paypalCouponRevisions.tenantId, w.tenantId), eq(paypalCouponRevisions.id, row.id)));
  return { outcome: 'applied', detail: `coupon ${c.code} approvato su PayPal: sottoscrizione ${sub.id}` };
}

/**
 * The read-back when the customer returns from PayPal: the subscription's pending application
 * confirmed if PayPal now bills its plan. Outside any transaction for the read; a PayPal failure
 * changes nothing. Answers whether a coupon was redeemed.
 */
export async function checkPayPalCouponApproval(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  subscriptionId: number,
  run: <T>(fn: (w: UnitOfWork) => Promise<T>) => Promise<T>,
): Promise<boolean> {
  const [row] = await deps
    .connectionFor(tenantId)
    .select({ providerSubscriptionId: paypalCouponRevisions.providerSubscriptionId })
    .from(paypalCouponRevisions)
    .where(
      and(
        eq(paypalCouponRevisions.tenantId, tenantId),
        eq(paypalCouponRevisions.subscriptionId, subscriptionId),
        eq(paypalCouponRevisions.status, 'pending'),
      ),
    )
    .orderBy(desc(paypalCouponRevisions.id))
    .limit(1);
  if (!row) return false;
  const { adapter } = await deps.providers.paypal(tenantId);
  const remote = await adapter.getSubscription(row.providerSubscriptionId);
  if (!remote.planId || remote.planOverridden === true) return false;
  const planId = remote.planId;
  const done = await run((w) => confirmPayPalCoupon(w, row.providerSubscriptionId, planId));
  return done.outcome === 'applied';
}
