/**
 * Payment tokens, the public payment page's calls and the plan widget's subscribe call
 * (product spec §3 'Payment token', §7 'Payment token and payment'; api-contract 'Billing calls').
 */
import { z } from 'zod';
import { requiredId } from './common';
import type { RecurrenceTypeId } from './plan';
import type { CouponQuote } from './coupon-apply';

/** Payment token status (spec §3): Active=0, Used=1, Expired=2. */
export const PaymentTokenStatus = { Active: 0, Used: 1, Expired: 2 } as const;
export type PaymentTokenStatusId = (typeof PaymentTokenStatus)[keyof typeof PaymentTokenStatus];

/** A payment link lives 1 hour (spec §4, §9). */
export const PAYMENT_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/** The link of a token: `{origin}/payment?token=...&bypassTenant=true`. */
export function paymentUrlOf(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/payment?token=${encodeURIComponent(token)}&bypassTenant=true`;
}

/** `GET api/PaymentToken/validate?token=` → data: the token object (spec §3) and what the page shows. */
export interface PaymentTokenView {
  id: number;
  token: string;
  expiryDate: string;
  status: PaymentTokenStatusId;
  userId: number;
  planId: number;
  /** EUR with VAT. */
  amount: number;
  currency: 'EUR';
  paymentId: number;
  selectedPaymentProviderId: number | null;
  tenantID: number;
  paymentProviderPlanId: string;
  providerSubscriptionId: string | null;
  /** Beyond the spec's fields: what the customer is shown. */
  tenantName: string;
  plan: {
    name: string;
    recurrenceType: RecurrenceTypeId;
    recurrenceTypeName: string;
    features: string[];
  };
  costBeforeVAT: number;
  vatPercentage: number;
  /** The coupon on the subscription (issue 30), or null: the page shows the discount and its periods. */
  coupon?: CouponQuote | null;
  /**
   * A payment that is not a period's (issue 30): a one-off charge ('oneOff', its description) or a
   * plan change's proration ('proration', the new plan's name), paid once by card; else null.
   */
  extra?: { kind: 'oneOff' | 'proration'; description: string } | null;
  /**
   * The kind of the link's provider (issue 30): a discounted link offers PayPal only when PayPal
   * charges it (its coupon's own PayPal plan in `paymentProviderPlanId`).
   */
  paymentProviderKind?: 'paypal' | 'stripe' | null;
  /**
   * The residual credit of a plan change the link's payment sets off (issue 30), in euro: `amount`
   * is already that much less; the page shows the line and computes the VAT on the whole period.
   * Absent or 0 when none.
   */
  creditUsed?: number;
}

/** `POST api/PaymentToken/create` body. */
export const createPaymentTokenSchema = z.object({ paymentId: requiredId });

/** `POST api/PaymentToken/create` → data. */
export interface CreatedPaymentToken {
  token: string;
  expiryDate: string;
  paymentUrl: string;
}

const providerSubscriptionId = z
  .string()
  .trim()
  .min(1, 'ID della sottoscrizione PayPal mancante.')
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'ID della sottoscrizione PayPal non valido.');

/** `PUT api/Payment/updatePayment` body: the token object with the provider's subscription id. */
export const updatePaymentSchema = z.object({
  token: z.string().trim().min(1, 'Token mancante nella richiesta.').max(200),
  providerSubscriptionId,
});

/**
 * `POST api/subscription/subscribe` body (the plan widget). The call creates nothing: it e-mails a
 * confirmation link and answers `SubscribeAnswer`, the same whoever the address belongs to.
 */
export const subscribeSchema = z.object({
  planId: requiredId,
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Formato email non valido.')),
  name: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z.string().trim().max(200).nullable().optional(),
  ),
  /**
   * Issue 30: 'Hai un codice sconto?' — checked as on subscription Create (400 on `couponCode`:
   * 'Coupon non valido', scaduto, esaurito, non valido per questo piano), applied to the payment
   * link the confirmation makes.
   */
  couponCode: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z.string().trim().max(40, 'Coupon non valido').nullable().optional(),
  ),
});

/** `GET api/plan/widget?planId=` → data: the public face of a plan. */
export interface PlanWidgetView {
  id: number;
  name: string;
  recurringCostBeforeVAT: number;
  vatPercentage: number;
  /** EUR with VAT. */
  amount: number;
  currency: 'EUR';
  recurrenceType: RecurrenceTypeId;
  recurrenceTypeName: string;
  features: { featureName: string; description: string | null }[];
  tenantName: string;
  /** Issue 30: the plan's free trial in days (null: none; 0 counts as none). */
  trialDays: number | null;
  /**
   * When a trial started now would end (ISO; null without a trial): the first paid period starts
   * then, at `amount`. The confirmation starts the trial, so the real end is a little later.
   */
  trialEndsAt: string | null;
}

/** `POST api/Payment/stripe/checkout` body: the payment link's token. */
export const stripeCheckoutSchema = z.object({
  token: z.string().trim().min(1, 'Token mancante nella richiesta.').max(200),
});

/** `PUT api/Payment/stripe/confirm` body: the Checkout Session Stripe sent the customer back with. */
export const stripeConfirmSchema = z.object({
  sessionId: z
    .string()
    .trim()
    .min(1, 'Sessione di pagamento mancante.')
    .max(200)
    .regex(/^cs_[A-Za-z0-9_]+$/, 'Sessione di pagamento non valida.'),
  tenantId: requiredId,
});

/** The bank-transfer causale of a payment: `RNV-<tenant>-<payment, 6 digits>`. */
export function causaleOf(tenantId: number, paymentId: number): string {
  return `RNV-${tenantId}-${String(paymentId).padStart(6, '0')}`;
}
/** `POST api/subscription/subscribe` → data: always this (issue 23), whoever the e-mail belongs to. */
export interface SubscribeAnswer {
  confirmationSent: true;
}

/** The widget's confirmation link lives 1 hour and works once. */
export const WIDGET_CONFIRM_TTL_MS = 60 * 60 * 1000;

/** SPA route of the link e-mailed by the widget: `{origin}/widget/confirm?token=…`. */
export const WIDGET_CONFIRM_PATH = '/widget/confirm';

export function widgetConfirmUrlOf(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${WIDGET_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
}

/** `POST api/subscription/subscribe/confirm` body: the token of the e-mailed link. */
export const subscribeConfirmSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1, 'Token mancante nella richiesta.')
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'Link di conferma non valido.'),
});

/**
 * `POST api/subscription/subscribe/confirm` → data: the payment page of the subscription the link
 * made (`created`), or of the one it made before while that payment link is still valid
 * (`replayed`).
 */
export interface SubscribeConfirmAnswer {
  paymentUrl: string;
  result: 'created' | 'replayed';
  /**
   * Issue 30: the end of the free trial the confirmation started (ISO), while it runs; null
   * without one (no trial on the plan, or the customer already had one on it).
   */
  trialEndsAt: string | null;
  /** What the first payment asks, EUR with VAT (after the coupon, when one was applied). */
  amount: number;
  /**
   * Issue 30: the code typed in the widget (null: none). `error` says why it was not applied
   * (Create's field error: 'Coupon esaurito', 'Coupon scaduto', …), null when it was: then
   * `amount` is the full price and the page says so before the customer goes on to pay.
   */
  coupon: { code: string; error: string | null } | null;
}

/** The confirmation's words when the widget's code was not applied and no reason was given. */
export const WIDGET_COUPON_NOT_APPLIED = 'Il codice sconto non è stato applicato.';

/**
 * Why a confirmation was refused, in the error envelope's `data.reason`: unknown link (400
 * `invalid`), expired (400 `expired`), already used and its payment link spent (409 `used`), an
 * address that cannot subscribe here (409 `notAllowed`), a plan no longer on sale (409 `unavailable`).
 */
export type SubscribeConfirmRefusal = 'invalid' | 'expired' | 'used' | 'notAllowed' | 'unavailable';
