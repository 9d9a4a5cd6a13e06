import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { tenants } from './tenants';

/**
 * The directory (control database): where each tenant's database lives. `server` names one of
 * the configured database servers ('control' is the control database's own server; 'embedded' the
 * embedded database process); `database` is the tenant's database there, or null while the
 * tenant's rows still live in the control database (an install made before databases per tenant,
 * until `npm run tenants -- split` moves them). `state`: 'ready'; 'readOnly' while the tenant is
 * being backed up into a move (its connections refuse writes); 'unavailable' once its database is
 * known to be gone (restore pending) — its calls answer 503, nobody else's.
 */
export const tenantDatabases = pgTable(
  'tenant_databases',
  {
    tenantId: integer('tenant_id')
      .primaryKey()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    server: text('server').notNull(),
    database: text('database'),
    state: text('state').notNull().default('ready'),
    /** Bumped by every change of the entry: instances compare it to drop a stale cached placement. */
    version: integer('version').notNull().default(1),
    /** How many of the migrations (server/db/migrations) the tenant's database has: a start upgrades the ones behind. */
    migrations: integer('migrations').notNull().default(0),
    createdAt: createdAt(),
    movedAt: timestamp('moved_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('tenant_databases_state_check', sql`${t.state} in ('ready', 'readOnly', 'unavailable')`),
    index('tenant_databases_server_idx').on(t.server),
  ],
);

/**
 * Ids a public call names without its tenant (control database): the plan widget's `planId`
 * (`GET api/plan/widget`, `POST api/subscription/subscribe`) finds here the tenant whose database
 * has the plan. Such ids stay unique across databases: a plan in a tenant's own database takes its
 * id from the control database's sequence (crud/repository.ts, `publicId`).
 */
export const publicIds = pgTable(
  'public_ids',
  {
    kind: text('kind').notNull(),
    id: integer('id').notNull(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.id] })],
);

/**
 * The directory of tenant API keys (control database): which tenant a key's SHA-256 digest
 * belongs to. A /api/v1 call arrives before its tenant is known; this one indexed read names the
 * tenant, whose own database holds the key's row (`api_keys`: revocation, expiry, scopes). An
 * entry whose row is missing in the tenant's database is no key (401).
 */
export const apiKeyDirectory = pgTable(
  'api_key_directory',
  {
    secretHash: text('secret_hash').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
  },
  (t) => [index('api_key_directory_tenant_idx').on(t.tenantId)],
);
