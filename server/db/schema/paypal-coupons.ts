import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, cents, createdAt, id } from './columns';
import { couponRedemptions, coupons, subscriptions } from './billing';
import { tenantColumn } from './tenants';

/**
 * 'Applica coupon' on a subscription PayPal charges (issue 30): the PayPal subscription was revised
 * to the coupon's own PayPal plan, which the customer must approve on PayPal (`approve_url`). The
 * coupon is redeemed only when PayPal confirms (BILLING.SUBSCRIPTION.UPDATED with that plan, or the
 * subscription read back on it): `status` 'pending' → 'redeemed' (with its redemption), or
 * 'replaced' by a later application, or 'expired' at `expires_at` unanswered (the paypal-coupon-expiry
 * job; server/README 'Coupons at PayPal'). One row per (subscription, PayPal plan).
 */
export const paypalCouponRevisions = pgTable(
  'paypal_coupon_revisions',
  {
    id: id(),
    tenantId: tenantColumn(),
    subscriptionId: integer('subscription_id').notNull(),
    couponId: integer('coupon_id').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    paypalPlanId: text('paypal_plan_id').notNull(),
    approveUrl: text('approve_url'),
    /** What PayPal's plan charges: the TRIAL cycles (or, forever, every cycle), then the REGULAR one. */
    discountedCents: cents('discounted_cents').notNull(),
    fullCents: cents('full_cents').notNull(),
    /** Discounted periods (null: forever). */
    periods: smallint('periods'),
    status: text('status').notNull().default('pending'),
    redemptionId: integer('redemption_id'),
    createdAt: createdAt(),
    /** Past it the application no longer waits: 'expired' (30 days from its latest application). */
    expiresAt: at('expires_at').notNull(),
    /** When the approval e-mail went into the outbox (its consumer sends it once per application). */
    mailedAt: at('mailed_at'),
    confirmedAt: at('confirmed_at'),
  },
  (t) => [
    foreignKey({
      name: 'paypal_coupon_revisions_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    foreignKey({
      name: 'paypal_coupon_revisions_coupon_fk',
      columns: [t.couponId, t.tenantId],
      foreignColumns: [coupons.id, coupons.tenantId],
    }),
    foreignKey({
      name: 'paypal_coupon_revisions_redemption_fk',
      columns: [t.redemptionId, t.tenantId],
      foreignColumns: [couponRedemptions.id, couponRedemptions.tenantId],
    }),
    uniqueIndex('paypal_coupon_revisions_plan_idx').on(t.tenantId, t.subscriptionId, t.paypalPlanId),
    index('paypal_coupon_revisions_provider_idx').on(t.tenantId, t.providerSubscriptionId),
    index('paypal_coupon_revisions_pending_idx')
      .on(t.tenantId, t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    check(
      'paypal_coupon_revisions_status_check',
      sql`${t.status} in ('pending', 'redeemed', 'replaced', 'expired')`,
    ),
    check(
      'paypal_coupon_revisions_redeemed_check',
      sql`(${t.status} = 'redeemed') = (${t.redemptionId} is not null)`,
    ),
  ],
);
