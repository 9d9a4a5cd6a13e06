/**
 * The re-encryption job (`secrets-rewrap`, on /hangfire like the others): every stored secret
 * that is not sealed with the current key (the v1 form, or a key id of ENCRYPTION_KEY_PREVIOUS) is
 * opened and sealed again with the current key, bound to its row (secret-box.ts). It runs every
 * night, at start when something is left to rewrite, and when a SuperAdmin starts it; when it
 * reports `remaining: 0`, ENCRYPTION_KEY_PREVIOUS can go. A value no configured key opens stays as
 * it is and is counted `unreadable` (its Admin types the secret again).
 *
 * Each value is rewritten by one UPDATE that also requires the old value: a secret saved again
 * meanwhile is left alone (it is already current). The plain secret exists only in this process's
 * memory between the two steps, never in a log or the job's output.
 *
 * Tenant data (payment providers, webhook endpoints) is swept in the control database and in
 * every tenant's own database; one that cannot be reached is left for the next run
 * (`skippedDatabases`), the others are rewritten.
 */
import { and, asc, eq, gt, inArray, isNotNull, not, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { paymentProviders, tenants, users, webhookEndpoints } from '../db/schema';
import type { JobDefinition } from '../jobs/engine';
import type { SecretBox, SecretSlot } from './secret-box';

export const SECRET_REWRAP_JOB = 'secrets-rewrap';
const BATCH = 200;

interface SlotSpec {
  slot: SecretSlot;
  table: PgTable;
  id: PgColumn;
  column: PgColumn;
  /** The column's key in the drizzle table (what `.set()` takes). */
  key: string;
  /** Tenant data (read on the tenant's connection), or global (the tenants' own rows). */
  tenantId: PgColumn | null;
}

/** Every column holding a secret sealed by the box: a new one is added here. */
export const SECRET_SLOTS: readonly SlotSpec[] = [
  {
    slot: 'payment_providers.api_secret_encrypted',
    table: paymentProviders,
    id: paymentProviders.id,
    column: paymentProviders.apiSecretEncrypted,
    key: 'apiSecretEncrypted',
    tenantId: paymentProviders.tenantId,
  },
  {
    slot: 'payment_providers.webhook_secret_encrypted',
    table: paymentProviders,
    id: paymentProviders.id,
    column: paymentProviders.webhookSecretEncrypted,
    key: 'webhookSecretEncrypted',
    tenantId: paymentProviders.tenantId,
  },
  {
    slot: 'webhook_endpoints.secret_encrypted',
    table: webhookEndpoints,
    id: webhookEndpoints.id,
    column: webhookEndpoints.secretEncrypted,
    key: 'secretEncrypted',
    tenantId: webhookEndpoints.tenantId,
  },
  {
    slot: 'tenants.pec_smtp_password_encrypted',
    table: tenants,
    id: tenants.id,
    column: tenants.pecSmtpPasswordEncrypted,
    key: 'pecSmtpPasswordEncrypted',
    // The tenant's row is copied into its own database, where its PEC sends read it: both rewrapped.
    tenantId: tenants.id,
  },
  {
    slot: 'users.totp_secret_encrypted',
    table: users,
    id: users.id,
    column: users.totpSecretEncrypted,
    key: 'totpSecretEncrypted',
    tenantId: null,
  },
  {
    slot: 'users.totp_pending_encrypted',
    table: users,
    id: users.id,
    column: users.totpPendingEncrypted,
    key: 'totpPendingEncrypted',
    tenantId: null,
  },
];

export interface RewrapDeps {
  /** The global database (the tenants). */
  shared: Database;
  connectionFor: (tenantId: number) => Database;
  /**
   * The tenants' own databases (db/tenancy): tenant data is swept in the control database (the
   * tenants still there) and in each of these, whole. Absent: the tenants grouped by connection.
   */
  tenantDatabases?: () => Promise<Database[]>;
  box: SecretBox;
  log: FastifyBaseLogger;
}

export interface RewrapResult {
  /** Values sealed again with the current key. */
  rewritten: number;
  /** Values no configured key opens (left as they are). */
  unreadable: number;
  /** Values still not under the current key after the run (the unreadable ones, or ones changed meanwhile). */
  remaining: number;
  keyId: string;
  /** Tenant databases that could not be reached (left for the next run; their values not counted). */
  skippedDatabases?: number;
}

/** Not sealed with the current key: not `v2.<current key id>.…`. */
const staleCondition = (column: PgColumn, keyId: string) =>
  and(isNotNull(column), not(sql`starts_with(${column}, ${`v2.${keyId}.`})`));

/** Where a slot's rows live: a connection, and the tenants whose rows it holds (null: all of them). */
interface Scope {
  db: Database;
  tenantIds: number[] | null;
  /** A tenant's own database: one that cannot be reached is skipped, not the whole run. */
  own?: true;
}

/**
 * The connections of a slot: the global database for the tenants' own rows; for tenant data,
 * the tenants grouped by their connection (one group, with no tenant filter, while every tenant
 * shares one database).
 */
async function scopesOf(
  spec: SlotSpec,
  deps: Pick<RewrapDeps, 'shared' | 'connectionFor' | 'tenantDatabases'>,
): Promise<Scope[]> {
  if (spec.tenantId === null) return [{ db: deps.shared, tenantIds: null }];
  // Databases per tenant: the control database whole, then every tenant database whole (each
  // holds its tenant's rows only), rather than a query per tenant.
  if (deps.tenantDatabases)
    return [
      { db: deps.shared, tenantIds: null },
      ...(await deps.tenantDatabases()).map((db): Scope => ({ db, tenantIds: null, own: true })),
    ];
  const rows = await deps.shared.select({ id: tenants.id }).from(tenants).orderBy(asc(tenants.id));
  const groups = new Map<Database, number[]>();
  for (const { id } of rows) {
    const db = deps.connectionFor(id);
    groups.set(db, [...(groups.get(db) ?? []), id]);
  }
  return [...groups].map(([db, ids]) => ({ db, tenantIds: groups.size === 1 ? null : ids }));
}

const inScope = (spec: SlotSpec, scope: Scope) =>
  spec.tenantId && scope.tenantIds ? inArray(spec.tenantId, scope.tenantIds) : undefined;

async function rewrapScope(
  spec: SlotSpec,
  scope: Scope,
  box: SecretBox,
  result: { rewritten: number; unreadable: number; unreadableRows: string[] },
): Promise<void> {
  let afterId = 0;
  for (;;) {
    const rows = await scope.db
      .select({ id: spec.id, value: spec.column })
      .from(spec.table)
      .where(and(staleCondition(spec.column, box.keyId), gt(spec.id, afterId), inScope(spec, scope)))
      .orderBy(asc(spec.id))
      .limit(BATCH);
    for (const row of rows) {
      const id = row.id as number;
      const value = row.value as string;
      afterId = id;
      const plain = box.open(value, spec.slot, id);
      if (plain === null) {
        result.unreadable++;
        result.unreadableRows.push(`${spec.slot}#${id}`);
        continue;
      }
      const updated = await scope.db
        .update(spec.table)
        .set({ [spec.key]: box.seal(plain, spec.slot, id) })
        .where(and(eq(spec.id, id), eq(spec.column, value)))
        .returning({ id: spec.id });
      if (updated.length > 0) result.rewritten++;
    }
    if (rows.length < BATCH) return;
  }
}

/**
 * Runs `work` on every scope of every slot, tenant databases a few at a time; a tenant database
 * that fails is logged and counted in `skipped` (the control database's failure stands).
 */
async function eachScope(
  deps: Pick<RewrapDeps, 'shared' | 'connectionFor' | 'tenantDatabases'> & { log?: FastifyBaseLogger },
  work: (spec: SlotSpec, scope: Scope) => Promise<void>,
): Promise<{ skipped: Set<Database> }> {
  const skipped = new Set<Database>();
  for (const spec of SECRET_SLOTS) {
    const scopes = await scopesOf(spec, deps);
    const queue = scopes.filter((scope) => scope.own);
    for (const scope of scopes) if (!scope.own) await work(spec, scope);
    const worker = async () => {
      for (let scope = queue.shift(); scope; scope = queue.shift()) {
        if (skipped.has(scope.db)) continue;
        try {
          await work(spec, scope);
        } catch (error) {
          skipped.add(scope.db);
          deps.log?.warn(
            { err: error, slot: spec.slot },
            'segreti: database di un tenant non raggiunto, riprovo',
          );
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
  }
  return { skipped };
}

/** How many stored values are not under the current key (every slot, every tenant). */
export async function countStale(
  deps: Pick<RewrapDeps, 'shared' | 'connectionFor' | 'tenantDatabases' | 'box'> & {
    log?: FastifyBaseLogger;
  },
): Promise<number> {
  let total = 0;
  await eachScope(deps, async (spec, scope) => {
    const [row] = await scope.db
      .select({ n: sql<number>`count(*)::int` })
      .from(spec.table)
      .where(and(staleCondition(spec.column, deps.box.keyId), inScope(spec, scope)));
    total += row?.n ?? 0;
  });
  return total;
}

/** One run over every slot of every tenant (in every database). */
export async function rewrapSecrets(deps: RewrapDeps): Promise<RewrapResult> {
  const result = { rewritten: 0, unreadable: 0, unreadableRows: [] as string[] };
  const { skipped } = await eachScope(deps, (spec, scope) => rewrapScope(spec, scope, deps.box, result));
  const remaining = await countStale(deps);
  if (result.unreadable > 0)
    deps.log.warn(
      { rows: result.unreadableRows.slice(0, 50), unreadable: result.unreadable },
      'segreti: valori che nessuna chiave configurata apre (vanno inseriti di nuovo)',
    );
  if (remaining === 0 && skipped.size === 0 && deps.box.previousKeyIds.length > 0)
    deps.log.info(
      { keyId: deps.box.keyId },
      'segreti: tutti cifrati con la chiave attuale, ENCRYPTION_KEY_PREVIOUS si può togliere',
    );
  return {
    rewritten: result.rewritten,
    unreadable: result.unreadable,
    remaining,
    keyId: deps.box.keyId,
    ...(skipped.size > 0 ? { skippedDatabases: skipped.size } : {}),
  };
}

export function secretRewrapJob(deps: RewrapDeps): JobDefinition {
  return {
    name: SECRET_REWRAP_JOB,
    label: 'Ricifratura dei segreti con la chiave attuale (ENCRYPTION_KEY)',
    cron: '50 3 * * *',
    retryLimit: 2,
    retryDelaySeconds: 300,
    retryBackoff: true,
    run: () => rewrapSecrets(deps),
  };
}
