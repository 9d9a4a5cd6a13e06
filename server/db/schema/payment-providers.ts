import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantSearchIndexes, updatedAt } from './columns';
import { tenantColumn } from './tenants';

/**
 * Payment-provider credentials of a tenant. `api_key` is the public client id; the secret is
 * stored only encrypted (AES-256-GCM, server/lib/secret-box.ts) and never leaves the server; it is
 * decrypted only inside the provider adapter (server/providers/). `kind` says which adapter
 * (PayPal now, Stripe later), `mode` sandbox or live, `webhook_id` the id PayPal gives the
 * webhook (its signature check needs it). For Stripe `api_key` is the publishable key, the secret
 * the secret key and `webhook_secret_encrypted` the webhook signing secret. At most one active provider of a kind per tenant.
 */
export const paymentProviders = pgTable(
  'payment_providers',
  {
    id: id(),
    tenantId: tenantColumn(),
    name: text('name').notNull(),
    kind: text('kind').notNull().default('paypal'),
    mode: text('mode').notNull().default('sandbox'),
    apiUrl: text('api_url').notNull(),
    apiKey: text('api_key').notNull(),
    apiSecretEncrypted: text('api_secret_encrypted'),
    webhookId: text('webhook_id'),
    /** Stripe's webhook signing secret (whsec_…), encrypted like the API secret and write-only. */
    webhookSecretEncrypted: text('webhook_secret_encrypted'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    ...tenantSearchIndexes('payment_providers', 'name', t.tenantId, t.name, t.id),
    uniqueIndex('payment_providers_one_active_per_kind')
      .on(t.tenantId, t.kind)
      .where(sql`${t.isActive}`),
    check('payment_providers_kind_check', sql`${t.kind} in ('paypal', 'stripe')`),
    check('payment_providers_mode_check', sql`${t.mode} in ('sandbox', 'live')`),
  ],
);
