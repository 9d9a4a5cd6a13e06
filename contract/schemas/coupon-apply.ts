/**
 * A coupon applied after Create (issue 30): entered by the customer on the public payment page
 * (`POST api/Payment/coupon {token, couponCode, preview}`) or applied by an Admin on a subscription
 * (`POST api/subscription/applyCoupon/{id} {couponCode, preview}`). Both answer a CouponQuote:
 * what one period costs without the coupon and with it, and for how many periods.
 */
import { z } from 'zod';

const couponCode = z.string().trim().max(40);

/** `POST api/Payment/coupon` body (public, with the payment link's token). */
export const paymentCouponSchema = z.object({
  token: z.string().trim().min(1).max(200),
  couponCode,
  /** true: nothing is redeemed, the quote only. */
  preview: z.boolean().optional(),
});

/** `POST api/subscription/applyCoupon/{id}` body (Admin). */
export const applyCouponSchema = z.object({
  couponCode,
  preview: z.boolean().optional(),
});

/** A coupon on one subscription: the discount, its periods and the period's amounts (EUR). */
export interface CouponQuote {
  code: string;
  /** '10%' or '5,00 €'. */
  discountLabel: string;
  /** 'Una volta', 'Per 3 periodi', 'Sempre'. */
  durationLabel: string;
  /** Paid periods still discounted (null: every period). */
  periodsLeft: number | null;
  /** What the discount takes off one period, before VAT. */
  discountAmount: number;
  /** One period's net to pay without the coupon. */
  fullAmount: number;
  /**
   * One period's net to pay with the coupon (what the next payment asks): for a payment that sets
   * off a residual credit, that net less the credit it uses (`creditUsed`).
   */
  amount: number;
  /** The residual credit the discounted payment sets off (EUR), only when it uses one. */
  creditUsed?: number;
  /** false: a preview, nothing redeemed. */
  applied: boolean;
}

export const couponQuoteSchema = z.object({
  code: z.string(),
  discountLabel: z.string(),
  durationLabel: z.string(),
  periodsLeft: z.number().nullable(),
  discountAmount: z.number(),
  fullAmount: z.number(),
  amount: z.number(),
  creditUsed: z.number().optional(),
  applied: z.boolean(),
});

/** 'per il primo periodo', 'per 3 periodi', 'per sempre': how long the quote's discount lasts. */
export function couponPeriodsText(periodsLeft: number | null, first = true): string {
  if (periodsLeft === null) return 'per sempre';
  if (periodsLeft === 1) return first ? 'per il primo periodo' : 'per il prossimo periodo';
  return first ? `per i primi ${periodsLeft} periodi` : `per i prossimi ${periodsLeft} periodi`;
}
