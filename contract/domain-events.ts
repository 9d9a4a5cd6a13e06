/**
 * What happened in one tenant's billing, published by the unit of work that made it happen and
 * consumed by the modules that act on it (invoices, outbound webhooks, e-mails, …), which
 * subscribe at start-up and never call each other (issue 24). Payloads carry ids, never rows: a
 * consumer reads what it needs inside the publishing unit (or its own, after commit).
 */
import type { SubscriptionEvent, SubscriptionStatusId } from './subscription-status';

export interface DomainEvents {
  /** A payment is paid (provider charge, payment page, approved bank transfers, renewal). */
  'payment.paid': {
    paymentId: number;
    subscriptionId: number;
    /** The Stripe Checkout Session that paid it, when one did (its other open sessions are expired). */
    checkoutSessionId?: string;
  };
  /** A provider could not charge a payment (its retries may follow). */
  'payment.failed': { paymentId: number | null; subscriptionId: number; reason: string | null };
  /** A provider refunded or reversed a charge (`saleId`); `refundedCents` null means all of it. */
  'payment.refunded': { saleId: string; refundedCents: number | null; what: string };
  /** A subscription was created (NotActive, with its first payment). */
  'subscription.created': { subscriptionId: number };
  /** A subscription moved through the state machine. */
  'subscription.statusChanged': {
    subscriptionId: number;
    event: SubscriptionEvent;
    from: SubscriptionStatusId;
    to: SubscriptionStatusId;
  };
  /**
   * A subscription's plan changed (issue 30, 'Cambia piano'), when the change took effect: at once,
   * or on its scheduled day.
   */
  'subscription.planChanged': {
    subscriptionId: number;
    fromPlanId: number;
    toPlanId: number;
    planChangeId: number;
  };
  /** Collection of a subscription was paused (issue 30, 'Sospendi incasso'). */
  'subscription.paused': { subscriptionId: number };
  /** A pause of collection ended: resumed early ('Riprendi ora') or its periods over. */
  'subscription.resumed': { subscriptionId: number; early: boolean };
  /**
   * A one-off charge (issue 30): collected at once, with its payment (Stripe charges it after
   * commit); with the next payment, `paymentId` null (Stripe adds it to the next invoice).
   */
  'oneOffCharge.created': { chargeId: number; paymentId: number | null; subscriptionId: number };
  /**
   * A Stripe subscription's residual credit (issue 30), held on its Stripe customer's balance, was
   * set off by Rinnova on a payment Stripe does not charge (a renewal link's, a transfer's): Stripe's
   * balance gives back what was used (after commit).
   */
  'subscription.creditSetOff': {
    subscriptionId: number;
    paymentId: number;
    providerSubscriptionId: string;
    /** The cents set off (absent on rows published before it was carried: read from the ledger). */
    usedCents?: number;
  };
  /**
   * A coupon applied after such a set-off lowered the payment below the credit used (issue 30): the
   * use shrank by `cents`, which go back onto the Stripe customer's balance (after commit).
   */
  'subscription.creditUnused': {
    subscriptionId: number;
    paymentId: number;
    providerSubscriptionId: string;
    cents: number;
  };
  /**
   * 'Applica coupon' on a subscription PayPal charges (issue 30) now waits for the customer's
   * approval on PayPal: revision `revisionId` is pending (new, or pending again). Its consumer mails
   * the customer the approval link after commit.
   */
  'paypalCoupon.approvalRequested': { subscriptionId: number; revisionId: number };
  /**
   * Unpaid payments were withdrawn (issue 30: a plan change, a pause), or a payment was paid another
   * way (a transfer, PayPal, another session), while Stripe Checkout Sessions opened from their
   * links may still be open: after commit each is expired at Stripe, so it can no longer be paid.
   */
  'stripeCheckout.withdrawn': { sessionIds: string[] };
  /**
   * A Stripe Checkout Session was completed on a payment Rinnova had withdrawn, or one already paid
   * another way (`reason` 'alreadyPaid'; in the race before its expiry reached Stripe): nothing is
   * recorded as paid; after commit Stripe refunds what it took and, in subscription mode, the Stripe
   * subscription the session created is cancelled.
   */
  'stripeCheckout.paidWithdrawn': {
    /** Absent on rows published before it was carried: 'withdrawn'. */
    reason?: 'withdrawn' | 'alreadyPaid';
    sessionId: string;
    mode: 'subscription' | 'payment';
    providerSubscriptionId: string | null;
    /** Rinnova's subscription (null when the session was not recorded). */
    subscriptionId: number | null;
    paymentId: number | null;
  };
  /**
   * 'Cambia piano' on a subscription PayPal charges (issue 30): PayPal's revise waits for the
   * customer's approval of change `planChangeId`. Its consumer mails the customer the link after commit.
   */
  'planChange.paypalApprovalRequested': { subscriptionId: number; planChangeId: number };
  /** A bank transfer got its approval date. */
  'bankTransfer.approved': { bankTransferId: number; paymentId: number };
  /** An invoice or credit note was numbered. */
  'invoice.issued': { invoiceId: number; paymentId: number | null; kind: 'invoice' | 'creditNote' };
  /** A customer's record in the tenant (name, tax ids, billing address) was saved. */
  'customer.billingDataChanged': { userId: number };
  /** The tenant's billing profile ('Dati di fatturazione') was saved. */
  'tenant.billingProfileChanged': { tenantId: number };
}

export type DomainEventName = keyof DomainEvents;
export const domainEventNames = [
  'payment.paid',
  'payment.failed',
  'payment.refunded',
  'subscription.created',
  'subscription.statusChanged',
  'subscription.planChanged',
  'subscription.paused',
  'subscription.resumed',
  'oneOffCharge.created',
  'subscription.creditSetOff',
  'subscription.creditUnused',
  'paypalCoupon.approvalRequested',
  'stripeCheckout.withdrawn',
  'stripeCheckout.paidWithdrawn',
  'planChange.paypalApprovalRequested',
  'bankTransfer.approved',
  'invoice.issued',
  'customer.billingDataChanged',
  'tenant.billingProfileChanged',
] as const satisfies readonly DomainEventName[];
