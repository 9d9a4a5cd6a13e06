import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns';
import { subscriptions } from './billing';
import { plans } from './plans';
import { tenantColumn } from './tenants';

/**
 * Requests made through a plan's public widget (issue 23): `POST api/subscription/subscribe`
 * writes one and e-mails a confirmation link; nothing else exists until the link is opened
 * (`POST api/subscription/subscribe/confirm`), which creates (or attaches) the customer, the
 * NotActive subscription and its payment, and records the subscription here.
 *
 * - The link's token (256 random bits) is never stored: only its SHA-256, unique.
 * - One `open` request per (tenant, plan, e-mail): a second request re-sends (a new token on the
 *   same row, a few times at most) or answers the same, never writes another.
 * - The daily cap counts the rows a (tenant, plan) created in the last 24 hours.
 * - Status: 'open' (e-mail sent, link not confirmed yet), 'confirmed' (subscription made),
 *   'expired' (replaced by a new request after its link expired). A link that cannot confirm (a
 *   staff account's address, a plan no longer on sale) changes nothing and stays open until it
 *   expires. Unconfirmed rows are deleted two days after creation (at the plan's next request).
 */
export const widgetRequests = pgTable(
  'widget_requests',
  {
    id: id(),
    tenantId: tenantColumn(),
    planId: integer('plan_id').notNull(),
    /** Lower-cased, as the sign-in identity stores it. */
    email: text('email').notNull(),
    /** The name typed in the widget (used for a new membership only; never put in the e-mail). */
    name: text('name'),
    /**
     * Issue 30: the coupon code typed in the widget ('Hai un codice sconto?'), checked when the
     * request is made and applied to the payment link the confirmation makes; null without one.
     */
    couponCode: text('coupon_code'),
    tokenHash: text('token_hash').notNull(),
    status: text('status').notNull().default('open'),
    /** How many confirmation e-mails this request sent (re-sends included). */
    sendCount: smallint('send_count').notNull().default(1),
    lastSentAt: at('last_sent_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    confirmedAt: at('confirmed_at'),
    /** The subscription the confirmation made (or reused), so opening the link again finds it. */
    subscriptionId: integer('subscription_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('widget_requests_token_hash_idx').on(t.tokenHash),
    uniqueIndex('widget_requests_one_open_idx')
      .on(t.tenantId, t.planId, t.email)
      .where(sql`${t.status} = 'open'`),
    // The daily cap and the purge: a (tenant, plan)'s rows by creation time.
    index('widget_requests_tenant_plan_created_idx').on(t.tenantId, t.planId, t.createdAt),
    index('widget_requests_tenant_email_idx').on(t.tenantId, t.planId, t.email, t.id.desc()),
    foreignKey({
      name: 'widget_requests_plan_fk',
      columns: [t.planId, t.tenantId],
      foreignColumns: [plans.id, plans.tenantId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'widget_requests_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    check('widget_requests_status_check', sql`${t.status} in ('open', 'confirmed', 'expired')`),
    check('widget_requests_send_count_check', sql`${t.sendCount} >= 1`),
  ],
);
