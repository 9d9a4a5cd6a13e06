/**
 * The one small interface Rinnova needs from a payment provider (PayPal now, Stripe later).
 * Implementations make plain HTTP calls outside any transaction; every failure is a
 * `ProviderError` with an Italian message, and callers change nothing in Rinnova when one is thrown.
 */
import { messages } from '../../contract/messages';

/** What the provider says a subscription is. */
export interface ProviderSubscription {
  id: string;
  /**
   * In PayPal's words: APPROVAL_PENDING, APPROVED, ACTIVE, SUSPENDED, CANCELLED, EXPIRED. The
   * Stripe adapter maps Stripe's statuses onto these (stripe.ts), so sync and webhooks share one map.
   */
  status: string;
  planId: string | null;
  /** PayPal's `plan_overridden`: the buyer's approval carried an inline plan (another price). */
  planOverridden?: boolean;
}

export interface WebhookDelivery {
  /** Request headers, names lower-case. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body as received. */
  event: unknown;
  /** The body's bytes as received (Stripe signs these, not a re-serialization). */
  rawBody?: Buffer | string;
}

export interface ProviderPlanInput {
  productId: string;
  name: string;
  /** Price per period with VAT, in cents. */
  priceCents: number;
  /** Months per period (1, 2, 3, 4, 6, 12). */
  intervalMonths: number;
  /**
   * A coupon's discounted price (PayPal only, issue 30): `periods` cycles (a TRIAL cycle) at
   * `priceCents` before the REGULAR cycles at the plan's `priceCents`; `periods: null` (forever)
   * makes the REGULAR cycle itself the discounted price.
   */
  discount?: { priceCents: number; periods: number | null };
  /** PayPal-Request-Id: the same key repeats nothing (PayPal answers the plan it made). */
  idempotencyKey?: string;
}

export type ProviderKind = 'paypal' | 'stripe';

export interface PaymentProviderAdapter {
  readonly kind: ProviderKind;
  getSubscription(id: string): Promise<ProviderSubscription>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  /**
   * Stops the renewal at the end of the period already paid, reversibly (issue 28, 'Disattiva il
   * rinnovo'): Stripe sets `cancel_at_period_end`; PayPal, which has no such flag and whose cancel
   * cannot be undone, suspends the subscription (no charge while suspended).
   */
  stopRenewal(id: string, reason: string): Promise<void>;
  /** Undoes `stopRenewal`: Stripe clears `cancel_at_period_end`; PayPal re-activates. */
  resumeRenewal(id: string, reason: string): Promise<void>;
  /**
   * A plan change (issue 30): the subscription charges `providerPlanId` (Stripe: a price id;
   * PayPal: a plan id) from its next billing date on. Stripe updates the subscription's item with
   * `proration_behavior: 'none'`, PayPal revises it (`POST …/revise`). The proration itself is
   * Rinnova's (day-exact, with its Italian documents), never the provider's. Idempotent: the same
   * `idempotencyKey` (Stripe's Idempotency-Key, PayPal's PayPal-Request-Id) repeats nothing, and
   * the plan already being `providerPlanId` is success.
   *
   * `nextChargeAt` (a change between recurrences, Stripe only): the provider charges nothing more
   * until then and its periods count from then. Stripe resets the billing cycle anchor when the
   * interval changes and would invoice a whole period at once (billing_cycle_anchor 'now'); Rinnova
   * charges that period itself (its documents' amount, the credit set off), so the update carries
   * `trial_end` = the new billing date with `proration_behavior: 'none'`: no invoice now, the
   * anchor at the new billing date (Stripe's documented way to move a subscription's billing date).
   */
  changePlan(
    id: string,
    input: { providerPlanId: string; idempotencyKey: string; nextChargeAt?: Date },
  ): Promise<void>;
  /**
   * PayPal only (issue 30, 'Applica coupon' on a running subscription): `POST …/revise` to
   * `providerPlanId` with the buyer's return URL; PayPal switches the plan only once the buyer
   * approves it on the answer's `approve` link (null when PayPal answers none).
   */
  reviseForApproval?(
    id: string,
    input: { providerPlanId: string; idempotencyKey: string; returnUrl?: string; cancelUrl?: string },
  ): Promise<{ approveUrl: string | null }>;
  /**
   * A pause of collection (issue 30, 'Sospendi incasso'): the provider charges nothing until
   * `resumesAt`. Stripe sets `pause_collection: { behavior: 'void', resumes_at }` (its invoices of
   * the paused periods are voided, the subscription stays `active`, collection resumes by itself at
   * `resumes_at`); PayPal suspends the subscription (no charge while SUSPENDED; PayPal has no
   * resume date: Rinnova re-activates it when the pause ends).
   */
  pauseCollection(
    id: string,
    input: { resumesAt: Date; reason: string; idempotencyKey: string },
  ): Promise<void>;
  /** Ends a pause: Stripe unsets `pause_collection`; PayPal re-activates the subscription. */
  resumeCollection(id: string, input: { reason: string; idempotencyKey: string }): Promise<void>;
  /**
   * True only when the delivery's signature is confirmed: PayPal checks it for this webhook id;
   * Stripe's adapter checks it offline with the signing secret it was built with (the id is ignored).
   */
  verifyWebhook(delivery: WebhookDelivery, webhookId: string): Promise<boolean>;
  createProduct(input: { name: string; description?: string }): Promise<string>;
  createPlan(input: ProviderPlanInput): Promise<string>;
}

export type ProviderErrorKind =
  'timeout' | 'network' | 'unauthorized' | 'notFound' | 'unprocessable' | 'server' | 'invalid';

/** Italian messages of provider failures (shown to the Admin or the customer as they are). */
export const providerMessages = {
  timeout: 'PayPal non ha risposto in tempo. Riprova tra qualche minuto: in Rinnova non è cambiato nulla.',
  network: 'Impossibile contattare PayPal. Riprova tra qualche minuto: in Rinnova non è cambiato nulla.',
  unauthorized:
    'PayPal ha rifiutato le credenziali (Client ID o Secret non validi): controllale in Configura PayPal.',
  notFound: 'PayPal non conosce questa sottoscrizione.',
  unprocessable: 'PayPal ha rifiutato l’operazione nello stato attuale della sottoscrizione.',
  server: 'PayPal è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
  invalid: 'PayPal ha dato una risposta inattesa. Riprova più tardi: in Rinnova non è cambiato nulla.',
  /** The spec's own words (§8), from the one catalogue. */
  notConfigured: messages.payment.paypalNotConfigured,
  noSecret: 'Manca il Secret PayPal del tenant: aggiungilo in Configura PayPal.',
} as const;

/** The same failures, said of Stripe. */
export const stripeProviderMessages = {
  timeout: 'Stripe non ha risposto in tempo. Riprova tra qualche minuto: in Rinnova non è cambiato nulla.',
  network: 'Impossibile contattare Stripe. Riprova tra qualche minuto: in Rinnova non è cambiato nulla.',
  unauthorized:
    'Stripe ha rifiutato le credenziali (chiave segreta non valida): controllale nella configurazione di Stripe.',
  notFound: 'Stripe non conosce questa sottoscrizione.',
  unprocessable: 'Stripe ha rifiutato l’operazione nello stato attuale della sottoscrizione.',
  server: 'Stripe è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
  invalid: 'Stripe ha dato una risposta inattesa. Riprova più tardi: in Rinnova non è cambiato nulla.',
  notConfigured: 'Configurazione Stripe non trovata per questo tenant.',
  noSecret: 'Manca la chiave segreta Stripe del tenant: aggiungila nella configurazione di Stripe.',
} as const;

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    /** HTTP status the provider answered, when it answered. */
    readonly providerStatus: number | null = null,
    /** The provider's own error name (e.g. RESOURCE_NOT_FOUND), for logs. */
    readonly providerCode: string | null = null,
    readonly provider: ProviderKind = 'paypal',
  ) {
    super((provider === 'stripe' ? stripeProviderMessages : providerMessages)[kind]);
    this.name = 'ProviderError';
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
