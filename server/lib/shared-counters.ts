/**
 * Counters in fixed windows shared by every server process (issue 25: rate limits hold across app
 * instances). On PostgreSQL they live in an UNLOGGED table of the control database (a count is no
 * record worth a WAL flush; a crash of the database server empties it, which gives every key a
 * fresh window), updated by one atomic upsert per hit, on the database's clock, so instances with
 * slightly different clocks agree. On the embedded database (one process, one server) they live in
 * memory.
 *
 * Used by the per-IP limits of public routes (@fastify/rate-limit's store, below) and by the
 * failed-sign-in lock (modules/auth/login-throttle.ts).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';

export interface CounterState {
  count: number;
  /** Milliseconds until the window ends (0: no window open). */
  ttlMs: number;
}

export interface SharedCounters {
  readonly store: 'postgres' | 'memory';
  /** Counts one more for `key` in its window (a new window of `windowMs` once the last ended). */
  hit(key: string, windowMs: number): Promise<CounterState>;
  /** The keys' current windows, without counting (absent or ended: count 0). */
  peek(keys: readonly string[]): Promise<Map<string, CounterState>>;
  /** Ends the key's window. */
  clear(key: string): Promise<void>;
}

const TABLE = 'rate_counters';
const MAX_MEMORY_KEYS = 50_000;

export function memoryCounters(now: () => number = Date.now): SharedCounters {
  const entries = new Map<string, { count: number; windowEnds: number }>();
  const prune = (at: number) => {
    for (const [key, entry] of entries) if (entry.windowEnds <= at) entries.delete(key);
  };
  return {
    store: 'memory',
    async hit(key, windowMs) {
      const at = now();
      if (entries.size > MAX_MEMORY_KEYS) prune(at);
      const entry = entries.get(key);
      if (!entry || entry.windowEnds <= at) {
        entries.set(key, { count: 1, windowEnds: at + windowMs });
        return { count: 1, ttlMs: windowMs };
      }
      entry.count += 1;
      return { count: entry.count, ttlMs: entry.windowEnds - at };
    },
    async peek(keys) {
      const at = now();
      const found = new Map<string, CounterState>();
      for (const key of keys) {
        const entry = entries.get(key);
        if (entry && entry.windowEnds > at)
          found.set(key, { count: entry.count, ttlMs: entry.windowEnds - at });
      }
      return found;
    },
    async clear(key) {
      entries.delete(key);
    },
  };
}

/** Counters in the control database's `rate_counters` (created here, UNLOGGED). */
export async function postgresCounters(pool: pg.Pool): Promise<SharedCounters> {
  await pool
    .query(
      `create unlogged table if not exists ${TABLE} (
        key text primary key, count integer not null, window_ends timestamptz not null)`,
    )
    .catch((error: unknown) => {
      // Two processes creating it at once: the other one did.
      if ((error as { code?: string }).code !== '23505' && (error as { code?: string }).code !== '42P07')
        throw error;
    });
  let hits = 0;
  return {
    store: 'postgres',
    async hit(key, windowMs) {
      // Now and then, windows long ended go (one statement, bounded by the index on nothing: the
      // table holds the keys of the last windows only).
      if (++hits % 1000 === 0)
        await pool.query(`delete from ${TABLE} where window_ends < clock_timestamp() - interval '1 hour'`);
      const { rows } = await pool.query<{ count: number; ttl: string }>(
        `insert into ${TABLE} as c (key, count, window_ends)
           values ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
         on conflict (key) do update set
           count = case when c.window_ends <= clock_timestamp() then 1 else c.count + 1 end,
           window_ends = case when c.window_ends <= clock_timestamp()
             then clock_timestamp() + $2 * interval '1 millisecond' else c.window_ends end
         returning count, (extract(epoch from (window_ends - clock_timestamp())) * 1000)::bigint::text as ttl`,
        [key, windowMs],
      );
      const row = rows[0];
      return { count: row?.count ?? 1, ttlMs: Math.max(0, Number(row?.ttl ?? windowMs)) };
    },
    async peek(keys) {
      const found = new Map<string, CounterState>();
      if (keys.length === 0) return found;
      const { rows } = await pool.query<{ key: string; count: number; ttl: string }>(
        `select key, count, (extract(epoch from (window_ends - clock_timestamp())) * 1000)::bigint::text as ttl
           from ${TABLE} where key = any($1) and window_ends > clock_timestamp()`,
        [keys],
      );
      for (const row of rows) found.set(row.key, { count: row.count, ttlMs: Math.max(0, Number(row.ttl)) });
      return found;
    },
    async clear(key) {
      await pool.query(`delete from ${TABLE} where key = $1`, [key]);
    },
  };
}

interface RateLimitStoreResult {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result?: RateLimitStoreResult) => void;

/**
 * A store for @fastify/rate-limit on shared counters (its `store` option takes a class; each
 * route's child counts under the route's own prefix, as the library's Redis store does).
 */
export function rateLimitStoreOn(counters: SharedCounters) {
  return class SharedRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = 'ip:',
    ) {}
    /** The client's address as a digest: the counters' table holds no address in clear. */
    private keyOf(key: string): string {
      return this.prefix + createHash('sha256').update(key).digest('base64url');
    }
    incr(key: string, callback: Callback, timeWindow: number): void {
      counters.hit(this.keyOf(key), timeWindow).then(
        (state) => callback(null, { current: state.count, ttl: state.ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    read(key: string, callback: Callback): void {
      counters.peek([this.keyOf(key)]).then(
        (found) => {
          const state = found.get(this.keyOf(key));
          callback(null, { current: state?.count ?? 0, ttl: state?.ttlMs ?? 0 });
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    /** The library passes the route's merged limit options, the route itself under `routeInfo`. */
    child(routeOptions: object): SharedRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new SharedRateLimitStore(undefined, `ip:${route.method ?? ''}${route.url ?? ''}:`);
    }
  };
}

/** Shared counters for this database: PostgreSQL's table, or memory on the embedded database. */
export async function sharedCountersFor(client: unknown, embedded: boolean): Promise<SharedCounters> {
  return client instanceof pg.Pool && !embedded ? postgresCounters(client) : memoryCounters();
}
