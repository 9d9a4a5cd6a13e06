/**
 * Rate limits of tenant API keys: calls per minute per key and per tenant (all its keys), from
 * the tenant's `api_settings` (in its own database) or the server's defaults. Counters live in
 * the control database when the app runs on PostgreSQL (rate-limiter-flexible's Postgres store:
 * every server process shares them) and in memory on the embedded database (one process); a key's
 * counter is named by tenant and key, as a key's id is its tenant database's.
 *
 * On PostgreSQL the counters' table is UNLOGGED: a count is no record worth a WAL flush, so a
 * counting call does not wait for the disk (a crash of the database server empties the table,
 * which at worst gives every key a fresh window). The table is created here (the library's own
 * layout) and an older logged one is switched over once at start.
 */
import pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { eq } from 'drizzle-orm';
import type { ApiSettings } from '../../../contract/integrations';
import { isEmbedded } from '../../db/client';
import type { Database } from '../../db/client';
import { apiSettings } from '../../db/schema';

export const WINDOW_SECONDS = 60;
const RATE_TABLE = 'api_rate_limits';
/** Counters never refuse by themselves: the limit is compared here, so it can differ per tenant. */
const UNBOUNDED = 1_000_000_000;

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Seconds until the binding window resets. */
  resetSeconds: number;
  allowed: boolean;
}

export interface ApiRateLimiter {
  readonly store: 'postgres' | 'memory';
  consume(tenantId: number, keyId: number): Promise<RateDecision>;
  settings(tenantId: number): Promise<ApiSettings>;
  /** Forget the cached settings of a tenant (after a change). */
  invalidate(tenantId: number): void;
}

const SETTINGS_TTL_MS = 10_000;

/**
 * `db` is the control database (the counters, shared by every app instance); a tenant's settings
 * are read from its own database (`connectionFor`; absent: `db`).
 */
export async function createApiRateLimiter(
  db: Database,
  defaults: ApiSettings,
  connectionFor: (tenantId: number) => Database = () => db,
): Promise<ApiRateLimiter> {
  const client = (db as unknown as { $client?: unknown }).$client;
  let limiter: RateLimiterAbstract;
  let store: ApiRateLimiter['store'];
  // The embedded database is one process (and one server): counting in memory spares its
  // single session a write per call.
  if (client instanceof pg.Pool && !isEmbedded(db)) {
    store = 'postgres';
    await client
      .query(
        `create unlogged table if not exists ${RATE_TABLE} (
          key varchar(255) primary key, points integer not null default 0, expire bigint)`,
      )
      .catch((error: unknown) => {
        // Two processes creating it at once: the other one did (as rate-limiter-flexible does).
        if ((error as { code?: string }).code !== '23505') throw error;
      });
    const persistence = await client.query<{ relpersistence: string }>(
      `select relpersistence from pg_class where oid = to_regclass('${RATE_TABLE}')`,
    );
    if (persistence.rows[0]?.relpersistence === 'p')
      await client.query(`alter table ${RATE_TABLE} set unlogged`);
    limiter = new RateLimiterPostgres({
      storeClient: client,
      storeType: 'pool',
      tableName: RATE_TABLE,
      tableCreated: true,
      keyPrefix: 'rnv',
      points: UNBOUNDED,
      duration: WINDOW_SECONDS,
      clearExpiredByTimeout: false,
    });
  } else {
    store = 'memory';
    limiter = new RateLimiterMemory({ points: UNBOUNDED, duration: WINDOW_SECONDS });
  }
  const cache = new Map<number, { at: number; value: ApiSettings }>();

  async function settings(tenantId: number): Promise<ApiSettings> {
    const hit = cache.get(tenantId);
    if (hit && Date.now() - hit.at < SETTINGS_TTL_MS) return hit.value;
    const [row] = await connectionFor(tenantId)
      .select({
        perKeyPerMinute: apiSettings.perKeyPerMinute,
        perTenantPerMinute: apiSettings.perTenantPerMinute,
      })
      .from(apiSettings)
      .where(eq(apiSettings.tenantId, tenantId));
    const value = row ?? defaults;
    cache.set(tenantId, { at: Date.now(), value });
    return value;
  }

  async function take(key: string): Promise<RateLimiterRes> {
    try {
      return await limiter.consume(key, 1);
    } catch (error) {
      if (error instanceof RateLimiterRes) return error;
      throw error;
    }
  }

  return {
    store,
    settings,
    invalidate: (tenantId) => void cache.delete(tenantId),
    async consume(tenantId, keyId) {
      const limits = await settings(tenantId);
      // A key's id is its tenant database's: the counter is named by tenant and key.
      const [perKey, perTenant] = await Promise.all([take(`k:${tenantId}:${keyId}`), take(`t:${tenantId}`)]);
      const keyLeft = limits.perKeyPerMinute - perKey.consumedPoints;
      const tenantLeft = limits.perTenantPerMinute - perTenant.consumedPoints;
      // The binding limit is the one with fewer calls left.
      const byKey = keyLeft <= tenantLeft;
      const res = byKey ? perKey : perTenant;
      const left = byKey ? keyLeft : tenantLeft;
      return {
        limit: byKey ? limits.perKeyPerMinute : limits.perTenantPerMinute,
        remaining: Math.max(0, left),
        resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        allowed: left >= 0,
      };
    },
  };
}
