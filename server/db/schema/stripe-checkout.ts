import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns';
import { tenantColumn } from './tenants';

/**
 * The Stripe Checkout Sessions Rinnova opened for a payment link (issue 30): when the payment is
 * withdrawn (a plan change, a pause: `withdrawUnpaidPayments`) its open sessions are expired at
 * Stripe after commit, so a customer can no longer pay a link Rinnova took back. No foreign key to
 * the payment or the token: both go when the payment is withdrawn, the row stays (a session
 * completed in the race is refunded by its `checkout.session.completed`).
 * - `expired_at`: when Stripe answered the expiry (or said the session was no longer open);
 * - `refund_ref`: what Stripe refunded of a session completed on a withdrawn payment (`re_…`, or
 *   'none' when it took nothing).
 */
export const stripeCheckoutSessions = pgTable(
  'stripe_checkout_sessions',
  {
    id: id(),
    tenantId: tenantColumn(),
    sessionId: text('session_id').notNull(),
    subscriptionId: integer('subscription_id').notNull(),
    paymentId: integer('payment_id').notNull(),
    tokenId: integer('token_id').notNull(),
    /** 'subscription' (a period's payment) | 'payment' (an extra payment: one-off, proration). */
    mode: text('mode').notNull(),
    createdAt: createdAt(),
    expiredAt: at('expired_at'),
    refundRef: text('refund_ref'),
  },
  (t) => [
    uniqueIndex('stripe_checkout_sessions_session_idx').on(t.tenantId, t.sessionId),
    index('stripe_checkout_sessions_payment_idx').on(t.tenantId, t.paymentId),
  ],
);
