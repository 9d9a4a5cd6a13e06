/**
 * Tenant API keys: created with 256 random bits after `rnv_live_` / `rnv_test_`, shown once, kept
 * as a SHA-256 digest with the last four characters; revoked at once; rotated with a grace period
 * for the old key (its `expires_at`).
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type {
  ApiKeyCreated,
  ApiKeyItem,
  ApiKeyScope,
  ApiRequestLogItem,
} from '../../../contract/integrations';
import { integrationMessages as m, serverMessages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import { apiKeyDirectory, apiKeys, apiRequestLogs, apiSettings } from '../../db/schema';
import { preparedOnce } from '../../db/prepared';
import { HttpError } from '../../lib/http-error';
import { sha256 } from '../../lib/secrets';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';

type KeyRow = typeof apiKeys.$inferSelect;

export function newSecret(mode: 'live' | 'test'): string {
  return `rnv_${mode}_${randomBytes(32).toString('base64url')}`;
}

export function stateOf(row: Pick<KeyRow, 'revokedAt' | 'expiresAt'>, now: Date): ApiKeyItem['state'] {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export function keyItem(row: KeyRow, now: Date): ApiKeyItem {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode === 'test' ? 'test' : 'live',
    hint: `rnv_${row.mode}_…${row.lastFour}`,
    scopes: row.scopes as ApiKeyScope[],
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    state: stateOf(row, now),
    rotatedFromId: row.rotatedFromId,
  };
}

export interface KeyInput {
  name: string;
  mode: 'live' | 'test';
  scopes: ApiKeyScope[];
  expiresAt: Date | null;
}

async function insertKey(
  w: UnitOfWork,
  input: KeyInput & { rotatedFromId?: number | null },
  createdBy: number | null,
): Promise<ApiKeyCreated> {
  if (input.expiresAt && input.expiresAt.getTime() <= w.now.getTime())
    throw new HttpError(400, serverMessages.validation, { errors: [`expiresAt: ${m.expiryInPast}`] });
  const secret = newSecret(input.mode);
  const [row] = await w.tx
    .insert(apiKeys)
    .values({
      tenantId: w.tenantId,
      name: input.name,
      mode: input.mode,
      secretHash: sha256(secret),
      lastFour: secret.slice(-4),
      scopes: [...new Set(input.scopes)],
      expiresAt: input.expiresAt,
      rotatedFromId: input.rotatedFromId ?? null,
      createdByUserId: createdBy,
      createdAt: w.now,
    })
    .returning();
  if (!row) throw new Error('api key insert returned no row');
  return { ...keyItem(row, w.now), secret };
}

export function createKey(w: UnitOfWork, input: KeyInput, createdBy: number | null) {
  return insertKey(w, input, createdBy);
}

async function lockedKey(w: UnitOfWork, id: number): Promise<KeyRow> {
  const [row] = await w.tx
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, w.tenantId), eq(apiKeys.id, id)))
    .for('update');
  if (!row) throw new HttpError(404, serverMessages.notFound);
  return row;
}

export async function revokeKey(w: UnitOfWork, id: number): Promise<ApiKeyItem> {
  const row = await lockedKey(w, id);
  if (row.revokedAt) throw new HttpError(409, m.keyAlreadyRevoked);
  const [updated] = await w.tx
    .update(apiKeys)
    .set({ revokedAt: w.now })
    .where(and(eq(apiKeys.tenantId, w.tenantId), eq(apiKeys.id, id)))
    .returning();
  return keyItem(updated ?? row, w.now);
}

/** A new key with the same name, scopes and expiry; the old one stays valid `graceHours` more. */
export async function rotateKey(
  w: UnitOfWork,
  id: number,
  graceHours: number,
  createdBy: number | null,
): Promise<{ created: ApiKeyCreated; previous: ApiKeyItem }> {
  const row = await lockedKey(w, id);
  if (stateOf(row, w.now) !== 'active') throw new HttpError(409, m.keyInvalid);
  const graceEnd = new Date(w.now.getTime() + graceHours * 3_600_000);
  const oldExpiry = row.expiresAt && row.expiresAt.getTime() < graceEnd.getTime() ? row.expiresAt : graceEnd;
  const [previous] = await w.tx
    .update(apiKeys)
    .set({ expiresAt: oldExpiry })
    .where(and(eq(apiKeys.tenantId, w.tenantId), eq(apiKeys.id, id)))
    .returning();
  const created = await insertKey(
    w,
    {
      name: row.name,
      mode: row.mode === 'test' ? 'test' : 'live',
      scopes: row.scopes as ApiKeyScope[],
      expiresAt: row.expiresAt && row.expiresAt.getTime() > w.now.getTime() ? row.expiresAt : null,
      rotatedFromId: row.id,
    },
    createdBy,
  );
  return { created, previous: keyItem(previous ?? row, w.now) };
}

export async function listKeys(db: Database, tenantId: number, now: Date): Promise<ApiKeyItem[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.tenantId, tenantId))
    .orderBy(desc(apiKeys.id))
    .limit(500);
  return rows.map((r) => keyItem(r, now));
}

export async function getKey(db: Database, tenantId: number, id: number, now: Date): Promise<ApiKeyItem> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, id)));
  if (!row) throw new HttpError(404, serverMessages.notFound);
  return keyItem(row, now);
}

export interface AuthenticatedKey {
  id: number;
  tenantId: number;
  scopes: ApiKeyScope[];
}

/**
 * Lists a new key in the control database's directory (digest → tenant), after its row committed
 * in the tenant's database: until then a call with it is a 401, never a call into another tenant.
 */
export async function listInDirectory(control: Database, tenantId: number, secret: string): Promise<void> {
  await control
    .insert(apiKeyDirectory)
    .values({ secretHash: sha256(secret), tenantId })
    .onConflictDoNothing();
}

/** Takes a key's digest out of the directory (a key row that is gone, or never committed). */
export async function unlistFromDirectory(control: Database, secret: string): Promise<void> {
  await control.delete(apiKeyDirectory).where(eq(apiKeyDirectory.secretHash, sha256(secret)));
}

/**
 * Lists a key just committed in the tenant's database in the control directory; if that fails,
 * `takeBack` removes the row (no key is left that no call can reach), the entry goes too (in case
 * the insert did commit) and the error stands.
 */
export async function listOrTakeBack(
  control: Database,
  tenantId: number,
  secret: string,
  takeBack: () => Promise<unknown>,
): Promise<void> {
  try {
    await listInDirectory(control, tenantId, secret);
  } catch (error) {
    await takeBack().catch(() => undefined);
    await unlistFromDirectory(control, secret).catch(() => undefined);
    throw error;
  }
}

/** Deletes a key row that never reached the directory (listOrTakeBack's way back). */
export async function deleteKey(w: UnitOfWork, id: number): Promise<void> {
  await w.tx.delete(apiKeys).where(and(eq(apiKeys.tenantId, w.tenantId), eq(apiKeys.id, id)));
}

/**
 * The look-up of a presented key by its digest (no cache of its validity: a revocation or an
 * expiry is seen by the very next call in every server process). Two indexed reads, each a
 * prepared statement: the control directory names the key's tenant (skipped when the caller
 * already knows it: a digest's tenant never changes), then the key's row in that tenant's
 * database, by digest AND tenant. Answers the key when it is live now; undefined otherwise
 * (unknown, listed without a row, revoked, expired): the same answer whatever the reason.
 */
export function keyLookup(
  control: Database,
  connectionFor: (tenantId: number) => Database,
): (digest: string, now: Date, knownTenant?: number) => Promise<AuthenticatedKey | undefined> {
  const directory = control
    .select({ tenantId: apiKeyDirectory.tenantId })
    .from(apiKeyDirectory)
    .where(eq(apiKeyDirectory.secretHash, sql.placeholder('digest')))
    .prepare('api_key_directory_by_digest');
  const rowOf = (db: Database) =>
    preparedOnce(db, 'api_key_by_digest', (name) =>
      db
        .select({
          id: apiKeys.id,
          tenantId: apiKeys.tenantId,
          scopes: apiKeys.scopes,
          revokedAt: apiKeys.revokedAt,
          expiresAt: apiKeys.expiresAt,
        })
        .from(apiKeys)
        .where(
          and(
            eq(apiKeys.secretHash, sql.placeholder('digest')),
            eq(apiKeys.tenantId, sql.placeholder('tenantId')),
          ),
        )
        .prepare(name),
    );
  return async (digest, now, knownTenant) => {
    const tenantId = knownTenant ?? (await directory.execute({ digest }))[0]?.tenantId;
    if (tenantId === undefined) return undefined;
    const [row] = await rowOf(connectionFor(tenantId)).execute({ digest, tenantId });
    if (!row || stateOf(row, now) !== 'active') return undefined;
    return { id: row.id, tenantId: row.tenantId, scopes: row.scopes as ApiKeyScope[] };
  };
}

export interface LogFilter {
  from?: Date;
  to?: Date;
  method?: string;
  status?: 'success' | 'error' | number;
  path?: string;
}

export async function listRequestLog(
  db: Database,
  tenantId: number,
  keyId: number,
  filter: LogFilter,
  page: { limit: number; offset: number },
): Promise<{ items: ApiRequestLogItem[]; hasMore: boolean }> {
  const where: (SQL | undefined)[] = [
    eq(apiRequestLogs.tenantId, tenantId),
    eq(apiRequestLogs.apiKeyId, keyId),
  ];
  if (filter.from) where.push(gte(apiRequestLogs.at, filter.from));
  if (filter.to) where.push(lte(apiRequestLogs.at, filter.to));
  if (filter.method) where.push(eq(apiRequestLogs.method, filter.method.toUpperCase()));
  if (filter.status === 'success') where.push(sql`${apiRequestLogs.status} < 400`);
  else if (filter.status === 'error') where.push(sql`${apiRequestLogs.status} >= 400`);
  else if (typeof filter.status === 'number') where.push(eq(apiRequestLogs.status, filter.status));
  if (filter.path)
    where.push(
      sql`${apiRequestLogs.path} ilike ${'%' + filter.path.replace(/[\\%_]/g, (c) => '\\' + c) + '%'}`,
    );
  const rows = await db
    .select()
    .from(apiRequestLogs)
    .where(and(...where))
    .orderBy(desc(apiRequestLogs.at), desc(apiRequestLogs.id))
    .limit(page.limit + 1)
    .offset(page.offset);
  return {
    hasMore: rows.length > page.limit,
    items: rows.slice(0, page.limit).map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      method: r.method,
      path: r.path,
      status: r.status,
      durationMs: r.durationMs,
      ip: r.ip,
    })),
  };
}

/** The tenant's own limits for its keys (SuperAdmin), inside the call's unit. */
export async function saveApiSettings(
  w: UnitOfWork,
  values: { perKeyPerMinute: number; perTenantPerMinute: number },
): Promise<void> {
  await w.tx
    .insert(apiSettings)
    .values({ tenantId: w.tenantId, ...values, updatedAt: w.now })
    .onConflictDoUpdate({ target: apiSettings.tenantId, set: { ...values, updatedAt: w.now } });
}
