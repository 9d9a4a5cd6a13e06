/**
 * 'Applica coupon' on a subscription PayPal charges (issue 30; server/README 'Coupons at PayPal').
 *
 *   1. In a unit, checked and computed only (`paypalReviseTarget`): the subscription (another
 *      tenant's: 404), PayPal charging it, the code checked as for any subscription (the same 400s).
 *   2. Outside any transaction: the coupon's own PayPal plan (`couponPlanAtPayPal`, keyed: a retry
 *      makes no second plan), then `POST …/revise` to it (keyed too), whose `approve` link the buyer
 *      must open: PayPal keeps billing the old plan until then. A PayPal failure throws (502) and
 *      nothing changes in Rinnova.
 *   3. In a unit: the pending application (`paypal_coupon_revisions`, waiting 30 days), other
 *      pending ones of the subscription replaced, and `paypalCoupon.approvalRequested` published:
 *      its after-commit consumer mails the customer the link once (`subscribePayPalCouponMail`).
 *      Nothing is redeemed: the subscription's amount due stays the full price. Unapproved at
 *      `expires_at`, the application no longer shows and the job makes it 'expired'.
 *   4. PayPal's confirmation (BILLING.SUBSCRIPTION.UPDATED whose plan_id is the coupon's plan, or
 *      the subscription read back on it: `confirmPayPalCoupon`): the coupon is redeemed once (the
 *      row locked and moved to 'redeemed'; a replay finds nothing pending; an 'expired' one PayPal
 *      confirms all the same is redeemed too: PayPal charges its plan) and the subscription's
 *      amount due becomes the discounted one, so each renewal PayPal charges on its TRIAL cycles
 *      carries the redemption and asks exactly what PayPal took; at 0 periods left the full price
 *      again, PayPal's REGULAR cycle.
 */
import { couponMessages } from '../../../contract/messages';
import { and, desc, eq, gt, inArray, lte, ne, sql } from 'drizzle-orm';
import { serverMessages } from '../../../contract/messages';
import { fromCents, toCents } from '../../../contract/money';
import type { CouponQuote } from '../../../contract/schemas/coupon-apply';
import { discountOf, type CouponDuration } from '../../../contract/schemas/coupon';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { redeemCoupon } from '../../db/coupons';
import { coupons, payments, paypalCouponRevisions, plans, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { EventBus } from '../../unit-of-work/events';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription } from './billing.repository';
import {
  applyCouponToSubscription,
  appliedCouponOf,
  chargedByProvider,
  couponPlanAtPayPal,
  type PayPalCouponTarget,
} from './coupon-apply.service';
import { mailPayPalApproval } from './paypal-approval-mail';
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

/**
 * How long an application waits for the customer's approval. PayPal documents no lifetime for a
 * revise's `approve` link (server/README 'Coupons at PayPal'): Rinnova gives it 30 days from the
 * application, then it is 'expired' (the paypal-coupon-expiry job) and the Admin may apply again.
 */
export const PAYPAL_APPROVAL_DAYS = 30;
const DAY_MS = 86_400_000;

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
      .select({
        id: paypalCouponRevisions.id,
        status: paypalCouponRevisions.status,
        expiresAt: paypalCouponRevisions.expiresAt,
      })
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
    // Still waiting (a second click): the same application, its deadline and e-mail as they were.
    const waiting = known?.status === 'pending' && known.expiresAt > w.now;
    const expiresAt = new Date(w.now.getTime() + PAYPAL_APPROVAL_DAYS * DAY_MS);
    let revisionId: number;
    if (known) {
      revisionId = known.id;
      await w.tx
        .update(paypalCouponRevisions)
        .set(
          waiting
            ? { approveUrl, status: 'pending' }
            : { approveUrl, status: 'pending', expiresAt, mailedAt: null },
        )
        .where(and(eq(paypalCouponRevisions.tenantId, w.tenantId), eq(paypalCouponRevisions.id, known.id)));
    } else {
      const [row] = await w.tx
        .insert(paypalCouponRevisions)
        .values({
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
          expiresAt,
        })
        .returning({ id: paypalCouponRevisions.id });
      revisionId = row!.id;
    }
    // The customer is told once per application (a second click sends nothing more): the
    // e-mail is the event's consumer's, after commit (`subscribePayPalCouponMail`).
    if (!waiting && approveUrl)
      await w.publish('paypalCoupon.approvalRequested', { subscriptionId, revisionId });
    return { ...quote, approveUrl };
  });
}

/** The consumer's actor (the outbox delivers the event after the Admin's unit committed). */
export const PAYPAL_COUPON_MAIL = 'paypal-coupon-mail';

/**
 * The customer's e-mail with the approval link of revision `revisionId`, in the consumer's own
 * unit: written to the outbox once (the row's `mailed_at`), and only while the application still
 * waits (not replaced, redeemed or expired meanwhile). A retried delivery sends nothing more.
 */
export async function mailApproval(w: UnitOfWork, revisionId: number): Promise<boolean> {
  const [row] = await w.tx
    .select({
      status: paypalCouponRevisions.status,
      approveUrl: paypalCouponRevisions.approveUrl,
      expiresAt: paypalCouponRevisions.expiresAt,
      mailedAt: paypalCouponRevisions.mailedAt,
      subscriptionId: paypalCouponRevisions.subscriptionId,
      couponId: paypalCouponRevisions.couponId,
      discountedCents: paypalCouponRevisions.discountedCents,
      fullCents: paypalCouponRevisions.fullCents,
      periods: paypalCouponRevisions.periods,
    })
    .from(paypalCouponRevisions)
    .where(and(eq(paypalCouponRevisions.tenantId, w.tenantId), eq(paypalCouponRevisions.id, revisionId)))
    .for('update');
  if (!row?.approveUrl || row.status !== 'pending' || row.mailedAt || row.expiresAt <= w.now) return false;
  const approveUrl = row.approveUrl;
  const [sub] = await w.tx
    .select({ userId: subscriptions.userId, planId: subscriptions.planId, code: coupons.code })
    .from(subscriptions)
    .innerJoin(coupons, and(eq(coupons.tenantId, subscriptions.tenantId), eq(coupons.id, row.couponId)))
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, row.subscriptionId)));
  if (!sub) return false;
  await w.tx
    .update(paypalCouponRevisions)
    .set({ mailedAt: w.now })
    .where(and(eq(paypalCouponRevisions.tenantId, w.tenantId), eq(paypalCouponRevisions.id, revisionId)));
  const [plan] = await w.tx
    .select({ name: plans.name })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, sub.planId)));
  const periods =
    row.periods === null
      ? 'per sempre'
      : row.periods === 1
        ? 'per il prossimo periodo'
        : `per i prossimi ${row.periods} periodi`;
  return mailPayPalApproval(w, sub.userId, {
    subject: paypalCouponTexts.mailSubject,
    what: (tenantName) =>
      `${tenantName} ti ha applicato il coupon ${sub.code} sull’abbonamento ${plan?.name ?? ''}: ` +
      `pagherai ${formatEur(row.discountedCents)} invece di ${formatEur(row.fullCents)} ${periods}.`,
    how:
      'Il tuo abbonamento si rinnova con PayPal: perché lo sconto valga devi approvarlo su PayPal da questo link. ' +
      'Finché non lo approvi, PayPal continua ad addebitare il prezzo pieno.',
    linkText: 'Approva lo sconto su PayPal',
    approveUrl,
  });
}

/** Billing's after-commit consumer of a PayPal coupon application: the approval e-mail (app start). */
export function subscribePayPalCouponMail(events: EventBus, deps: () => Pick<ProviderDeps, 'uow'>): void {
  events.subscribe('paypalCoupon.approvalRequested', {
    name: 'billing.paypalCouponMail',
    phase: 'afterCommit',
    handle: async ({ tenantId, payload }) => {
      await deps().uow.run({ tenantId, actor: { kind: 'system', job: PAYPAL_COUPON_MAIL } }, (w) =>
        mailApproval(w, payload.revisionId),
      );
    },
  });
}

export interface PayPalCouponApprovalView {
  code: string;
  approveUrl: string;
  amount: number;
  fullAmount: number;
  periods: number | null;
  /** ISO date-time: past it the application expires. */
  expiresAt: string;
}

/**
 * The pending applications customers must approve on PayPal (their area's link, the Admin's
 * 'Coupon' card), by subscription id, in one query for all of `subscriptionIds`: the latest one
 * still waiting at `now` (past its `expires_at` it no longer waits, even before the expiry job
 * marks it) of an Active or ActiveNoRenewal subscription.
 */
export async function paypalCouponApprovalsOf(
  scope: TenantScope,
  subscriptionIds: readonly number[],
  now: Date,
): Promise<Map<number, PayPalCouponApprovalView>> {
  const out = new Map<number, PayPalCouponApprovalView>();
  if (subscriptionIds.length === 0) return out;
  const rows = await scope.tx
    .select({
      subscriptionId: paypalCouponRevisions.subscriptionId,
      code: coupons.code,
      approveUrl: paypalCouponRevisions.approveUrl,
      discountedCents: paypalCouponRevisions.discountedCents,
      fullCents: paypalCouponRevisions.fullCents,
      periods: paypalCouponRevisions.periods,
      expiresAt: paypalCouponRevisions.expiresAt,
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
        inArray(paypalCouponRevisions.subscriptionId, [...subscriptionIds]),
        eq(paypalCouponRevisions.status, 'pending'),
        gt(paypalCouponRevisions.expiresAt, now),
        sql`${paypalCouponRevisions.approveUrl} is not null`,
        sql`${subscriptions.status} in (${SubscriptionStatus.Active}, ${SubscriptionStatus.ActiveNoRenewal})`,
      ),
    )
    .orderBy(desc(paypalCouponRevisions.id));
  for (const row of rows) {
    if (!row.approveUrl || out.has(row.subscriptionId)) continue;
    out.set(row.subscriptionId, {
      code: row.code,
      approveUrl: row.approveUrl,
      amount: fromCents(row.discountedCents),
      fullAmount: fromCents(row.fullCents),
      periods: row.periods,
      expiresAt: row.expiresAt.toISOString(),
    });
  }
  return out;
}

/** The pending application a customer must approve on PayPal for one subscription, or null. */
export async function paypalCouponApprovalOf(
  scope: TenantScope,
  subscriptionId: number,
  now: Date,
): Promise<PayPalCouponApprovalView | null> {
  return (await paypalCouponApprovalsOf(scope, [subscriptionId], now)).get(subscriptionId) ?? null;
}

/**
 * The paypal-coupon-expiry job's work for one tenant: every application still pending at its
 * `expires_at` moves to 'expired' (nothing redeemed: the coupon was never used). Running it twice
 * expires each once. Answers how many moved.
 */
export async function expirePayPalCouponApprovals(w: UnitOfWork): Promise<number> {
  const moved = await w.tx
    .update(paypalCouponRevisions)
    .set({ status: 'expired' })
    .where(
      and(
        eq(paypalCouponRevisions.tenantId, w.tenantId),
        eq(paypalCouponRevisions.status, 'pending'),
        lte(paypalCouponRevisions.expiresAt, w.now),
      ),
    )
    .returning({ id: paypalCouponRevisions.id });
  return moved.length;
}

/**
 * PayPal confirms that subscription `providerSubscriptionId` bills `planId` (step 4): the pending
 * application on that plan, if any, is redeemed once. 'unchanged' when nothing waits (a replay,
 * another update, a plan that is no coupon's).
 * An application 'expired' in Rinnova that the customer approved all the same (an old e-mail's
 * link: PayPal documents no end to it) is redeemed too: PayPal now charges the discounted amount,
 * so Rinnova's amount due must follow; a later application of the subscription still waiting is
 * 'replaced'. Once: the row is then 'redeemed' and a replay finds nothing.
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
        inArray(paypalCouponRevisions.status, ['pending', 'expired']),
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
  await w.tx
    .update(paypalCouponRevisions)
    .set({ status: 'replaced' })
    .where(
      and(
        eq(paypalCouponRevisions.tenantId, w.tenantId),
        eq(paypalCouponRevisions.subscriptionId, sub.id),
        eq(paypalCouponRevisions.status, 'pending'),
      ),
    );
  const late = row.status === 'expired' ? ' dopo la scadenza della richiesta' : '';
  return {
    outcome: 'applied',
    detail: `coupon ${c.code} approvato su PayPal${late}: sottoscrizione ${sub.id}`,
  };
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
        inArray(paypalCouponRevisions.status, ['pending', 'expired']),
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
