/**
 * Subscriptions, their payments, bank transfers and status history, as the billing calls answer
 * and accept them (api-contract 'Billing calls'). Money travels as euros (JSON numbers, two
 * decimals) and is computed in cents (contract/money.ts); dates are ISO-8601 strings.
 */
import type { CouponQuote } from './coupon-apply';
import { z } from 'zod';
import type { SubscriptionPause } from './pause';
import { parseBillingDateTime } from '../billing-dates';
import type { SubscriptionStatusId } from '../enums';
import { toCents, toPercentHundredths } from '../money';
import type { HistoryOnlyEvent, SubscriptionAction, SubscriptionEvent } from '../subscription-status';
import { billingValidationMessages as m } from '../validation/italian';
import { optionalId, requiredId } from './common';
import type { CollectionStatus } from './collection';
import { blankToNull, requiredRef } from './fields';
import type { RecurrenceTypeId } from './plan';

export type PaymentMethod = 'bankTransfer' | 'paypal' | 'stripe';

export interface Payment {
  id: number;
  /** EUR with VAT. */
  amountDue: number;
  currency: 'EUR';
  /** Sum of the approved bank transfers (EUR). */
  approvedAmount: number;
  /** Sum of every recorded bank transfer, approved or not (EUR). */
  transferredAmount: number;
  providerSubscriptionId: string | null;
  method: PaymentMethod | null;
  /** The bank-transfer causale that identifies this payment. */
  causale: string;
  periodStart: string;
  periodEnd: string;
  paidAt: string | null;
  /** Collection (issue 29): when it is due, YYYY-MM-DD (Europe/Rome). */
  dueDate: string;
  /** 'due' | 'overdue' | 'recovered' | 'exhausted' (contract/schemas/collection.ts). */
  collectionStatus: CollectionStatus;
  /**
   * Issue 30: a payment that is not a period's — a one-off charge's ('oneOff') or a plan change's
   * proration ('proration') — else null (absent in older answers).
   */
  extra?: 'oneOff' | 'proration' | null;
}

export interface SubscriptionHistoryEntry {
  id: number;
  event: SubscriptionEvent | 'create' | HistoryOnlyEvent;
  fromStatus: SubscriptionStatusId | null;
  toStatus: SubscriptionStatusId;
  actor: {
    kind: 'user' | 'paymentToken' | 'provider' | 'system' | 'apiKey';
    id: string | null;
    name: string | null;
  };
  reason: string | null;
  at: string;
}

/** A plan change waiting for its day (issue 30), as GetById answers it. */
export interface ScheduledPlanChange {
  id: number;
  planId: number;
  planName: string;
  /** When the new plan starts (ISO) and its Rome day (YYYY-MM-DD). */
  effectiveAt: string;
  effectiveDay: string;
  /** 'renewal' (the next billing date) or 'date' (a chosen day of the period). */
  when: 'renewal' | 'date';
}
export type TrialState = 'running' | 'converted' | 'expired';

export interface Subscription {
  id: number;
  userID: number;
  planID: number;
  user: { id: number; name: string | null; email: string };
  plan: {
    id: number;
    name: string;
    recurrenceType: RecurrenceTypeId;
    recurrenceTypeName: string;
    recurringCostBeforeVAT: number;
    vatPercentage: number;
  };
  startDate: string;
  /** Start date + the plan's recurrence months, clamped to the month's end; computed by the server. */
  nextBillingDate: string;
  subscriptionStatus: SubscriptionStatusId;
  subscriptionStatusName: string;
  /**
   * Issue 30 ('Prove'): the end of the free trial the subscription started with (its first payment
   * is due then), or null; `trialState` 'running' | 'converted' | 'expired' (null without a trial).
   */
  trialEndsAt?: string | null;
  trialState?: TrialState | null;
  /** The agreed price before VAT (EUR) and VAT (%), and the amount due with VAT (EUR). */
  costBeforeVAT: number;
  vatPercentage: number;
  amountDue: number;
  currency: 'EUR';
  payments: Payment[];
  /** The actions the caller may take now (the state machine and its guards). */
  allowedActions: SubscriptionAction[];
  createdAt: string;
  /** GetById only: the status history, oldest first. */
  history?: SubscriptionHistoryEntry[];
  /** GetById only: the plan change scheduled for a later day, or null. */
  scheduledPlanChange?: ScheduledPlanChange | null;
  /** Issue 30: the pause of collection ('Sospendi incasso'), or null. */
  pause?: SubscriptionPause | null;
  /** GetById only (issue 30): the coupon in effect (code, discount, periods left), or null. */
  coupon?: CouponQuote | null;
  /**
   * Issue 30: a coupon the Admin applied on a subscription PayPal charges, waiting for the
   * customer's approval on PayPal (`approveUrl`): the discounted and full amounts per period
   * (euro), the discounted periods (null: all) and until when it waits. Null when none waits.
   */
  paypalCouponApproval?: PayPalCouponApproval | null;
  /**
   * Issue 30 ('Cambia piano' on a subscription PayPal charges): the change whose PayPal revise waits
   * for the customer's approval (`approveUrl`); until then PayPal bills the previous plan. Null when
   * none waits.
   */
  paypalPlanChangeApproval?: PayPalPlanChangeApproval | null;
  /**
   * GetById only (issue 30, 'Cambia piano'): the customer's credit left by plan changes (euro), set
   * off against the next period payments; `creditSetOff` false: not by Rinnova (a PayPal subscription:
   * its charges cannot be lowered, the credit waits for the Admin).
   */
  creditBalance?: number;
  creditSetOff?: boolean;
}

export interface PayPalPlanChangeApproval {
  planChangeId: number;
  /** The new plan. */
  planName: string;
  approveUrl: string;
  /** What PayPal charges next once approved (euro): discounted while a coupon runs. */
  amount: number;
  /** The new plan's full price per period (euro). */
  fullAmount: number;
}

export interface PayPalCouponApproval {
  code: string;
  approveUrl: string;
  amount: number;
  fullAmount: number;
  periods: number | null;
  /** Until when the approval is asked (ISO date-time): past it the application expires. */
  expiresAt?: string;
}

/** Euros with at most two decimals, ≥ 0 (or > 0), as a number or a '49,50' string; '' / null → absent. */
function euros(message: string, positive = false) {
  return z.preprocess(
    blankToNull,
    z.union([z.number(), z.string()], { error: message }).transform((v, ctx) => {
      try {
        const cents = toCents(v);
        if (cents < 0 || (positive && cents === 0) || cents > 1_000_000_000) throw new RangeError();
        return cents;
      } catch {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
    }),
  );
}

/** VAT % 0–100 with at most two decimals → hundredths. */
const vatHundredths = z.preprocess(
  blankToNull,
  z.union([z.number(), z.string()], { error: m.vatInvalid }).transform((v, ctx) => {
    try {
      const h = toPercentHundredths(v);
      if (h < 0 || h > 10_000) throw new RangeError();
      return h;
    } catch {
      ctx.addIssue({ code: 'custom', message: m.vatInvalid });
      return z.NEVER;
    }
  }),
);

/** A date or date-time (ISO, or Rome's wall clock without an offset) → Date. */
export function dateTimeField(message: string) {
  return z.preprocess(
    blankToNull,
    z.string({ error: message }).transform((v, ctx) => {
      const d = parseBillingDateTime(v);
      if (!d) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return d;
    }),
  );
}

/**
 * Body of `POST api/subscription/Create`: customer and plan; `paymentAmount` (cost before VAT, EUR)
 * and `vatPercentage` default to the plan's; `startDate` defaults to now. `subscriptionStatus` and
 * `subscriptionStatusName` may be sent (the spec's payload) and are ignored: a new subscription is
 * always NotActive.
 */
export const subscriptionCreateSchema = z.object({
  id: optionalId,
  userId: requiredRef(m.userRequired),
  planId: requiredRef(m.planRequired),
  paymentAmount: euros(m.costInvalid).nullable().optional(),
  vatPercentage: vatHundredths.nullable().optional(),
  startDate: dateTimeField(m.startDateInvalid).nullable().optional(),
  /**
   * A coupon's code (issue 30), any case; '' / null → none. Checked for the plan by the server:
   * 400 on `couponCode` with 'Coupon non valido', 'Coupon scaduto', 'Coupon esaurito' or 'Coupon
   * non valido per questo piano'.
   */
  couponCode: z.preprocess(blankToNull, z.string().max(40).nullable().optional()),
  subscriptionStatus: z.unknown().optional(),
  subscriptionStatusName: z.unknown().optional(),
});
export type SubscriptionCreateInput = z.input<typeof subscriptionCreateSchema>;

/**
 * Body of `POST api/subscription/quote` (api-contract 'Fiscal profiles'): the customer, the plan and
 * the agreed price and VAT (absent → the plan's). Answers the document a payment would produce
 * (contract/invoice/quote.ts) before anything is created.
 */
export const subscriptionQuoteSchema = subscriptionCreateSchema.pick({
  userId: true,
  planId: true,
  paymentAmount: true,
  vatPercentage: true,
  couponCode: true,
});
export type SubscriptionQuoteInput = z.input<typeof subscriptionQuoteSchema>;

/**
 * Body of `PUT api/subscription/Update`: while NotActive, the plan and the agreed price may change
 * (the unpaid payment follows); start date and customer are fixed after create (sending them
 * unchanged is fine, a different value is a 400).
 */
export const subscriptionUpdateSchema = subscriptionCreateSchema.omit({ couponCode: true }).extend({
  id: requiredId,
  userId: requiredRef(m.userRequired).optional(),
  planId: requiredRef(m.planRequired).optional(),
});
export type SubscriptionUpdateInput = z.input<typeof subscriptionUpdateSchema>;

export interface BankTransfer {
  id: number;
  paymentId: number;
  /** EUR. */
  amount: number;
  /** ISO date-time; null while the transfer is not yet approved. */
  approvalDate: string | null;
  createdAt: string;
}

/** Body of `POST api/BankTransfer/create` and (with `id`) `PUT api/BankTransfer/update`. */
export const bankTransferInputSchema = z.object({
  id: optionalId,
  paymentId: requiredRef(m.paymentRequired),
  amount: euros(m.amountInvalid, true).refine((v) => v !== null && v !== undefined, {
    message: m.amountInvalid,
  }),
  approvalDate: dateTimeField(m.approvalDateInvalid).nullable().optional(),
});
export type BankTransferInput = z.input<typeof bankTransferInputSchema>;

/** What the bank-transfer modal and the customer's e-mail show: where and how to pay. */
export interface BankTransferInstructions {
  beneficiary: string;
  iban: string;
  amountDue: number;
  currency: 'EUR';
  causale: string;
}

/**
 * 'Paga ora' of the customer area (issue 28, `POST api/user/me/subscriptions/{id}/pay`): for a
 * payment by bank transfer, the instructions (`netToPay`: the payment's amount due in euros, the
 * document's net to pay); otherwise a fresh payment link (one hour) to open.
 */
export type PayNow =
  | { method: 'link'; paymentId: number; url: string; expiryDate: string }
  | {
      method: 'bankTransfer';
      paymentId: number;
      beneficiary: string;
      iban: string;
      netToPay: number;
      currency: 'EUR';
      causale: string;
    };

/** 'Metodo di pagamento' of the customer area: the provider's own page, or bank transfer from the next period. */
export const paymentMethodActions = ['portal', 'bankTransfer'] as const;
export type PaymentMethodAction = (typeof paymentMethodActions)[number];
export const paymentMethodInputSchema = z.object({
  action: z.enum(paymentMethodActions, { error: 'Scegli «portal» o «bankTransfer».' }),
});
export type PaymentMethodInput = z.input<typeof paymentMethodInputSchema>;

/**
 * `portal`: where to send the browser (Stripe's billing portal session, PayPal's automatic
 * payments page). `bankTransfer`: the next period's payment (from `nextBillingDate`) is by bank
 * transfer; `changed` false when it already was (the call is idempotent).
 */
export type PaymentMethodAnswer =
  | { action: 'portal'; provider: 'stripe' | 'paypal'; url: string }
  | { action: 'bankTransfer'; nextBillingDate: string; paymentId: number; changed: boolean };
