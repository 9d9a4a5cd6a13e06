/**
 * The recurring jobs on the real engine (pg-boss on the test database, manual mode: a job runs
 * only inside engine.runJobNow / drain), against a moved clock: each does its work once per
 * period, per tenant, without crossing tenants; a throwing job is retried with back-off, then
 * failed, shown by the /hangfire calls, and runs again after a retry.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  subscriptionEvents,
  subscriptionReminders,
  subscriptions,
  tenants,
} from '../../../server/db/schema';
import type { JobEngine } from '../../../server/jobs/engine';
import type { PaymentHooks } from '../../../server/jobs/payment-hooks';
import { JOB_NAMES } from '../../../server/jobs/recurring-jobs';
import { movableClock } from '../billing/helpers';
import { createTestContext, type TestContext } from '../helpers/test-app';

const DAY = 86_400_000;
const clock = movableClock('2026-01-01T00:00:00.000Z');

/** Test doubles of the payments issue's functions: they record who asked, in which tenant. */
const calls = {
  expireTokens: [] as { tenantId: number; actor: unknown }[],
  syncPaypal: [] as number[],
  links: [] as { tenantId: number; subscriptionId: number; periodStart: string }[],
};
let paypalFails = true;
const hooks: PaymentHooks = {
  async expireTokens(uow) {
    calls.expireTokens.push({ tenantId: uow.tenantId, actor: uow.actor });
    return 0;
  },
  async syncPaypal(tenantId) {
    calls.syncPaypal.push(tenantId);
    if (paypalFails) throw new Error('PayPal non raggiungibile (test)');
    return 0;
  },
  async createRenewalPaymentLink(uow, input) {
    calls.links.push({
      tenantId: uow.tenantId,
      subscriptionId: input.subscriptionId,
      periodStart: input.periodStart.toISOString(),
    });
    return `https://pagamenti.test/payment?token=t-${uow.tenantId}-${input.subscriptionId}&bypassTenant=true`;
  },
};

let ctx: TestContext;
let jobs: JobEngine;
let demo: number;
let rossi: number;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now, paymentHooks: hooks } });
  if (!ctx.app.jobs) throw new Error('job engine missing');
  jobs = ctx.app.jobs;
  demo = await ctx.tenantId('Demo Srl');
  rossi = await ctx.tenantId('Studio Rossi');
}, 60_000);
afterAll(async () => ctx?.close());

async function noRenewal() {
  return ctx.db
    .select({
      id: subscriptions.id,
      tenantId: subscriptions.tenantId,
      status: subscriptions.status,
      next: subscriptions.nextBillingDate,
    })
    .from(subscriptions)
    .where(eq(subscriptions.status, SubscriptionStatus.ActiveNoRenewal))
    .orderBy(asc(subscriptions.nextBillingDate), asc(subscriptions.id));
}

async function expireEvents(ids: number[]) {
  if (ids.length === 0) return [];
  return ctx.db
    .select()
    .from(subscriptionEvents)
    .where(and(inArray(subscriptionEvents.subscriptionId, ids), eq(subscriptionEvents.event, 'expire')));
}

const tenantOutputs = (processed: Awaited<ReturnType<JobEngine['runJobNow']>>) =>
  processed
    .filter((p) => p.data.tenantId !== undefined)
    .map((p) => ({ outcome: p.outcome, ...(p.output as Record<string, unknown>) }))
    .sort((a, b) => Number(a.tenantId) - Number(b.tenantId));

describe('the engine at start', () => {
  it('has created every queue and a Europe/Rome schedule per recurring job', async () => {
    const superadmin = await ctx.as('superadmin');
    const recurring = await superadmin.get<{ key: string; cron: string; timeZone: string }[]>(
      '/api/hangfire/recurring',
    );
    expect(recurring.status).toBe(200);
    expect(recurring.body.data?.map((r) => r.key).sort()).toEqual(Object.values(JOB_NAMES).sort());
    expect(recurring.body.data?.every((r) => r.timeZone === 'Europe/Rome')).toBe(true);
    const stats = await superadmin.get<Record<string, number>>('/api/hangfire/stats');
    expect(stats.body.data).toMatchObject({ recurring: 4, queues: 4, failed: 0, processing: 0 });
  });
});

describe('subscriptions-expire: ActiveNoRenewal → NotActive once the next billing date has passed', () => {
  it('expires the due ones of each tenant once, in the history, and nothing on a second run', async () => {
    const before = await noRenewal();
    const rossiSub = before.find((s) => s.tenantId === rossi);
    expect(rossiSub).toBeDefined();
    expect(before.some((s) => s.tenantId === demo)).toBe(true);
    // Just past Studio Rossi's one: due are those whose date is not later.
    const t1 = new Date(rossiSub!.next.getTime() + 60_000);
    clock.set(t1.toISOString());
    const due = before.filter((s) => s.next.getTime() <= t1.getTime());
    const notDue = before.filter((s) => s.next.getTime() > t1.getTime());
    expect(notDue.length).toBeGreaterThan(0);
    const count = (tenantId: number, list: typeof before) => list.filter((s) => s.tenantId === tenantId).length;

    const first = await jobs.runJobNow(JOB_NAMES.expireSubscriptions);
    const tenantIds = (await ctx.db.select({ id: tenants.id }).from(tenants)).map((t) => t.id).sort((a, b) => a - b);
    expect(first[0]).toMatchObject({ outcome: 'succeeded', output: { tenants: tenantIds.length } });
    const outputs = tenantOutputs(first);
    expect(outputs).toEqual(
      tenantIds.map((tenantId) => ({
        outcome: 'succeeded',
        tenantId,
        expired: count(tenantId, due),
      })),
    );

    const after = await ctx.db
      .select({ id: subscriptions.id, status: subscriptions.status })
      .from(subscriptions)
      .where(inArray(subscriptions.id, before.map((s) => s.id)));
    const statusOf = new Map(after.map((s) => [s.id, s.status]));
    for (const s of due) expect(statusOf.get(s.id)).toBe(SubscriptionStatus.NotActive);
    for (const s of notDue) expect(statusOf.get(s.id)).toBe(SubscriptionStatus.ActiveNoRenewal);
    const events = await expireEvents(before.map((s) => s.id));
    expect(events).toHaveLength(due.length);
    for (const e of events) {
      const sub = due.find((s) => s.id === e.subscriptionId);
      expect(sub).toBeDefined();
      expect(e).toMatchObject({
        tenantId: sub!.tenantId,
        fromStatus: SubscriptionStatus.ActiveNoRenewal,
        toStatus: SubscriptionStatus.NotActive,
        actorKind: 'system',
        actorName: JOB_NAMES.expireSubscriptions,
      });
      expect(e.at.toISOString()).toBe(t1.toISOString());
    }

    // The same period again: nothing more.
    const second = await jobs.runJobNow(JOB_NAMES.expireSubscriptions);
    expect(tenantOutputs(second).every((o) => o.expired === 0 && o.outcome === 'succeeded')).toBe(true);
    expect(await expireEvents(before.map((s) => s.id))).toHaveLength(due.length);

    // Past every date: the rest, each in its own tenant, then nothing.
    const t2 = new Date(before[before.length - 1]!.next.getTime() + DAY);
    clock.set(t2.toISOString());
    const third = tenantOutputs(await jobs.runJobNow(JOB_NAMES.expireSubscriptions));
    expect(third.find((o) => o.tenantId === demo)?.expired).toBe(count(demo, notDue));
    expect(third.find((o) => o.tenantId === rossi)?.expired).toBe(count(rossi, notDue));
    expect(await noRenewal()).toEqual([]);
    const fourth = tenantOutputs(await jobs.runJobNow(JOB_NAMES.expireSubscriptions));
    expect(fourth.every((o) => o.expired === 0)).toBe(true);
    expect(await expireEvents(before.map((s) => s.id))).toHaveLength(before.length);
  });
});
