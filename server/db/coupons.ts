/**
 * A coupon on a subscription (issue 30), shared by billing (Create, quote, the periods' payments)
 * and invoicing (the discount of a paid payment), as fiscal-profiles.ts is: the code checked for a plan (`couponCode` of subscription
 * Create and quote), redeemed once per subscription with the maximum enforced by a conditional
 * update, and the discount's life over the paid periods (once: the first; repeating N: the first N;
 * forever). The discount reaches the document through the payments: a payment made while the
 * redemption lasts carries its id, and its invoice applies that discount (the one computation).
 */
import { and, count, eq, isNull, or, sql, lt } from 'drizzle-orm';
import { romeDay } from '../../contract/billing-dates';
import type { LineDiscount } from '../../contract/invoice/fiscal-document';
import { couponMessages, serverMessages } from '../../contract/messages';
import { discountOf, normalizeCouponCode, type CouponDuration } from '../../contract/schemas/coupon';
import { couponRedemptions, coupons, payments } from './schema';
import { HttpError } from '../lib/http-error';
import type { TenantScope, UnitOfWork } from '../unit-of-work/unit-of-work';

const couponError = (message: string) =>
  new HttpError(400, serverMessages.validation, { errors: [`couponCode: ${message}`] });

/** A coupon that may be redeemed now on a plan, with its discount. */
export interface UsableCoupon {
  id: number;
  code: string;
  duration: CouponDuration;
  durationPeriods: number | null;
  planIds: number[];
  discount: LineDiscount;
}

/**
 * The tenant's coupon of `code` (case-insensitive) if it can be used today on `planId`; otherwise a
 * 400 on `couponCode`: unknown 'Coupon non valido', past its last day 'Coupon scaduto', no uses
 * left 'Coupon esaurito', not among its plans 'Coupon non valido per questo piano'.
 */
export async function usableCoupon(
  uow: TenantScope & { now: Date },
  code: string,
  planId: number,
): Promise<UsableCoupon> {
  const [c] = await uow.tx
    .select()
    .from(coupons)
    .where(
      and(
        eq(coupons.tenantId, uow.tenantId),
        sql`lower(${coupons.code}) = lower(${normalizeCouponCode(code)})`,
      ),
    );
  if (!c) throw couponError(couponMessages.invalid);
  if (c.expiresAt !== null && c.expiresAt < romeDay(uow.now)) throw couponError(couponMessages.expired);
  if (c.maxRedemptions !== null && c.timesRedeemed >= c.maxRedemptions)
    throw couponError(couponMessages.exhausted);
  if (c.planIds.length > 0 && !c.planIds.includes(planId)) throw couponError(couponMessages.notForPlan);
  return {
    id: c.id,
    code: c.code,
    duration: c.duration as CouponDuration,
    durationPeriods: c.durationPeriods,
    planIds: c.planIds,
    discount: discountOf(c),
  };
}

/** How many paid periods a new redemption discounts (null: all). */
export function periodsOf(c: Pick<UsableCoupon, 'duration' | 'durationPeriods'>): number | null {
  if (c.duration === 'forever') return null;
  return c.duration === 'once' ? 1 : (c.durationPeriods ?? 1);
}

/**
 * Redeems `coupon` for a new subscription: one more use, counted only while uses remain (a
 * conditional update, which locks the coupon's row: two Creates racing for the last use are
 * serialized and the second answers 'Coupon esaurito'), and the redemption with the discount
 * copied. Answers the redemption's id.
 */
export async function redeemCoupon(uow: UnitOfWork, coupon: UsableCoupon, subscriptionId: number) {
  const counted = await uow.tx
    .update(coupons)
    .set({ timesRedeemed: sql`${coupons.timesRedeemed} + 1` })
    .where(
      and(
        eq(coupons.tenantId, uow.tenantId),
        eq(coupons.id, coupon.id),
        or(isNull(coupons.maxRedemptions), lt(coupons.timesRedeemed, coupons.maxRedemptions)),
      ),
    )
    .returning({ id: coupons.id });
  if (counted.length === 0) throw couponError(couponMessages.exhausted);
  const [row] = await uow.tx
    .insert(couponRedemptions)
    .values({
      tenantId: uow.tenantId,
      couponId: coupon.id,
      subscriptionId,
      percentOffHundredths: 'percentOff' in coupon.discount ? coupon.discount.percentOff : null,
      amountOffCents: 'amountOffCents' in coupon.discount ? coupon.discount.amountOffCents : null,
      periodsLeft: periodsOf(coupon),
      createdAt: uow.now,
    })
    .returning({ id: couponRedemptions.id });
  if (!row) throw new Error('coupon redemption insert returned no row');
  return row.id;
}

/** A subscription's redemption, with its coupon's plans (null: none). */
export async function redemptionOf(uow: TenantScope, subscriptionId: number) {
  const [r] = await uow.tx
    .select({
      id: couponRedemptions.id,
      percentOffHundredths: couponRedemptions.percentOffHundredths,
      amountOffCents: couponRedemptions.amountOffCents,
      periodsLeft: couponRedemptions.periodsLeft,
      code: coupons.code,
      planIds: coupons.planIds,
    })
    .from(couponRedemptions)
    .innerJoin(
      coupons,
      and(eq(coupons.id, couponRedemptions.couponId), eq(coupons.tenantId, couponRedemptions.tenantId)),
    )
    .where(
      and(eq(couponRedemptions.tenantId, uow.tenantId), eq(couponRedemptions.subscriptionId, subscriptionId)),
    );
  return r ? { ...r, discount: discountOf(r) } : null;
}

/** The discount a payment carries (its redemption's), or null. */
export async function discountOfPayment(
  uow: TenantScope,
  couponRedemptionId: number | null,
): Promise<LineDiscount | null> {
  if (couponRedemptionId === null) return null;
  const [r] = await uow.tx
    .select({
      percentOffHundredths: couponRedemptions.percentOffHundredths,
      amountOffCents: couponRedemptions.amountOffCents,
    })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.tenantId, uow.tenantId), eq(couponRedemptions.id, couponRedemptionId)));
  return r ? discountOf(r) : null;
}

/**
 * The redemption a new payment of the subscription carries: while paid periods remain to discount
 * beyond the discounted payments still unpaid (forever: always), else null. The subscription's
 * amount due is discounted exactly as long (see `couponPeriodPaid`), so the payment's amount and
 * its invoice agree.
 */
export async function redemptionForNextPayment(
  uow: TenantScope,
  subscriptionId: number,
): Promise<number | null> {
  const r = await redemptionOf(uow, subscriptionId);
  if (!r) return null;
  if (r.periodsLeft === null) return r.id;
  const [open] = await uow.tx
    .select({ n: count() })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, uow.tenantId),
        eq(payments.couponRedemptionId, r.id),
        isNull(payments.paidAt),
      ),
    );
  return r.periodsLeft > (open?.n ?? 0) ? r.id : null;
}

/**
 * A discounted payment was paid: one paid period fewer to discount. When none is left, the
 * subscription's amount due returns to the full price (`fullAmount`, the document without the
 * discount), so the next period is asked in full. Answers whether it changed anything.
 */
export async function couponPeriodPaid(
  uow: UnitOfWork,
  paymentId: number,
  fullAmount: (subscriptionId: number) => Promise<void>,
): Promise<boolean> {
  const [p] = await uow.tx
    .select({ redemptionId: payments.couponRedemptionId, subscriptionId: payments.subscriptionId })
    .from(payments)
    .where(and(eq(payments.tenantId, uow.tenantId), eq(payments.id, paymentId)));
  if (!p?.redemptionId) return false;
  const [left] = await uow.tx
    .update(couponRedemptions)
    .set({ periodsLeft: sql`${couponRedemptions.periodsLeft} - 1` })
    .where(
      and(
        eq(couponRedemptions.tenantId, uow.tenantId),
        eq(couponRedemptions.id, p.redemptionId),
        sql`${couponRedemptions.periodsLeft} > 0`,
      ),
    )
    .returning({ periodsLeft: couponRedemptions.periodsLeft });
  if (!left) return false;
  if (left.periodsLeft === 0) await fullAmount(p.subscriptionId);
  return true;
}
