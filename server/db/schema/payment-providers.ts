import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantSearchIndexes, updatedAt } from './columns';
import { tenantColumn } from './tenants';

/**
 * Payment-provider credentials of a tenant. `api_key` is the public client id; the secret is
 * stored only encrypted (AES-256-GCM, server/lib/secret-box.ts) and never leaves the server.
 */
export const paymentProviders = pgTable(
  'payment_providers',
  {
    id: id(),
    tenantId: tenantColumn(),
    name: text('name').notNull(),
    apiUrl: text('api_url').notNull(),
    apiKey: text('api_key').notNull(),
    apiSecretEncrypted: text('api_secret_encrypted'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [...tenantSearchIndexes('payment_providers', 'name', t.tenantId, t.name, t.id)],
);
