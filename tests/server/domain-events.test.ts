/**
 * Domain events (issue 24): consumers run in the publishing transaction or after its commit
 * through the outbox, on the real database.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, subscriptions } from '../../server/db/schema';
import type { CommittedEvent } from '../../server/unit-of-work/events';
import { createEventBus } from '../../server/unit-of-work/events';
import { createOutboxDispatcher } from '../../server/unit-of-work/outbox';
import { createUnitOfWorkRunner } from '../../server/unit-of-work/unit-of-work';
import { createTestContext } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const silent = { warn: () => undefined } as never;
const noMail = { send: () => Promise.reject(new Error('no mail here')), close: async () => undefined };

function setUp(options: { failAfterCommit?: number } = {}) {
  const events = createEventBus();
  const seen: string[] = [];
  const committed: CommittedEvent<'payment.paid'>[] = [];
  let failures = options.failAfterCommit ?? 0;
  events.subscribe('payment.paid', {
    name: 'test.inTransaction',
    phase: 'inTransaction',
    handle: async (w, { paymentId }) => {
      // Runs on the publishing transaction: it sees the unit's own uncommitted writes.
      const [sub] = await w.tx
        .select({ status: subscriptions.status })
        .from(subscriptions)
        .where(eq(subscriptions.id, paymentId));
      seen.push(`in tx: ${sub?.status ?? 'none'}`);
      return { outcome: 'applied', detail: `visto ${paymentId}` };
    },
  });
  events.subscribe('payment.paid', {
    name: 'test.afterCommit',
    phase: 'afterCommit',
    handle: async (event) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('rete giù');
      }
      committed.push(event);
    },
  });
  const clock = () => new Date('2026-03-01T09:00:00.000Z');
  const dispatcher = createOutboxDispatcher({ db: ctx.db, mailer: noMail, log: silent, clock, events });
  const uow = createUnitOfWorkRunner({
    connectionFor: () => ctx.db,
    shared: ctx.db,
    clock,
    dispatcher,
    events,
  });
  return { uow, dispatcher, seen, committed };
}

describe('domain events', () => {
  it('in-transaction consumers run inside the unit and report back; after-commit ones run once it committed', async () => {
    const tenantId = await ctx.tenantId('Demo Srl');
    const [sub] = await ctx.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, tenantId))
      .limit(1);
    const { uow, seen, committed } = setUp();
    const reports = await uow.run({ tenantId, actor: { kind: 'system', job: 'test' } }, async (w) => {
      await w.tx.update(subscriptions).set({ status: 5 }).where(eq(subscriptions.id, sub!.id));
      const r = await w.publish('payment.paid', { paymentId: sub!.id, subscriptionId: sub!.id });
      expect(committed).toEqual([]);
      return r;
    });
    expect(seen).toEqual(['in tx: 5']);
    expect(reports).toEqual([
      { consumer: 'test.inTransaction', outcome: 'applied', detail: `visto ${sub!.id}` },
    ]);
    expect(committed).toHaveLength(1);
    expect(committed[0]).toMatchObject({
      tenantId,
      payload: { paymentId: sub!.id },
      at: new Date('2026-03-01T09:00:00.000Z'),
    });
    await ctx.db.update(subscriptions).set({ status: sub!.status }).where(eq(subscriptions.id, sub!.id));
  });

  it('a unit that rolls back delivers nothing after commit and leaves no outbox row', async () => {
    const tenantId = await ctx.tenantId('Demo Srl');
    const { uow, committed } = setUp();
    const before = await ctx.db.select({ id: outbox.id }).from(outbox);
    await expect(
      uow.run({ tenantId, actor: { kind: 'system', job: 'test' } }, async (w) => {
        await w.publish('payment.paid', { paymentId: 1, subscriptionId: 1 });
        throw new Error('annullato');
      }),
    ).rejects.toThrow('annullato');
    expect(committed).toEqual([]);
    expect(await ctx.db.select({ id: outbox.id }).from(outbox)).toEqual(before);
  });

  it('a failed after-commit delivery stays in the outbox and the sweep delivers it once', async () => {
    const tenantId = await ctx.tenantId('Studio Rossi');
    const { uow, dispatcher, committed } = setUp({ failAfterCommit: 1 });
    await uow.run({ tenantId, actor: { kind: 'system', job: 'test' } }, (w) =>
      w.publish('payment.paid', { paymentId: 7, subscriptionId: 7 }),
    );
    expect(committed).toEqual([]);
    const [pending] = await ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, 'event'), isNull(outbox.sentAt)));
    expect(pending).toMatchObject({ sentAt: null, attempts: 1, lastError: 'rete giù', tenantId });
    expect(await dispatcher.dispatchPending()).toBe(1);
    expect(await dispatcher.dispatchPending()).toBe(0);
    expect(committed).toHaveLength(1);
    expect(committed[0]?.outboxId).toBe(pending!.id);
  });
});
