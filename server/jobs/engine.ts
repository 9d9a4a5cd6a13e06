/**
 * The background-job engine: pg-boss (a maintained PostgreSQL job queue) on the app's own
 * database, started and stopped with the server. Every queue is created at start (pg-boss's
 * `send` to a missing queue returns null silently); recurring jobs are pg-boss cron schedules in
 * Europe/Rome. Retries with exponential back-off, failures kept with their error, manual retry:
 * all pg-boss's own. `stats` and `recent` read pg-boss's tables, so the /hangfire page shows what
 * the engine holds, nothing made up.
 *
 * Modes:
 * - 'auto' (the server): workers poll the queues, the cron timekeeper and the maintenance
 *   (expiry, archive, purge) run;
 * - 'manual' (tests): queues and schedules exist but nothing runs by itself; `drain` and
 *   `runJobNow` process due jobs inside the call, so a test decides when a job runs (no sleeps);
 * - 'off': no engine (the /hangfire calls answer 503).
 */
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database } from '../db/client';
import { pgBossDb, settledAll, tracked } from './pg-boss-db';

export type JobMode = 'auto' | 'manual' | 'off';

export const JOB_TIME_ZONE = 'Europe/Rome';
const SCHEMA = 'pgboss';
/** pg-boss's own queues (the cron timekeeper's). */
const INTERNAL_PREFIX = '__pgboss__';

export interface JobContext {
  jobId: string;
  /** 0 on the first attempt. */
  retryCount: number;
  log: FastifyBaseLogger;
  /** Enqueue follow-up jobs (never inside an open transaction). */
  enqueue(name: string, data: object): Promise<string | null>;
}

export interface JobDefinition {
  /** Queue name: letters, digits, hyphens. */
  name: string;
  /** Italian description for the /hangfire page. */
  label: string;
  /** Cron expression in Europe/Rome; absent: run only when enqueued. */
  cron?: string;
  retryLimit: number;
  /** Seconds before the first retry; doubled each attempt (with jitter) when `retryBackoff`. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** The work; what it returns is kept as the job's output. Throwing fails the attempt. */
  run(data: Record<string, unknown>, ctx: JobContext): Promise<unknown>;
}

export interface ProcessedJob {
  id: string;
  name: string;
  data: Record<string, unknown>;
  outcome: 'succeeded' | 'failed';
  output?: unknown;
  error?: string;
}

export interface JobStats {
  enqueued: number;
  scheduled: number;
  processing: number;
  succeeded: number;
  failed: number;
  retrying: number;
  cancelled: number;
  recurring: number;
  queues: number;
}

export type RecentJobState =
  'enqueued' | 'scheduled' | 'processing' | 'retrying' | 'succeeded' | 'failed' | 'cancelled';

export interface RecentJob {
  id: string;
  /** The queue (job) name. */
  key: string;
  args: Record<string, unknown>;
  enqueuedAt: string;
  state: RecentJobState;
  /** The last attempt's error message (failed, or retrying). */
  error: string | null;
  retryCount: number;
  retryLimit: number;
  startedAt: string | null;
  completedAt: string | null;
  /** When a waiting job may run next (a retry after its back-off, a delayed job). */
  startAfter: string;
}

export interface JobEngine {
  readonly mode: JobMode;
  readonly definitions: readonly JobDefinition[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Adds a job to a queue (after commit: never inside an open transaction). */
  enqueue(name: string, data?: object): Promise<string | null>;
  /**
   * Processes the jobs that are due, in this call, until none is left (manual mode: tests).
   * `ignoreStartAfter` also takes jobs waiting for their retry back-off: the test's way of
   * letting the back-off pass without sleeping.
   */
  drain(options?: {
    names?: readonly string[];
    ignoreStartAfter?: boolean;
    maxJobs?: number;
  }): Promise<ProcessedJob[]>;
  /** Enqueues a job and processes its queue now (what it enqueued too); manual mode. */
  runJobNow(name: string, data?: object): Promise<ProcessedJob[]>;
  stats(): Promise<JobStats>;
  /** Newest first; `offset` pages further; `beforeId`: only the jobs after that one (keyset, exports). */
  recent(limit?: number, offset?: number, beforeId?: string): Promise<RecentJob[]>;
  /** A failed job back to its queue; 'notFound' for an unknown id, 'notFailed' for any other state. */
  retry(id: string): Promise<'retried' | 'notFound' | 'notFailed'>;
}

export interface JobEngineOptions {
  db: Database;
  mode: Exclude<JobMode, 'off'>;
  definitions: readonly JobDefinition[];
  log: FastifyBaseLogger;
  /** Worker polling interval in auto mode. */
  pollingIntervalSeconds?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function errorMessageOf(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const o = output as { message?: unknown; value?: { message?: unknown } };
  if (typeof o.message === 'string') return o.message;
  if (o.value && typeof o.value.message === 'string') return o.value.message;
  return null;
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function createJobEngine(options: JobEngineOptions): JobEngine {
  const { mode, definitions, log } = options;
  const db = pgBossDb(options.db);
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const boss = new PgBoss({
    db,
    schema: SCHEMA,
    migrate: true,
    // The cron timekeeper and the maintenance (expire, archive, purge) run only in auto mode.
    schedule: mode === 'auto',
    supervise: mode === 'auto',
    // Failed jobs stay retryable from /hangfire for a week; succeeded ones move to the archive
    // after 12 hours (and are still listed from there).
    archiveCompletedAfterSeconds: 12 * 3600,
    archiveFailedAfterSeconds: 7 * 24 * 3600,
    deleteAfterDays: 7,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job engine: errore di pg-boss'));
  let started = false;
  /** The start under way (or done): every call that reads or writes pg-boss waits for it. */
  let starting: Promise<void> | undefined;
  const whenStarted = async () => {
    if (starting) await starting;
  };

  function contextFor(job: { id: string; retryCount?: number }): JobContext {
    return {
      jobId: job.id,
      retryCount: job.retryCount ?? 0,
      log: log.child({ jobId: job.id }),
      enqueue: (name, data) => enqueue(name, data),
    };
  }

  async function enqueue(name: string, data: object = {}): Promise<string | null> {
    await whenStarted();
    const def = byName.get(name);
    if (!def) throw new Error(`job engine: unknown job ${name}`);
    return boss.send(name, data, {
      retryLimit: def.retryLimit,
      retryDelay: def.retryDelaySeconds,
      retryBackoff: def.retryBackoff,
      // pg-boss fetches a job once `start_after < now()`, strictly: a job enqueued and fetched
      // within one tick of the database's clock (PGlite's can be a millisecond) would be left for a
      // later drain. In manual mode (tests, drained by hand) a new job is due at once.
      ...(mode === 'manual' ? { startAfter: new Date(Date.now() - 1000) } : {}),
    });
  }

  /** Job handlers running now (engine.stop waits for them: a worker may start one while it stops). */
  const running = new Set<Promise<unknown>>();
  const execute = (def: JobDefinition, job: PgBoss.JobWithMetadata<Record<string, unknown>>) =>
    tracked(running, executeJob(def, job));

  async function executeJob(def: JobDefinition, job: PgBoss.JobWithMetadata<Record<string, unknown>>) {
    const ctx = contextFor(job);
    try {
      const output = await def.run(job.data ?? {}, ctx);
      ctx.log.info({ job: def.name, data: job.data }, 'job completato');
      return output;
    } catch (error) {
      ctx.log.warn({ job: def.name, data: job.data, attempt: job.retryCount + 1, err: error }, 'job fallito');
      throw error;
    }
  }

  async function startEngine(): Promise<void> {
    await boss.start();
    for (const def of definitions) {
      await boss.createQueue(def.name, {
        name: def.name,
        retryLimit: def.retryLimit,
        retryDelay: def.retryDelaySeconds,
        retryBackoff: def.retryBackoff,
      });
      if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: JOB_TIME_ZONE });
      else await boss.unschedule(def.name);
    }
    // A schedule left by an earlier start whose job is no longer registered would enqueue
    // jobs nobody works: remove it.
    for (const schedule of await boss.getSchedules()) {
      if (!byName.has(schedule.name) && !schedule.name.startsWith(INTERNAL_PREFIX))
        await boss.unschedule(schedule.name);
    }
    if (mode === 'auto') {
      for (const def of definitions) {
        await boss.work<Record<string, unknown>>(
          def.name,
          {
            includeMetadata: true,
            batchSize: 1,
            pollingIntervalSeconds: options.pollingIntervalSeconds ?? 5,
          },
          async ([job]) => (job ? execute(def, job) : undefined),
        );
      }
    }
    started = true;
  }

  const engine: JobEngine = {
    mode,
    definitions,
    start() {
      starting ??= startEngine().catch((error: unknown) => {
        starting = undefined;
        throw error;
      });
      return starting;
    },
    async stop() {
      if (starting) await starting.catch(() => undefined);
      // eslint-disable-next-line require-atomic-updates -- stop() clears the start it has just awaited, whatever it ended with
      starting = undefined;
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, close: false, wait: true, timeout: 10_000 });
      // pg-boss counts a worker busy only once its fetch has returned a job, and records outcomes
      // without awaiting them: wait for both before the caller closes the pool (a job fetched
      // while stopping then ran on a closed pool, and its failure, recorded on it, crashed the
      // process at Ctrl-C).
      await settledAll(db.underWay, running);
    },
    enqueue,
    async drain({ names, ignoreStartAfter = false, maxJobs = 1000 } = {}) {
      await whenStarted();
      const queues = names ?? definitions.map((d) => d.name);
      const processed: ProcessedJob[] = [];
      let progress = true;
      while (progress && processed.length < maxJobs) {
        progress = false;
        for (const name of queues) {
          const def = byName.get(name);
          if (!def) throw new Error(`job engine: unknown job ${name}`);
          const [job] = await boss.fetch<Record<string, unknown>>(name, {
            batchSize: 1,
            includeMetadata: true,
            ignoreStartAfter,
          });
          if (!job) continue;
          progress = true;
          try {
            const output = await execute(def, job);
            await boss.complete(name, job.id, output === undefined ? undefined : (output as object));
            processed.push({ id: job.id, name, data: job.data ?? {}, outcome: 'succeeded', output });
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            await boss.fail(name, job.id, { name: 'Error', message });
            processed.push({ id: job.id, name, data: job.data ?? {}, outcome: 'failed', error: message });
          }
        }
      }
      return processed;
    },
    async runJobNow(name, data = {}) {
      await whenStarted();
      await enqueue(name, data);
      return engine.drain({ names: [name] });
    },
    async stats() {
      await whenStarted();
      const { rows } = await db.executeSql(
        `SELECT
           count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())::int AS enqueued,
           count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after > now())::int AS scheduled,
           count(*) FILTER (WHERE state = 'active')::int AS processing,
           count(*) FILTER (WHERE state = 'completed')::int AS succeeded,
           count(*) FILTER (WHERE state = 'failed')::int AS failed,
           count(*) FILTER (WHERE state = 'retry')::int AS retrying,
           count(*) FILTER (WHERE state = 'cancelled')::int AS cancelled,
           (SELECT count(*)::int FROM ${SCHEMA}.schedule WHERE name NOT LIKE '${INTERNAL_PREFIX}%') AS recurring,
           (SELECT count(*)::int FROM ${SCHEMA}.queue WHERE name NOT LIKE '${INTERNAL_PREFIX}%') AS queues
         FROM (
           SELECT state, start_after FROM ${SCHEMA}.job WHERE name NOT LIKE '${INTERNAL_PREFIX}%'
           UNION ALL
           SELECT state, start_after FROM ${SCHEMA}.archive WHERE name NOT LIKE '${INTERNAL_PREFIX}%'
         ) j`,
        [],
      );
      return rows[0] as JobStats;
    },
    async recent(limit = 50, offset = 0, beforeId?: string) {
      await whenStarted();
      // Keyset: the rows after the given job in (created_on, id) order, read from job or archive.
      const seek =
        beforeId === undefined
          ? ''
          : `WHERE (created_on, id) < (
               SELECT created_on, id FROM ${SCHEMA}.job WHERE id = $4::uuid
               UNION ALL SELECT created_on, id FROM ${SCHEMA}.archive WHERE id = $4::uuid
               LIMIT 1)`;
      const { rows } = await db.executeSql(
        `SELECT id, name, data, state, retry_count, retry_limit, start_after, created_on, started_on,
                completed_on, output, start_after > now() AS waiting
         FROM (
           SELECT id, name, data, state, retry_count, retry_limit, start_after, created_on, started_on, completed_on, output
           FROM ${SCHEMA}.job WHERE name NOT LIKE $2
           UNION ALL
           SELECT id, name, data, state, retry_count, retry_limit, start_after, created_on, started_on, completed_on, output
           FROM ${SCHEMA}.archive WHERE name NOT LIKE $2
         ) j
         ${seek}
         ORDER BY created_on DESC, id DESC
         LIMIT $1 OFFSET $3`,
        beforeId === undefined
          ? [limit, `${INTERNAL_PREFIX}%`, offset]
          : [limit, `${INTERNAL_PREFIX}%`, offset, beforeId],
      );
      return (rows as Record<string, unknown>[]).map((r) => {
        const raw = r.state as string;
        const state: RecentJobState =
          raw === 'created'
            ? r.waiting
              ? 'scheduled'
              : 'enqueued'
            : raw === 'retry'
              ? 'retrying'
              : raw === 'active'
                ? 'processing'
                : raw === 'completed'
                  ? 'succeeded'
                  : raw === 'failed'
                    ? 'failed'
                    : 'cancelled';
        return {
          id: String(r.id),
          key: String(r.name),
          args: (r.data as Record<string, unknown> | null) ?? {},
          enqueuedAt: iso(r.created_on as Date) as string,
          state,
          error: state === 'failed' || state === 'retrying' ? errorMessageOf(r.output) : null,
          retryCount: Number(r.retry_count),
          retryLimit: Number(r.retry_limit),
          startedAt: iso(r.started_on as Date | null),
          completedAt: iso(r.completed_on as Date | null),
          startAfter: iso(r.start_after as Date) as string,
        };
      });
    },
    async retry(id) {
      await whenStarted();
      if (!UUID.test(id)) return 'notFound';
      const { rows } = await db.executeSql(`SELECT name, state FROM ${SCHEMA}.job WHERE id = $1`, [id]);
      const row = rows[0] as { name: string; state: string } | undefined;
      if (!row || row.name.startsWith(INTERNAL_PREFIX)) {
        const archived = await db.executeSql(`SELECT state FROM ${SCHEMA}.archive WHERE id = $1`, [id]);
        return archived.rows.length > 0 ? 'notFailed' : 'notFound';
      }
      if (row.state !== 'failed') return 'notFailed';
      await boss.retry(row.name, id);
      // pg-boss keeps the last back-off's start time; a retry asked by a person runs now.
      await db.executeSql(
        `UPDATE ${SCHEMA}.job SET start_after = now() WHERE name = $1 AND id = $2 AND state = 'retry'`,
        [row.name, id],
      );
      return 'retried';
    },
  };
  return engine;
}
