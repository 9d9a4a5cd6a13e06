import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  unique,
} from 'drizzle-orm/pg-core';
import { at, cents, createdAt, id } from './columns';
import { payments } from './billing';
import { tenantColumn } from './tenants';

/**
 * Payment tokens (spec §3): the public payment link of one payment. The token itself (256 random
 * bits) is never stored: only its SHA-256. Status 0 Active, 1 Used, 2 Expired; it lives 1 hour.
 * The amount, currency and the provider's plan id are fixed when the link is made.
 */
export const paymentTokens = pgTable(
  'payment_tokens',
  {
    id: id(),
    tenantId: tenantColumn(),
    tokenHash: text('token_hash').notNull(),
    paymentId: integer('payment_id').notNull(),
    subscriptionId: integer('subscription_id').notNull(),
    userId: integer('user_id').notNull(),
    planId: integer('plan_id').notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    paymentProviderId: integer('payment_provider_id'),
    providerPlanId: text('provider_plan_id').notNull(),
    status: smallint('status').notNull().default(0),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    providerSubscriptionId: text('provider_subscription_id'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('payment_tokens_hash_unique').on(t.tokenHash),
    foreignKey({
      name: 'payment_tokens_payment_fk',
      columns: [t.paymentId, t.tenantId],
      foreignColumns: [payments.id, payments.tenantId],
    }),
    index('payment_tokens_payment_idx').on(t.tenantId, t.paymentId),
    // The expiry job: active tokens by expiry.
    index('payment_tokens_active_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 0`),
    check('payment_tokens_status_check', sql`${t.status} in (0, 1, 2)`),
    check('payment_tokens_currency_check', sql`${t.currency} = 'EUR'`),
  ],
);

/**
 * Every webhook delivery a provider made, with what Rinnova did about it. The unique
 * (tenant_id, provider, event_id) makes a second delivery of the same event to the same tenant a
 * no-op; another tenant's event with the same id (two tenants on one PayPal or Stripe account)
 * is its own.
 */
export const providerWebhookEvents = pgTable(
  'provider_webhook_events',
  {
    id: id(),
    tenantId: tenantColumn(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    resourceId: text('resource_id'),
    /** 'applied' | 'unchanged' | 'ignored' | 'unknownSubscription' | 'unsupported'. */
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    payload: jsonb('payload').notNull(),
    receivedAt: at('received_at').notNull(),
  },
  (t) => [
    unique('provider_webhook_events_tenant_event_unique').on(t.tenantId, t.provider, t.eventId),
    index('provider_webhook_events_tenant_idx').on(t.tenantId, t.id.desc()),
  ],
);
