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
import { apiKeys, apiRequestLogs, apiSettings } from '../../db/schema';
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
 * The look-up of a presented key by its digest, prepared once (one round trip per call, no
 * cache: a revocation or an expiry is seen by the very next call in every server process).
 * Answers the key when it is live now; undefined otherwise (unknown, revoked, expired).
 */
export function keyLookup(
  db: Database,
): (digest: string, now: Date) => Promise<AuthenticatedKey | undefined> {
  const query = db
    .select({
      id: apiKeys.id,
      tenantId: apiKeys.tenantId,
      scopes: apiKeys.scopes,
      revokedAt: apiKeys.revokedAt,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, sql.placeholder('digest')))
    .prepare('api_key_by_digest');
  return async (digest, now) => {
    const [row] = await query.execute({ digest });
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
