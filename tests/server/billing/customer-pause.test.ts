/**
 * The customer's own pause (issue 30): `GET api/user/me/subscriptions/{id}/pause` (allowed),
 * `POST …/pause {periods}` and `POST …/resume`, behind the tenant's `customerPause` (off by
 * default: 403 in Italian, nothing written). Allowed: the Admin's pause on the customer's own
 * subscription (same checks and effects, features suspended, the customer as the history's actor),
 * 'Riprendi ora' brings the next billing date back. Another customer's subscription 404, staff 403.
 * Real server, moved clock.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseMessages } from '../../../contract/schemas/pause';
import type { Plan } from '../../../contract/schemas/plan';
import type { Subscription, SubscriptionHistoryEntry } from '../../../contract/schemas/subscription';
import { subscriptions } from '../../../server/db/schema';
import { create } from '../helpers/entity-checks';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { payByBankTransfer, withoutDemoInvoices } from '../invoices/helpers';
import { giveIban, movableClock, userId } from './helpers';

const clock = movableClock('2026-03-01T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let cliente: ApiClient;
let demoId: number;
let me: number;
let other: number;
let base: Plan;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  cliente = await ctx.as('cliente', 'Demo Srl');
  demoId = await ctx.tenantId('Demo Srl');
  me = await userId(ctx, DEMO.cliente);
  other = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  await giveIban(ctx, 'Demo Srl');
  base = await create<Plan>(admin, 'plan', {
    name: 'Base pausa cliente',
    recurringCostBeforeVAT: 29,
    vatPercentage: 22,
    recurrenceType: 1,
    isActive: true,
  });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

async function allow(value: boolean) {
  const tenant = (await admin.get<Record<string, unknown>>(`/api/tenant/GetById/${demoId}`)).body.data!;
  const res = await admin.put('/api/tenant/Update', { ...tenant, customerPause: value });
  expect(res.status, res.raw).toBe(200);
  const after = (await admin.get<{ customerPause: boolean }>(`/api/tenant/GetById/${demoId}`)).body.data!;
  expect(after.customerPause).toBe(value);
}

async function paidByTransfer(customer: number, start: string) {
  clock.set(start);
  const { sub, confirm } = await payByBankTransfer(admin, { userId: customer, planId: base.id }, start);
  expect(confirm.status, confirm.raw).toBe(200);
  return (await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`)).body.data!;
}
const row = async (id: number) =>
  (await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const path = (id: number, what: 'pause' | 'resume') => `/api/user/me/subscriptions/${id}/${what}`;

describe('the customer’s own pause', () => {
  it('is off by default: allowed false, and pausing is a 403 in Italian that writes nothing', async () => {
    const sub = await paidByTransfer(me, '2026-03-01T09:00:00.000Z');
    const options = await cliente.get<{ allowed: boolean }>(path(sub.id, 'pause'));
    expect(options.status, options.raw).toBe(200);
    expect(options.body.data).toEqual({ allowed: false });
    const before = await row(sub.id);
    const res = await cliente.post(path(sub.id, 'pause'), { periods: 2 });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.message).toBe(pauseMessages.customerNotAllowed);
    expect((await cliente.post(path(sub.id, 'resume'))).status).toBe(403);
    expect(await row(sub.id)).toEqual(before);
  });

  it('allowed: pauses for N periods with features suspended, the customer as actor; Riprendi ora brings it back', async () => {
    await allow(true);
    try {
      const sub = await paidByTransfer(me, '2026-04-01T09:00:00.000Z');
      clock.set('2026-04-10T10:00:00.000Z');
      expect((await cliente.get<{ allowed: boolean }>(path(sub.id, 'pause'))).body.data).toEqual({
        allowed: true,
      });
      const bad = await cliente.post(path(sub.id, 'pause'), { periods: 13 });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain(pauseMessages.periods);

      const res = await cliente.post<{ from: string; until: string; entitlements: string }>(
        path(sub.id, 'pause'),
        { periods: 2 },
      );
      expect(res.status, res.raw).toBe(200);
      expect(res.body.data).toMatchObject({
        from: '2026-05-01T09:00:00.000Z',
        until: '2026-07-01T09:00:00.000Z',
        periods: 2,
        entitlements: 'suspend',
      });
      expect(res.body.message).toBe(pauseMessages.paused('01/07/2026'));
      expect((await row(sub.id)).nextBillingDate).toEqual(new Date('2026-07-01T09:00:00.000Z'));
      const seen = (
        await admin.get<Subscription & { history: SubscriptionHistoryEntry[] }>(
          `/api/subscription/GetById/${sub.id}`,
        )
      ).body.data!;
      const entry = seen.history.find((h) => (h.event as string) === 'pauseCollection');
      expect(entry?.actor).toMatchObject({ kind: 'user', id: String(me) });
      // Paused already: the Admin's own 409.
      expect((await cliente.post(path(sub.id, 'pause'), { periods: 1 })).status).toBe(409);

      const resumed = await cliente.post<{ nextBillingDate: string }>(path(sub.id, 'resume'));
      expect(resumed.status, resumed.raw).toBe(200);
      expect(resumed.body.data).toEqual({ nextBillingDate: '2026-05-01T09:00:00.000Z' });
      expect(await row(sub.id)).toMatchObject({
        nextBillingDate: new Date('2026-05-01T09:00:00.000Z'),
        pausedUntil: null,
      });
    } finally {
      await allow(false);
    }
  });

  it('another customer’s subscription is a 404 and nothing is written; staff have no door here (403)', async () => {
    await allow(true);
    try {
      const theirs = await paidByTransfer(other, '2026-06-01T09:00:00.000Z');
      const before = await row(theirs.id);
      expect((await cliente.get(path(theirs.id, 'pause'))).status).toBe(404);
      expect((await cliente.post(path(theirs.id, 'pause'), { periods: 1 })).status).toBe(404);
      expect((await cliente.post(path(theirs.id, 'resume'))).status).toBe(404);
      expect((await admin.post(path(theirs.id, 'pause'), { periods: 1 })).status).toBe(403);
      expect(await row(theirs.id)).toEqual(before);
    } finally {
      await allow(false);
    }
  });
});
