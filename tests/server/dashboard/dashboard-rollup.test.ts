/**
 * The dashboard's running totals (dashboard_months, dashboard_live_plans, user_tenants.first_live_at,
 * payments.net_cents: kept by the triggers of migration 0011) always equal a recomputation from
 * the raw rows: after the demo seed, and after any sequence of inserts, status changes, plan and
 * price changes, payments paid, re-amounted and removed, at times around Rome's month boundaries
 * and DST changes (fast-check, each sequence in a transaction rolled back). The history is
 * append-only.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountWithVat, divideHalfUp } from '../../../contract/money';
import type { Database, Transaction } from '../../../server/db/client';
import { plans, tenants, users, userTenants } from '../../../server/db/schema';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let tenantId: number;
const planIds: number[] = [];
const userIds: number[] = [];

type Db = Database | Transaction;

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] } | T[];
  return Array.isArray(result) ? result : result.rows;
}

/** What the totals should be, recomputed from the raw rows (the queries the summary ran before). */
async function recomputed(db: Db, tenant: number) {
  const months = await rows<{ month: string; revenue: string; entered: string; exited: string }>(
    db,
    sql`select month, sum(revenue)::text revenue, sum(entered)::text entered, sum(exited)::text exited from (
          select to_char(timezone('Europe/Rome', p.paid_at), 'YYYY-MM') as month,
                 (p.amount_due_cents * 20000 + 10000 + s.vat_hundredths) / (2 * (10000 + s.vat_hundredths)) as revenue,
                 0 as entered, 0 as exited
          from payments p join subscriptions s on s.id = p.subscription_id and s.tenant_id = p.tenant_id
          where p.tenant_id = ${tenant} and p.paid_at is not null
          union all
          select to_char(timezone('Europe/Rome', at), 'YYYY-MM'),
                 0, (to_status in (1, 3))::int, (to_status not in (1, 3))::int
          from subscription_events
          where tenant_id = ${tenant} and (to_status in (1, 3)) <> (coalesce(from_status, 0) in (1, 3))
        ) x group by month order by month`,
  );
  const live = await rows<{ plan_id: number; subscriptions: string; cost: string }>(
    db,
    sql`select plan_id, count(*)::text subscriptions, sum(cost_before_vat_cents)::text cost
        from subscriptions where tenant_id = ${tenant} and status in (1, 3)
        group by plan_id order by plan_id`,
  );
  const firstLive = await rows<{ user_id: number; first_at: string | null }>(
    db,
    sql`select ut.user_id, (select min(e.at) from subscription_events e
                            join subscriptions s on s.id = e.subscription_id and s.tenant_id = e.tenant_id
                            where s.tenant_id = ut.tenant_id and s.user_id = ut.user_id
                              and e.to_status in (1, 3) and coalesce(e.from_status, 0) not in (1, 3))::text first_at
        from user_tenants ut where ut.tenant_id = ${tenant} order by ut.user_id`,
  );
  return { months, live, firstLive };
}

async function kept(db: Db, tenant: number) {
  const months = await rows<{ month: string; revenue: string; entered: string; exited: string }>(
    db,
    sql`select month, revenue_cents::text revenue, entered::text entered, exited::text exited
        from dashboard_months
        where tenant_id = ${tenant} and (revenue_cents <> 0 or entered <> 0 or exited <> 0)
        order by month`,
  );
  const live = await rows<{ plan_id: number; subscriptions: string; cost: string }>(
    db,
    sql`select plan_id, subscriptions::text subscriptions, cost_cents::text cost
        from dashboard_live_plans where tenant_id = ${tenant} and subscriptions <> 0 order by plan_id`,
  );
  const firstLive = await rows<{ user_id: number; first_at: string | null }>(
    db,
    sql`select user_id, first_live_at::text first_at from user_tenants where tenant_id = ${tenant} order by user_id`,
  );
  return { months, live, firstLive };
}

beforeAll(async () => {
  ctx = await createTestContext();
  const [tenant] = await ctx.db.insert(tenants).values({ name: 'Totali Test' }).returning({ id: tenants.id });
  tenantId = tenant!.id;
  for (const months of [1, 3, 12]) {
    const [p] = await ctx.db
      .insert(plans)
      .values({
        tenantId,
        name: `Piano ${months}`,
        recurringCostBeforeVat: '10.00',
        vatPercentage: '22',
        recurrenceType: months,
      })
      .returning({ id: plans.id });
    planIds.push(p!.id);
  }
  for (let i = 1; i <= 4; i++) {
    const [u] = await ctx.db
      .insert(users)
      .values({ email: `totali.u${i}@example.it`, roleId: 3 })
      .returning({ id: users.id });
    await ctx.db.insert(userTenants).values({ userId: u!.id, tenantId, name: `Cliente ${i}` });
    userIds.push(u!.id);
  }
});
afterAll(async () => ctx?.close());

describe('the dashboard totals', () => {
  it('equal the recomputation for every seeded tenant (the demo year of billing history)', async () => {
    const seeded = await rows<{ id: number }>(ctx.db, sql`select id from tenants order by id`);
    let withHistory = 0;
    for (const { id } of seeded) {
      const expected = await recomputed(ctx.db, id);
      expect(await kept(ctx.db, id)).toEqual(expected);
      if (expected.months.length > 0) withHistory++;
    }
    expect(withHistory).toBeGreaterThan(0);
  });

  // Instants around Rome's month ends (23:30 local on the last day is the next UTC day in summer,
  // not in winter) and its DST changes.
  const instants = fc.constantFrom(
    '2026-01-31T22:30:00Z',
    '2026-01-31T23:30:00Z',
    '2026-03-29T00:30:00Z',
    '2026-03-31T21:59:59Z',
    '2026-03-31T22:00:00Z',
    '2026-06-30T21:30:00Z',
    '2026-10-25T00:30:00Z',
    '2026-10-31T22:59:59Z',
    '2026-10-31T23:00:00Z',
    '2026-12-31T23:00:00Z',
    '2027-02-28T22:59:59Z',
  );
  const status = fc.integer({ min: 1, max: 5 });
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('subscription' as const),
      plan: fc.nat(2),
      user: fc.nat(3),
      status,
      cost: fc.integer({ min: 0, max: 100_000 }),
      vat: fc.constantFrom(0, 400, 1000, 2200),
    }),
    fc.record({ kind: fc.constant('status' as const), sub: fc.nat(), to: status, at: instants }),
    fc.record({
      kind: fc.constant('event' as const),
      sub: fc.nat(),
      from: fc.option(status),
      to: status,
      at: instants,
    }),
    fc.record({ kind: fc.constant('plan' as const), sub: fc.nat(), plan: fc.nat(2) }),
    fc.record({
      kind: fc.constant('cost' as const),
      sub: fc.nat(),
      cost: fc.integer({ min: 0, max: 100_000 }),
    }),
    fc.record({ kind: fc.constant('payment' as const), sub: fc.nat(), paidAt: fc.option(instants) }),
    fc.record({ kind: fc.constant('pay' as const), payment: fc.nat(), paidAt: fc.option(instants) }),
    fc.record({
      kind: fc.constant('amount' as const),
      payment: fc.nat(),
      amount: fc.integer({ min: 0, max: 200_000 }),
    }),
    fc.record({ kind: fc.constant('remove' as const), payment: fc.nat() }),
  );

  it('equal the recomputation after any sequence of billing writes', async () => {
    class Rollback extends Error {}
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        await ctx.db
          .transaction(async (tx) => {
            const subs: { id: number; status: number; vat: number }[] = [];
            const pays: number[] = [];
            let n = 0;
            for (const o of ops) {
              if (o.kind === 'subscription') {
                const [row] = await rows<{ id: number }>(
                  tx,
                  sql`insert into subscriptions (tenant_id, user_id, plan_id, status, start_date, next_billing_date,
                                                 cost_before_vat_cents, vat_hundredths, amount_due_cents)
                      values (${tenantId}, ${userIds[o.user]}, ${planIds[o.plan]}, ${o.status}, now(), now(),
                              ${o.cost}, ${o.vat}, ${amountWithVat(o.cost, o.vat)}) returning id`,
                );
                subs.push({ id: row!.id, status: o.status, vat: o.vat });
                continue;
              }
              if (o.kind === 'pay' || o.kind === 'amount' || o.kind === 'remove') {
                if (pays.length === 0) continue;
                const id = pays[o.payment % pays.length]!;
                if (o.kind === 'pay')
                  await tx.execute(sql`update payments set paid_at = ${o.paidAt} where id = ${id}`);
                else if (o.kind === 'amount')
                  await tx.execute(sql`update payments set amount_due_cents = ${o.amount} where id = ${id}`);
                else {
                  await tx.execute(sql`delete from payments where id = ${id}`);
                  pays.splice(pays.indexOf(id), 1);
                }
                continue;
              }
              if (subs.length === 0) continue;
              const sub = subs[o.sub % subs.length]!;
              if (o.kind === 'status') {
                await tx.execute(sql`update subscriptions set status = ${o.to} where id = ${sub.id}`);
                await tx.execute(
                  sql`insert into subscription_events (tenant_id, subscription_id, event, from_status, to_status, actor_kind, at)
                      values (${tenantId}, ${sub.id}, 'test', ${sub.status}, ${o.to}, 'system', ${o.at})`,
                );
                sub.status = o.to;
              } else if (o.kind === 'event') {
                await tx.execute(
                  sql`insert into subscription_events (tenant_id, subscription_id, event, from_status, to_status, actor_kind, at)
                      values (${tenantId}, ${sub.id}, 'test', ${o.from}, ${o.to}, 'system', ${o.at})`,
                );
              } else if (o.kind === 'plan') {
                await tx.execute(
                  sql`update subscriptions set plan_id = ${planIds[o.plan]} where id = ${sub.id}`,
                );
              } else if (o.kind === 'cost') {
                await tx.execute(
                  sql`update subscriptions set cost_before_vat_cents = ${o.cost} where id = ${sub.id}`,
                );
              } else {
                const [row] = await rows<{ id: number }>(
                  tx,
                  sql`insert into payments (tenant_id, subscription_id, amount_due_cents, causale, period_start, period_end, paid_at)
                      values (${tenantId}, ${sub.id}, ${1000 + n}, ${`TOT-${++n}`}, now(), now(), ${o.paidAt}) returning id`,
                );
                pays.push(row!.id);
              }
            }
            expect(await kept(tx, tenantId)).toEqual(await recomputed(tx, tenantId));
            // net_cents is the amount before VAT, half-up, with the subscription's VAT.
            const nets = await rows<{ amount: string; net: string; vat: number }>(
              tx,
              sql`select p.amount_due_cents::text amount, p.net_cents::text net, s.vat_hundredths vat
                  from payments p join subscriptions s on s.id = p.subscription_id where p.tenant_id = ${tenantId}`,
            );
            for (const r of nets)
              expect(Number(r.net)).toBe(divideHalfUp(Number(r.amount) * 10_000, 10_000 + r.vat));
            throw new Rollback();
          })
          .catch((e: unknown) => {
            if (!(e instanceof Rollback)) throw e;
          });
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('refuse an edit or a removal of the status history', async () => {
    await expect(ctx.db.execute(sql`update subscription_events set to_status = 1`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`delete from subscription_events`)).rejects.toThrow();
  });
});
