/**
 * Gap-free numbering under parallel payments. With DATABASE_URL (the CI's second server run) the
 * confirmations run in parallel transactions on PostgreSQL and meet at the locked counter row; on
 * PGlite (one session) the same requests are serialized.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../contract/schemas/subscription';
import { invoiceCounters, invoices } from '../../../server/db/schema';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import {
  approveWholeAmount,
  createSubscription,
  giveIban,
  movableClock,
  planId,
  userId,
} from '../billing/helpers';
import { everyStoredInvoiceValidates, withoutDemoInvoices } from './helpers';

const clock = movableClock('2026-05-20T09:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  await withoutDemoInvoices(ctx);
  admin = await ctx.as('admin', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
});
afterAll(async () => {
  expect(await everyStoredInvoiceValidates(ctx)).toBe(11);
  await ctx.close();
});

/** Subscriptions waiting only for their confirmation: bank transfer chosen, the whole amount approved. */
async function readyToConfirm(count: number): Promise<Subscription[]> {
  const customer = await userId(ctx, 'amministrazione@bianchi-consulting.example.com');
  const plans = [await planId(ctx, 'Demo Srl', 'Basic'), await planId(ctx, 'Demo Srl', 'Pro')];
  const subs: Subscription[] = [];
  for (let i = 0; i < count; i++) {
    const sub = await createSubscription(admin, { userId: customer, planId: plans[i % 2] });
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
    const t = await approveWholeAmount(admin, sub.payments[0]!, '2026-05-19T10:00:00Z');
    expect(t.status).toBe(200);
    subs.push(sub);
  }
  return subs;
}

async function numbersOfTenant(): Promise<number[]> {
  const tenantId = await ctx.tenantId('Demo Srl');
  const rows = await ctx.db
    .select({ number: invoices.number, year: invoices.year })
    .from(invoices)
    .where(eq(invoices.tenantId, tenantId));
  expect(rows.every((r) => r.year === 2026)).toBe(true);
  return rows.map((r) => r.number).sort((a, b) => a - b);
}

describe('invoice numbers under parallel payments', () => {
  let first: Subscription[];
  let second: Subscription[];
  // Eleven subscriptions brought to their confirmation (33 calls): set-up, not the behaviour tested.
  beforeAll(async () => {
    first = await readyToConfirm(6);
    second = await readyToConfirm(5);
  });

  // 22 confirmations at once: seconds on a loaded 2-core machine, so more room than the default 5 s.
  it(
    'are 1…n with no gap and no duplicate, one invoice per payment, across two parallel rounds',
    { timeout: 30_000 },
    async () => {
      const round1 = await Promise.all(
        first.map((s) => admin.put(`/api/subscription/setActiveNoRenewal/${s.id}`)),
      );
      expect(round1.map((r) => r.status)).toEqual(first.map(() => 200));
      expect(await numbersOfTenant()).toEqual([1, 2, 3, 4, 5, 6]);

      // A second round, each confirmation sent twice at once: one wins per payment, the other is a 409.
      const round2 = await Promise.all(
        second.flatMap((s) => [
          admin.put(`/api/subscription/setActiveNoRenewal/${s.id}`),
          admin.put(`/api/subscription/setActiveNoRenewal/${s.id}`),
        ]),
      );
      const statuses = round2.map((r) => r.status).sort();
      expect(statuses).toEqual([...second.map(() => 200), ...second.map(() => 409)].sort());
      expect(await numbersOfTenant()).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));

      const tenantId = await ctx.tenantId('Demo Srl');
      const [counter] = await ctx.db
        .select({ n: invoiceCounters.lastNumber })
        .from(invoiceCounters)
        .where(and(eq(invoiceCounters.tenantId, tenantId), eq(invoiceCounters.year, 2026)));
      expect(counter?.n).toBe(11);
      const paymentIds = (await ctx.db.select({ p: invoices.paymentId }).from(invoices)).map((r) => r.p);
      expect(new Set(paymentIds).size).toBe(11);
      expect(new Set(paymentIds)).toEqual(new Set([...first, ...second].map((s) => s.payments[0]!.id)));
    },
  );
});
