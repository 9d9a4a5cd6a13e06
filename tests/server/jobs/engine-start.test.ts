/**
 * The job engine's start: in auto mode the server answers while pg-boss starts (server/app.ts), so
 * every engine call made meanwhile waits for the start under way instead of reaching a pg-boss
 * that is not ready; a stop during the start waits for it, and the engine starts again after.
 * Its stop: a job a worker fetches while pg-boss stops still runs and is recorded before the
 * caller closes the pool (it used to run on a closed pool and crash the process at Ctrl-C).
 */
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../server/db/client';
import { executeRows } from '../../../server/db/rows';
import { createJobEngine, type JobDefinition } from '../../../server/jobs/engine';
import { clientOf } from '../../../server/jobs/pg-boss-db';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('job engine start', () => {
  it('a job enqueued while the engine is starting waits for the start, then runs once', async () => {
    const ran: Record<string, unknown>[] = [];
    const definition: JobDefinition = {
      name: 'prova-avvio',
      label: 'Prova di avvio',
      retryLimit: 0,
      retryDelaySeconds: 1,
      retryBackoff: false,
      run: async (data) => {
        ran.push(data);
      },
    };
    const engine = createJobEngine({
      db: ctx.db,
      mode: 'manual',
      definitions: [definition],
      log: ctx.app.log,
    });
    try {
      const starting = engine.start();
      // Not awaited: the queue does not exist until the start has created it.
      const [id] = await Promise.all([engine.enqueue('prova-avvio', { n: 1 }), starting]);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await engine.drain()).map((j) => [j.name, j.outcome])).toEqual([['prova-avvio', 'succeeded']]);
      expect(ran).toEqual([{ n: 1 }]);

      // A stop during a start waits for it; the engine then starts again.
      const again = engine.start();
      expect(again).toBe(engine.start()); // one start under way, not two
      await engine.stop();
      await engine.start();
      await engine.enqueue('prova-avvio', { n: 2 });
      expect((await engine.drain()).map((j) => j.data)).toEqual([{ n: 2 }]);
    } finally {
      await engine.stop();
    }
  });

  it('a job fetched while pg-boss stops runs and is recorded before stop() resolves', async () => {
    const pool = clientOf(ctx.db) as { query(text: string, values?: unknown[]): Promise<unknown> };
    // The worker's first fetch of the queue is held before it reaches the database.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const fetchHeld = new Promise<void>((resolve) => (held = resolve));
    let holding = true;
    const gated = {
      query: async (text: string, values?: unknown[]) => {
        if (holding && /SKIP LOCKED/.test(text) && values?.[0] === 'prova-arresto') {
          holding = false;
          held();
          await released;
        }
        return pool.query(text, values);
      },
    };
    const ran: string[] = [];
    const definition: JobDefinition = {
      name: 'prova-arresto',
      label: 'Prova di arresto',
      retryLimit: 0,
      retryDelaySeconds: 1,
      retryBackoff: false,
      run: async () => {
        // The job's own work, on the app's pool.
        const [row] = await executeRows<{ one: number }>(ctx.db, sql`select 1 as one`);
        ran.push(`ran ${row?.one}`);
      },
    };
    let bossStopped!: () => void;
    const bossStop = new Promise<void>((resolve) => (bossStopped = resolve));
    const realStop = PgBoss.prototype.stop;
    const spy = vi.spyOn(PgBoss.prototype, 'stop').mockImplementation(async function (this: PgBoss, options) {
      await realStop.call(this, options);
      bossStopped();
    });
    const engine = createJobEngine({
      db: { $client: gated } as unknown as Database,
      mode: 'auto',
      definitions: [definition],
      log: ctx.app.log,
    });
    try {
      await engine.start();
      await fetchHeld;
      const id = await engine.enqueue('prova-arresto', {});
      let stopResolved = false;
      const stopping = engine.stop().then(() => (stopResolved = true));
      await bossStop;
      // pg-boss has stopped; the held fetch is still under way, so the engine has not.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(stopResolved).toBe(false);
      release();
      await stopping;
      expect(ran).toEqual(['ran 1']);
      const [job] = await executeRows<{ state: string }>(
        ctx.db,
        sql`select state from pgboss.job where id = ${id}::uuid
            union all select state from pgboss.archive where id = ${id}::uuid`,
      );
      expect(job?.state).toBe('completed');
    } finally {
      release();
      spy.mockRestore();
      await engine.stop();
    }
  });
});
