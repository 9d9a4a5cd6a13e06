/**
 * The job engine's start: in auto mode the server answers while pg-boss starts (server/app.ts), so
 * every engine call made meanwhile waits for the start under way instead of reaching a pg-boss
 * that is not ready; a stop during the start waits for it, and the engine starts again after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobEngine, type JobDefinition } from '../../../server/jobs/engine';
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
});
