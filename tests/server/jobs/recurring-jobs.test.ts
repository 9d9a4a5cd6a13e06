/**
 * The recurring jobs on the real engine (pg-boss on the test database, manual mode: a job runs
 * only inside engine.runJobNow / drain), against a moved clock: each does its work once per
 * period, per tenant, without crossing tenants; a throwing job is retried with back-off, then
 * failed, shown by the /hangfire calls, and runs again after a retry.
 */
import { and, asc, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  payments,
  subscriptionEvents,
  subscriptionReminders,
  subscriptions,
  tenants,
} from '../../../server/db/schema';
import type { JobEngine } from '../../../server/jobs/engine';
import type { PaymentHooks } from '../../../server/modules/billing/payment-hooks';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { INTEGRATION_JOB_NAMES } from '../../../server/modules/integrations/jobs';
import { REPORT_JOB } from '../../../server/modules/dashboard/report-job';
import { PEC_JOBS } from '../../../server/modules/invoice/invoice-pec';
import { movableClock } from '../billing/helpers';
import { SECRET_REWRAP_JOB } from '../../../server/lib/secret-rewrap';
import { client, createTestContext, type TestContext } from '../helpers/test-app';

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
});
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
    .where(
      and(
        eq(subscriptions.status, SubscriptionStatus.ActiveNoRenewal),
        // A running trial (the demo seed has some) is the trials job's: these jobs leave it alone.
        or(isNull(subscriptions.trialState), ne(subscriptions.trialState, 'running')),
      ),
    )
    .orderBy(asc(subscriptions.nextBillingDate), asc(subscriptions.id));
}

async function expireEvents(ids: number[]) {
  if (ids.length === 0) return [];
  return ctx.db
    .select()
    .from(subscriptionEvents)
    .where(and(inArray(subscriptionEvents.subscriptionId, ids), eq(subscriptionEvents.event, 'expire')));
}

type TenantOutput = {
  outcome: string;
  tenantId?: number;
  expired?: number;
  sent?: number;
  [k: string]: unknown;
};
const tenantOutputs = (processed: Awaited<ReturnType<JobEngine['runJobNow']>>): TenantOutput[] =>
  processed
    .filter((p) => p.data.tenantId !== undefined)
    .map((p) => ({ outcome: p.outcome, ...(p.output as Record<string, unknown>) }) as TenantOutput)
    .sort((a, b) => Number(a.tenantId) - Number(b.tenantId));

describe('the engine at start', () => {
  it('has created every queue and a Europe/Rome schedule per recurring job', async () => {
    const superadmin = await ctx.as('superadmin');
    const recurring =
      await superadmin.get<{ key: string; cron: string; timeZone: string }[]>('/api/hangfire/recurring');
    expect(recurring.status).toBe(200);
    // The billing jobs, the integrations' (issue 15) and the invoices' automatic PEC sending
    // (issue 12; its send queue has no schedule).
    expect(recurring.body.data?.map((r) => r.key).sort()).toEqual(
      [
        ...Object.values(JOB_NAMES),
        ...Object.values(INTEGRATION_JOB_NAMES),
        PEC_JOBS.auto,
        'outbox-sweep',
        SECRET_REWRAP_JOB,
      ].sort(),
    );
    expect(recurring.body.data?.every((r) => r.timeZone === 'Europe/Rome')).toBe(true);
    const stats = await superadmin.get<Record<string, number>>('/api/hangfire/stats');
    // Plus the report-send queue (issue 14), which runs only when enqueued.
    expect(stats.body.data).toMatchObject({ recurring: 14, queues: 16, failed: 0, processing: 0 });
  });
});

describe('renewal-reminders: 7 days before the next billing date, once per period', () => {
  it('e-mails each due customer once with a fresh link from its own tenant; a second run sends nothing', async () => {
    const before = await noRenewal();
    const rossiSub = before.find((s) => s.tenantId === rossi)!;
    const t = new Date(rossiSub.next.getTime() - 3 * DAY);
    clock.set(t.toISOString());
    const due = before.filter(
      (s) => s.next.getTime() > t.getTime() && s.next.getTime() <= t.getTime() + 7 * DAY,
    );
    expect(due.some((s) => s.tenantId === rossi)).toBe(true);
    const mailsBefore = (await ctx.outbox()).length;

    const first = tenantOutputs(await jobs.runJobNow(JOB_NAMES.renewalReminders));
    expect(first.find((o) => o.tenantId === rossi)).toMatchObject({
      outcome: 'succeeded',
      sent: due.filter((s) => s.tenantId === rossi).length,
    });
    expect(first.find((o) => o.tenantId === demo)).toMatchObject({
      outcome: 'succeeded',
      sent: due.filter((s) => s.tenantId === demo).length,
    });
    expect(calls.links.map((l) => [l.tenantId, l.subscriptionId]).sort()).toEqual(
      due.map((s) => [s.tenantId, s.id]).sort(),
    );
    for (const l of calls.links) {
      expect(l.periodStart).toBe(due.find((s) => s.id === l.subscriptionId)!.next.toISOString());
    }
    const mails = (await ctx.outbox()).slice(mailsBefore);
    expect(mails).toHaveLength(due.length);
    const rossiMail = mails.find((m) => m.text.includes(`t-${rossi}-${rossiSub.id}`));
    // Issue 29: the seeded subscriptions without renewal were paid by bank transfer, so they renew
    // by bank transfer: the next period's instructions (its tenant's IBAN), the link beside them.
    expect(rossiMail?.subject).toMatch(
      /^Studio Rossi: rinnovo di «.+» del \d\d\/\d\d\/\d{4}, istruzioni per il bonifico$/,
    );
    const [rossiTenant] = await ctx.db.select().from(tenants).where(eq(tenants.id, rossi));
    expect(rossiMail?.text).toContain(`IBAN: ${rossiTenant!.iban}`);
    expect(rossiMail?.text).toContain('Preferisci pagare con carta o PayPal?');
    // Issue 28: the reminder carries a sign-in link to the customer's area, which works once.
    const signIn = /\/login\/link\?token=([A-Za-z0-9_-]{43})/.exec(rossiMail?.text ?? '')?.[1] ?? '';
    expect(signIn).not.toBe('');
    const useLink = () => client(ctx.app, {}).post('/api/user/login-link', { token: signIn });
    expect((await useLink()).status).toBe(200);
    expect((await useLink()).status).toBe(400);
    const reminders = await ctx.db
      .select()
      .from(subscriptionReminders)
      .where(eq(subscriptionReminders.kind, 'renewal'));
    expect(reminders.map((r) => r.subscriptionId).sort()).toEqual(due.map((s) => s.id).sort());

    // Again the same day, and a day later: nothing new for those periods.
    await jobs.runJobNow(JOB_NAMES.renewalReminders);
    clock.set(new Date(t.getTime() + DAY).toISOString());
    const later = tenantOutputs(await jobs.runJobNow(JOB_NAMES.renewalReminders));
    const newlyDue = before.filter(
      (s) => s.next.getTime() > t.getTime() + 7 * DAY && s.next.getTime() <= t.getTime() + 8 * DAY,
    );
    expect(later.reduce((n, o) => n + Number(o.sent), 0)).toBe(newlyDue.length);
    expect((await ctx.outbox()).length - mailsBefore).toBe(due.length + newlyDue.length);
    expect(calls.links).toHaveLength(due.length + newlyDue.length);
  });
});

describe('payment-tokens-expire', () => {
  it('runs once per tenant, inside a unit of work of that tenant acted by the job', async () => {
    calls.expireTokens.length = 0;
    const processed = await jobs.runJobNow(JOB_NAMES.expireTokens);
    const tenantIds = (await ctx.db.select({ id: tenants.id }).from(tenants))
      .map((t) => t.id)
      .sort((a, b) => a - b);
    expect(calls.expireTokens.map((c) => c.tenantId).sort((a, b) => a - b)).toEqual(tenantIds);
    expect(
      calls.expireTokens.every(
        (c) => JSON.stringify(c.actor) === JSON.stringify({ kind: 'system', job: JOB_NAMES.expireTokens }),
      ),
    ).toBe(true);
    expect(processed.every((p) => p.outcome === 'succeeded')).toBe(true);
  });
});

describe('subscriptions-expire: ActiveNoRenewal → NotActive once the next billing date has passed', () => {
  it('expires the due ones of each tenant once, in the history, and nothing on a second run', async () => {
    const all = await noRenewal();
    // Issue 29: one whose bank-transfer payment of the period from its next billing date is still
    // in collection (the renewal reminder above made it) stays, in its grace: the dunning job ends
    // it at the ladder's final day, not this job.
    const awaited = await ctx.db
      .select({ subscriptionId: payments.subscriptionId, periodStart: payments.periodStart })
      .from(payments)
      .where(
        and(
          inArray(
            payments.subscriptionId,
            all.map((s) => s.id),
          ),
          isNull(payments.paidAt),
          eq(payments.method, 'bankTransfer'),
          inArray(payments.collectionStatus, ['due', 'overdue']),
        ),
      );
    const isHeld = (s: (typeof all)[number]) =>
      awaited.some((p) => p.subscriptionId === s.id && p.periodStart.getTime() === s.next.getTime());
    const held = all.filter(isHeld);
    const before = all.filter((s) => !isHeld(s));
    const rossiSub = before.find((s) => s.tenantId === rossi);
    expect(rossiSub).toBeDefined();
    expect(before.some((s) => s.tenantId === demo)).toBe(true);
    // Just past Studio Rossi's one: due are those whose date is not later.
    const t1 = new Date(rossiSub!.next.getTime() + 60_000);
    clock.set(t1.toISOString());
    const due = before.filter((s) => s.next.getTime() <= t1.getTime());
    const notDue = before.filter((s) => s.next.getTime() > t1.getTime());
    // Those reminded above are past their date by now, and held.
    expect(held.some((s) => s.next.getTime() <= t1.getTime())).toBe(true);
    expect(notDue.length).toBeGreaterThan(0);
    const count = (tenantId: number, list: typeof before) =>
      list.filter((s) => s.tenantId === tenantId).length;

    const first = await jobs.runJobNow(JOB_NAMES.expireSubscriptions);
    const tenantIds = (await ctx.db.select({ id: tenants.id }).from(tenants))
      .map((t) => t.id)
      .sort((a, b) => a - b);
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
      .where(
        inArray(
          subscriptions.id,
          all.map((s) => s.id),
        ),
      );
    const statusOf = new Map(after.map((s) => [s.id, s.status]));
    for (const s of due) expect(statusOf.get(s.id)).toBe(SubscriptionStatus.NotActive);
    for (const s of [...notDue, ...held]) expect(statusOf.get(s.id)).toBe(SubscriptionStatus.ActiveNoRenewal);
    const events = await expireEvents(all.map((s) => s.id));
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
    expect(await expireEvents(all.map((s) => s.id))).toHaveLength(due.length);

    // Past every date: the rest, each in its own tenant, then nothing.
    const t2 = new Date(before[before.length - 1]!.next.getTime() + DAY);
    clock.set(t2.toISOString());
    const third = tenantOutputs(await jobs.runJobNow(JOB_NAMES.expireSubscriptions));
    expect(third.find((o) => o.tenantId === demo)?.expired).toBe(count(demo, notDue));
    expect(third.find((o) => o.tenantId === rossi)?.expired).toBe(count(rossi, notDue));
    expect((await noRenewal()).map((s) => s.id).sort()).toEqual(held.map((s) => s.id).sort());
    const fourth = tenantOutputs(await jobs.runJobNow(JOB_NAMES.expireSubscriptions));
    expect(fourth.every((o) => o.expired === 0)).toBe(true);
    expect(await expireEvents(all.map((s) => s.id))).toHaveLength(before.length);
  });
});

describe('a failing job: retries with back-off, failed, shown on /hangfire, retried by a SuperAdmin', () => {
  it('runs the PayPal sync only for tenants with PayPal, fails it after its retries, and runs it again on retry', async () => {
    calls.syncPaypal.length = 0;
    paypalFails = true;
    const superadmin = await ctx.as('superadmin');
    const statsBefore = (await superadmin.get<Record<string, number>>('/api/hangfire/stats')).body.data!;

    const first = await jobs.runJobNow(JOB_NAMES.paypalSync);
    // Demo Srl has a PayPal configuration; Studio Rossi none.
    expect(first[0]).toMatchObject({ outcome: 'succeeded', output: { tenants: 1 } });
    expect(first[1]).toMatchObject({
      outcome: 'failed',
      data: { tenantId: demo },
      error: 'PayPal non raggiungibile (test)',
    });
    expect(calls.syncPaypal).toEqual([demo]);

    type Recent = {
      id: string;
      key: string;
      args: { tenantId?: number };
      state: string;
      error: string | null;
      retryCount: number;
      startAfter: string;
      enqueuedAt: string;
    };
    const recent = async () => (await superadmin.get<Recent[]>('/api/hangfire/recent')).body.data!;
    let job = (await recent()).find((r) => r.key === JOB_NAMES.paypalSync && r.args.tenantId === demo)!;
    expect(job).toMatchObject({ state: 'retrying', error: 'PayPal non raggiungibile (test)', retryCount: 0 });
    // Its Italian name beside the internal one (issue 31), the job definition's own label.
    expect((job as Recent & { label?: string }).label).toBe('Sincronizzazione PayPal');
    // Back-off: the next attempt waits (at least a minute), so a drain now runs nothing.
    expect(new Date(job.startAfter).getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await jobs.drain()).toEqual([]);
    expect((await superadmin.get<Record<string, number>>('/api/hangfire/stats')).body.data).toMatchObject({
      retrying: 1,
      scheduled: statsBefore.scheduled! + 1,
    });

    // Letting the back-off pass: three more attempts, then failed.
    const retried = await jobs.drain({ ignoreStartAfter: true });
    expect(retried.map((r) => r.outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(calls.syncPaypal).toEqual([demo, demo, demo, demo]);
    job = (await recent()).find((r) => r.id === job.id)!;
    expect(job).toMatchObject({ state: 'failed', error: 'PayPal non raggiungibile (test)', retryCount: 3 });
    const list = await recent();
    expect(list.map((r) => r.enqueuedAt)).toEqual([...list.map((r) => r.enqueuedAt)].sort().reverse());
    expect((await superadmin.get<Record<string, number>>('/api/hangfire/stats')).body.data).toMatchObject({
      failed: statsBefore.failed! + 1,
      retrying: 0,
    });
    expect(await jobs.drain({ ignoreStartAfter: true })).toEqual([]);

    // Refused to others; nothing changes.
    const admin = await ctx.as('admin', 'Demo Srl');
    const cliente = await ctx.as('cliente', 'Demo Srl');
    for (const who of [admin, cliente]) {
      expect((await who.get('/api/hangfire/stats')).status).toBe(403);
      expect((await who.get('/api/hangfire/recent')).status).toBe(403);
      expect((await who.get('/api/hangfire/recurring')).status).toBe(403);
      expect((await who.post(`/api/hangfire/retry/${job.id}`)).status).toBe(403);
    }
    expect((await ctx.api.get('/api/hangfire/stats')).status).toBe(401);
    expect((await recent()).find((r) => r.id === job.id)?.state).toBe('failed');

    // Only a failed job can be retried; unknown ids are 404.
    const succeeded = (await recent()).find((r) => r.state === 'succeeded')!;
    expect((await superadmin.post(`/api/hangfire/retry/${succeeded.id}`)).status).toBe(409);
    expect((await superadmin.post('/api/hangfire/retry/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    expect((await superadmin.post('/api/hangfire/retry/non-un-id')).status).toBe(404);

    paypalFails = false;
    const retry = await superadmin.post(`/api/hangfire/retry/${job.id}`);
    expect(retry.status).toBe(200);
    expect(retry.body.message).toBe('Job rimesso in coda.');
    expect((await superadmin.post(`/api/hangfire/retry/${job.id}`)).status).toBe(409);
    const again = await jobs.drain();
    expect(again).toEqual([
      expect.objectContaining({ id: job.id, outcome: 'succeeded', output: { tenantId: demo, updated: 0 } }),
    ]);
    expect(calls.syncPaypal).toHaveLength(5);
    expect((await recent()).find((r) => r.id === job.id)).toMatchObject({ state: 'succeeded', error: null });
    expect((await superadmin.get<Record<string, number>>('/api/hangfire/stats')).body.data).toMatchObject({
      failed: statsBefore.failed,
    });
  });
});

describe('trigger now', () => {
  it('a SuperAdmin enqueues a recurring job now; unknown keys are 404, others 403', async () => {
    const superadmin = await ctx.as('superadmin');
    const res = await superadmin.post<{ id: string }>(
      `/api/hangfire/trigger/${JOB_NAMES.expireSubscriptions}`,
    );
    expect(res.status).toBe(200);
    const recent = (
      await superadmin.get<{ id: string; state: string; args: object }[]>('/api/hangfire/recent')
    ).body.data!;
    expect(recent[0]).toMatchObject({ id: res.body.data!.id, state: 'enqueued', args: {} });
    const processed = await jobs.drain({ names: [JOB_NAMES.expireSubscriptions] });
    expect(processed[0]).toMatchObject({ id: res.body.data!.id, outcome: 'succeeded' });
    expect((await superadmin.post('/api/hangfire/trigger/non-esiste')).status).toBe(404);
    expect(
      (
        await (
          await ctx.as('admin', 'Demo Srl')
        ).post(`/api/hangfire/trigger/${JOB_NAMES.expireSubscriptions}`)
      ).status,
    ).toBe(403);
  });
});

describe('without the payment hooks', () => {
  it('registers only the jobs it can run, and removes schedules left by an earlier start', async () => {
    const other = await ctx.buildAnotherApp({}, { now: clock.now, paymentHooks: {} });
    const token = await ctx.login('superadmin@demo.rinnova.it', 'demo1234');
    const res = await client(other, { authorization: `Bearer ${token}` }).get<{ key: string }[]>(
      '/api/hangfire/recurring',
    );
    const superadmin = await ctx.as('superadmin');
    // The integrations' jobs (issue 15) and the invoices' PEC jobs need no payment hook.
    const expected = [
      JOB_NAMES.expireSubscriptions,
      JOB_NAMES.dunning,
      JOB_NAMES.planChanges,
      JOB_NAMES.pauses,
      JOB_NAMES.trials,
      JOB_NAMES.paypalCouponExpiry,
      PEC_JOBS.auto,
      ...Object.values(INTEGRATION_JOB_NAMES),
      'outbox-sweep',
      SECRET_REWRAP_JOB,
    ];
    expect(res.body.data?.map((r) => r.key).sort()).toEqual([...expected].sort());
    expect(other.jobs?.definitions.map((d) => d.name)).toEqual([
      JOB_NAMES.expireSubscriptions,
      JOB_NAMES.dunning,
      JOB_NAMES.planChanges,
      JOB_NAMES.pauses,
      JOB_NAMES.trials,
      JOB_NAMES.paypalCouponExpiry,
      PEC_JOBS.send,
      PEC_JOBS.auto,
      ...Object.values(INTEGRATION_JOB_NAMES),
      REPORT_JOB,
      SECRET_REWRAP_JOB,
      'outbox-sweep',
    ]);
    const stats = await superadmin.get<Record<string, number>>('/api/hangfire/stats');
    expect(stats.body.data?.recurring).toBe(expected.length);
  });

  it('an app built without stand-ins registers all four, wired to the payment services', async () => {
    const real = await ctx.buildAnotherApp({}, { now: clock.now });
    expect(
      real.jobs?.definitions
        .filter((d) => d.cron)
        .map((d) => d.name)
        .sort(),
    ).toEqual(
      [
        JOB_NAMES.expireSubscriptions,
        JOB_NAMES.expireTokens,
        JOB_NAMES.paypalSync,
        JOB_NAMES.renewalReminders,
        JOB_NAMES.dunning,
        JOB_NAMES.planChanges,
        JOB_NAMES.pauses,
        JOB_NAMES.trials,
        JOB_NAMES.paypalCouponExpiry,
        ...Object.values(INTEGRATION_JOB_NAMES),
        PEC_JOBS.auto,
        'outbox-sweep',
        SECRET_REWRAP_JOB,
      ].sort(),
    );
  });
});
