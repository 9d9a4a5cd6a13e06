/**
 * Coupons (issue 30; api-contract 'Changes after the first payment'): `api/coupon/getAll|GetById|
 * Create|Update|Delete`. A coupon takes `percentOff` (percent, two decimals) or `amountOff` (euros,
 * two decimals) off a subscription's fee, 'once' (the first period), 'repeating' (the first
 * `durationPeriods` paid periods) or 'forever'; optionally only on some plans, until `expiresAt`
 * (a day, Europe/Rome, included) and at most `maxRedemptions` times. `couponCode` is accepted by
 * subscription Create and quote.
 */
import { z } from 'zod';
import { romeDay } from '../billing-dates';
import { couponMessages as m } from '../messages';
import { fromCents, fromPercentHundredths, toCents, toPercentHundredths, MAX_CENTS } from '../money';
import { optionalId, idInput, idNumber } from './common';
import { blankToNull } from './fields';

export const couponDurations = ['once', 'repeating', 'forever'] as const;
export type CouponDuration = (typeof couponDurations)[number];
export const MAX_DURATION_PERIODS = 36;

/** What a coupon takes off one line: a percentage (hundredths) or an amount (cents). */
export type CouponDiscount = { percentOff: number } | { amountOffCents: number };

/** A coupon as the server answers it. */
export interface Coupon {
  id: number;
  /** Upper case: A–Z, 0–9, '-' and '_'. */
  code: string;
  /** Percent (e.g. 10 or 12.5), or null for an amount coupon. */
  percentOff: number | null;
  /** Euros before VAT, or null for a percentage coupon. */
  amountOff: number | null;
  duration: CouponDuration;
  /** Only for 'repeating': how many paid periods it lasts (1–36). */
  durationPeriods: number | null;
  /** The plans it applies to; [] → every plan. */
  planIds: number[];
  /** Last day it can be redeemed (YYYY-MM-DD, Europe/Rome), or null. */
  expiresAt: string | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  /** Not expired and not exhausted. */
  active: boolean;
  /** The list's texts: '10%' / '5,00 €', 'Una volta' / 'Per 3 periodi' / 'Sempre', '3 / 10' (or '3'). */
  discountLabel: string;
  durationLabel: string;
  usageLabel: string;
  createdAt: string;
}

export const COUPON_CODE = /^[A-Z0-9_-]{3,40}$/;

/** A code as typed → its stored form (trimmed, upper case). */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

const code = z.preprocess(
  (v) => (typeof v === 'string' ? normalizeCouponCode(v) : v),
  z
    .string({ error: m.codeRequired })
    .min(1, { message: m.codeRequired, abort: true })
    .regex(COUPON_CODE, { message: m.codeInvalid }),
);

/** A number or a '12,5' string → hundredths / cents, or null when blank. */
function scaled(convert: (v: number | string) => number, ok: (n: number) => boolean, message: string) {
  return z.preprocess(
    blankToNull,
    z
      .union([z.number(), z.string()], { error: message })
      .transform((v, ctx) => {
        try {
          const n = convert(v);
          if (!ok(n)) throw new RangeError();
          return n;
        } catch {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
      })
      .nullable()
      .optional(),
  );
}

const integerIn = (min: number, max: number, message: string) =>
  z.preprocess(
    (v) => {
      const b = blankToNull(v);
      return typeof b === 'string' && /^\d+$/.test(b) ? Number(b) : b;
    },
    z
      .number({ error: message })
      .int({ message })
      .min(min, { message })
      .max(max, { message })
      .nullable()
      .optional(),
  );

const day = z.preprocess(
  blankToNull,
  z
    .string({ error: m.expiresInvalid })
    .transform((v, ctx) => {
      // A date, or a date-time whose Rome day is taken.
      const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T12:00:00Z`) : new Date(v);
      if (
        Number.isNaN(d.getTime()) ||
        (/^\d{4}-\d{2}-\d{2}$/.test(v) && d.toISOString().slice(0, 10) !== v)
      ) {
        ctx.addIssue({ code: 'custom', message: m.expiresInvalid });
        return z.NEVER;
      }
      return /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : romeDay(d);
    })
    .nullable()
    .optional(),
);

/** Absent: every plan on Create, unchanged on Update (a form without the plan picker keeps them). */
const planIds = z.preprocess(
  (v) => (v === null || v === '' ? [] : Array.isArray(v) ? v.map(idInput) : v),
  z
    .array(idNumber(1, m.planUnknown), { error: m.planUnknown })
    .max(100)
    .transform((ids) => [...new Set(ids)])
    .optional(),
);

/**
 * Body of `POST api/coupon/Create` and (with `id`) `PUT api/coupon/Update`. The rules between
 * fields (one discount, periods for 'repeating') are `couponRule`, applied last by the server.
 */
export const couponInputSchema = z.object({
  id: optionalId,
  code,
  /** Percent → hundredths (10 → 1000). */
  percentOff: scaled(toPercentHundredths, (h) => h > 0 && h <= 10_000, m.percentInvalid),
  /** Euros → cents. */
  amountOff: scaled(toCents, (c) => c > 0 && c <= MAX_CENTS, m.amountInvalid),
  duration: z.enum(couponDurations, { error: m.durationRequired }),
  durationPeriods: integerIn(1, MAX_DURATION_PERIODS, m.periodsInvalid),
  planIds,
  expiresAt: day,
  maxRedemptions: integerIn(1, 1_000_000_000, m.maxRedemptionsInvalid),
});
export type CouponInput = z.input<typeof couponInputSchema>;
export type CouponValues = z.output<typeof couponInputSchema>;

/** Exactly one discount; periods required for 'repeating' (and dropped for the others). */
export function couponRule(
  value: {
    percentOff?: number | null;
    amountOff?: number | null;
    duration: CouponDuration;
    durationPeriods?: number | null;
  },
  ctx: z.RefinementCtx,
): void {
  const hasPercent = value.percentOff !== null && value.percentOff !== undefined;
  const hasAmount = value.amountOff !== null && value.amountOff !== undefined;
  if (!hasPercent && !hasAmount)
    ctx.addIssue({ code: 'custom', path: ['percentOff'], message: m.discountRequired });
  if (hasPercent && hasAmount) ctx.addIssue({ code: 'custom', path: ['amountOff'], message: m.discountBoth });
  if (
    value.duration === 'repeating' &&
    (value.durationPeriods === null || value.durationPeriods === undefined)
  )
    ctx.addIssue({ code: 'custom', path: ['durationPeriods'], message: m.periodsRequired });
}

/** The discount of a coupon's stored figures. */
export function discountOf(c: {
  percentOffHundredths: number | null;
  amountOffCents: number | null;
}): CouponDiscount {
  return c.percentOffHundredths !== null
    ? { percentOff: c.percentOffHundredths }
    : { amountOffCents: c.amountOffCents ?? 0 };
}

/** Whether a coupon can be redeemed on `today` (YYYY-MM-DD, Rome): not expired, not exhausted. */
export function couponActive(
  c: { expiresAt: string | null; maxRedemptions: number | null; timesRedeemed: number },
  today: string,
): boolean {
  return (
    (c.expiresAt === null || c.expiresAt >= today) &&
    (c.maxRedemptions === null || c.timesRedeemed < c.maxRedemptions)
  );
}

const eur = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
const pct = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });

/** '10%' or '5,00 €' (the list's 'Sconto'). */
export function couponDiscountLabel(c: Pick<Coupon, 'percentOff' | 'amountOff'>): string {
  return c.percentOff !== null ? `${pct.format(c.percentOff)}%` : eur.format(c.amountOff ?? 0);
}

/** 'Una volta', 'Per 3 periodi', 'Sempre' (the list's 'Durata'). */
export function couponDurationLabel(c: Pick<Coupon, 'duration' | 'durationPeriods'>): string {
  if (c.duration === 'once') return 'Una volta';
  if (c.duration === 'forever') return 'Sempre';
  return c.durationPeriods === 1 ? 'Per 1 periodo' : `Per ${c.durationPeriods ?? 0} periodi`;
}

/** '3 / 10', or '3' without a maximum (the list's 'Utilizzi'). */
export function couponUsageLabel(c: Pick<Coupon, 'timesRedeemed' | 'maxRedemptions'>): string {
  return c.maxRedemptions === null ? String(c.timesRedeemed) : `${c.timesRedeemed} / ${c.maxRedemptions}`;
}

/** Stored figures → wire euros / percent. */
export const couponFigures = (percentOffHundredths: number | null, amountOffCents: number | null) => ({
  percentOff: percentOffHundredths === null ? null : fromPercentHundredths(percentOffHundredths),
  amountOff: amountOffCents === null ? null : fromCents(amountOffCents),
});
