import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  smallint,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from './columns';
import { tenantColumn, tenants } from './tenants';

/**
 * Integrations (issue 15): a tenant's API keys with their request log and rate-limit settings,
 * and its outbound webhooks (endpoints, deliveries written in the unit of work of the change,
 * attempts).
 */

/**
 * A tenant's API key. Only the SHA-256 of the secret is kept (the secret has 192+ random bits, so
 * a fast hash is enough) with its last four characters; `expires_at` also carries a rotated
 * key's grace period.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    tenantId: tenantColumn(),
    name: text('name').notNull(),
    /** 'live' | 'test' (the secret's prefix rnv_live_ / rnv_test_). */
    mode: text('mode').notNull(),
    secretHash: text('secret_hash').notNull(),
    lastFour: text('last_four').notNull(),
    /** Subset of read, write, entitlements. */
    scopes: text('scopes').array().notNull(),
    expiresAt: at('expires_at'),
    revokedAt: at('revoked_at'),
    lastUsedAt: at('last_used_at'),
    /** The key this one replaced by rotation. */
    rotatedFromId: integer('rotated_from_id'),
    createdByUserId: integer('created_by_user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('api_keys_id_tenant_id_unique').on(t.id, t.tenantId),
    uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash),
    index('api_keys_tenant_idx').on(t.tenantId, t.id.desc()),
    check('api_keys_mode_check', sql`${t.mode} in ('live', 'test')`),
  ],
);

/** Every call made with a tenant key: no bodies, no query strings. Kept 30 days. */
export const apiRequestLogs = pgTable(
  'api_request_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: tenantColumn(),
    apiKeyId: integer('api_key_id').notNull(),
    at: at('at').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: smallint('status').notNull(),
    durationMs: integer('duration_ms').notNull(),
    ip: text('ip'),
  },
  (t) => [
    foreignKey({
      name: 'api_request_logs_key_fk',
      columns: [t.apiKeyId, t.tenantId],
      foreignColumns: [apiKeys.id, apiKeys.tenantId],
    }).onDelete('cascade'),
    index('api_request_logs_key_at_idx').on(t.tenantId, t.apiKeyId, t.at.desc(), t.id.desc()),
    index('api_request_logs_at_idx').on(t.at),
  ],
);

/** A tenant's rate limits for its API keys (absent: the server's defaults). */
export const apiSettings = pgTable(
  'api_settings',
  {
    tenantId: integer('tenant_id')
      .primaryKey()
      .references(() => tenants.id),
    /** Calls per minute per key. */
    perKeyPerMinute: integer('per_key_per_minute').notNull(),
    /** Calls per minute for all the tenant's keys together. */
    perTenantPerMinute: integer('per_tenant_per_minute').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'api_settings_limits_check',
      sql`${t.perKeyPerMinute} between 1 and 100000 and ${t.perTenantPerMinute} between 1 and 1000000`,
    ),
  ],
);

/** Where a tenant wants its events; the signing secret is encrypted (lib/secret-box.ts). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    tenantId: tenantColumn(),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    secretLastFour: text('secret_last_four').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    disabledAt: at('disabled_at'),
    disabledReason: text('disabled_reason'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('webhook_endpoints_id_tenant_id_unique').on(t.id, t.tenantId),
    index('webhook_endpoints_tenant_idx').on(t.tenantId, t.id),
  ],
);

/**
 * One event for one endpoint, written in the transaction of the change (so a rolled-back change
 * sends nothing) and sent after commit by the job engine, retried with back-off for 24 hours.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    tenantId: tenantColumn(),
    endpointId: integer('endpoint_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact body sent (JSON text), so every attempt and its signature cover the same bytes. */
    body: text('body').notNull(),
    /** 'pending' | 'succeeded' | 'failed'. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    /** A sender's claim on the row until then, so two workers never send it at once. */
    leaseUntil: at('lease_until'),
    lastAttemptAt: at('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('webhook_deliveries_id_tenant_id_unique').on(t.id, t.tenantId),
    foreignKey({
      name: 'webhook_deliveries_endpoint_fk',
      columns: [t.endpointId, t.tenantId],
      foreignColumns: [webhookEndpoints.id, webhookEndpoints.tenantId],
    }).onDelete('cascade'),
    index('webhook_deliveries_endpoint_idx').on(t.tenantId, t.endpointId, t.id.desc()),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

/** Each try of a delivery with its outcome (status code or error). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: id(),
    tenantId: tenantColumn(),
    deliveryId: integer('delivery_id').notNull(),
    at: at('at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    succeeded: boolean('succeeded').notNull(),
    /** Sent by hand ('Reinvia'). */
    manual: boolean('manual').notNull().default(false),
  },
  (t) => [
    foreignKey({
      name: 'webhook_attempts_delivery_fk',
      columns: [t.deliveryId, t.tenantId],
      foreignColumns: [webhookDeliveries.id, webhookDeliveries.tenantId],
    }).onDelete('cascade'),
    index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id),
  ],
);
