/**
 * GET api/dashboard/summary on a known history: a tenant built row by row (plans, customers,
 * subscriptions, their status events and payments over 14 months), with the clock in March 2028
 * (a leap year), and every number of the summary asserted, month boundaries in Europe/Rome
 * included. Also: an empty tenant, roles and tenants, and an activation showing at once.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountWithVat } from '../../../contract/money';
import type { DashboardSummary } from '../../../contract/schemas/dashboard';
import {
  payments,
  plans,
  subscriptionEvents,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../../server/db/schema';
import { DEMO_IBAN, createSubscription, giveIban, movableClock, planId, userId } from '../billing/helpers';
import { createTestContext, type TestContext } from '../helpers/test-app';

const NOW = '2028-03-15T10:00:00.000Z';
const clock = movableClock(NOW);
let ctx: TestContext;
let tenantId: number;
let emptyTenantId: number;

type Status = 1 | 2 | 3 | 4 | 5;
interface Story {
  user: string;
  plan: 'Mensile' | 'Trimestrale' | 'Annuale' | 'Vecchio';
  cost: number;
  vat: number;
  status: Status;
  /** [at, from, to, event] */
  events: [string, Status | null, Status, string][];
  paid: string[];
}

const PLANS = [
  { name: 'Mensile', months: 1 },
  { name: 'Trimestrale', months: 3 },
  { name: 'Annuale', months: 12 },
  { name: 'Vecchio', months: 1 },
] as const;

const monthly = (from: string, to: string, day: number, time = 'T10:00:00.000Z'): string[] => {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  while (y < ty || (y === ty && m <= tm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}${time}`);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
};

/** The 14-month history (January 2027 – March 2028). Times are UTC; Rome is +1 (winter) / +2 (summer). */
const STORIES: Record<string, Story> = {
  // Active all along, paid on the 10th of each month.
  S1: {
    user: 'u1',
    plan: 'Mensile',
    cost: 3000,
    vat: 2200,
    status: 1,
    events: [
      ['2027-01-10T09:00:00Z', null, 2, 'create'],
      ['2027-01-10T10:00:00Z', 2, 1, 'providerActivated'],
    ],
    paid: monthly('2027-01', '2028-03', 10),
  },
  // Quarterly, cancelled on 30 June 23:30 Rome (21:30 UTC): June's churn.
  S2: {
    user: 'u2',
    plan: 'Trimestrale',
    cost: 9000,
    vat: 2200,
    status: 5,
    events: [
      ['2027-02-01T07:00:00Z', null, 2, 'create'],
      ['2027-02-01T08:00:00Z', 2, 1, 'providerActivated'],
      ['2027-06-30T21:30:00Z', 1, 5, 'cancel'],
    ],
    paid: ['2027-02-01T08:00:00Z', '2027-05-01T08:00:00Z'],
  },
  // Annual at 4 % VAT by bank transfer, confirmed on 1 May 00:30 Rome (30 April 22:30 UTC): May.
  S3: {
    user: 'u3',
    plan: 'Annuale',
    cost: 100000,
    vat: 400,
    status: 3,
    events: [
      ['2027-03-31T21:30:00Z', null, 2, 'create'],
      ['2027-03-31T22:30:00Z', 2, 4, 'setBankTransfer'],
      ['2027-04-30T22:30:00Z', 4, 3, 'confirmBankTransfer'],
    ],
    paid: ['2027-04-30T22:30:00Z'],
  },
  // A returning customer (u1), activated on 29 February 2028 at 23:45 Rome: February.
  S4: {
    user: 'u1',
    plan: 'Mensile',
    cost: 3000,
    vat: 2200,
    status: 1,
    events: [
      ['2028-02-29T22:30:00Z', null, 2, 'create'],
      ['2028-02-29T22:45:00Z', 2, 1, 'providerActivated'],
    ],
    paid: ['2028-02-29T22:45:00Z'],
  },
  // New customer u4: created 1 March 00:30 Rome, activated 01:00 Rome, cancelled on the 10th.
  S5: {
    user: 'u4',
    plan: 'Mensile',
    cost: 3000,
    vat: 2200,
    status: 5,
    events: [
      ['2028-02-29T23:30:00Z', null, 2, 'create'],
      ['2028-03-01T00:00:00Z', 2, 1, 'providerActivated'],
      ['2028-03-10T12:00:00Z', 1, 5, 'cancel'],
    ],
    paid: ['2028-03-01T00:00:00Z'],
  },
  // On a plan that ended: cancelled by the provider in May 2027 (then the plan is retired).
  S6: {
    user: 'u5',
    plan: 'Vecchio',
    cost: 2500,
    vat: 2200,
    status: 5,
    events: [
      ['2027-01-05T09:00:00Z', null, 2, 'create'],
      ['2027-01-05T09:30:00Z', 2, 1, 'providerActivated'],
      ['2027-05-20T10:00:00Z', 1, 5, 'providerCanceled'],
    ],
    paid: [
      '2027-01-05T09:30:00Z',
      '2027-02-05T09:30:00Z',
      '2027-03-05T09:30:00Z',
      '2027-04-05T09:30:00Z',
      '2027-05-05T09:30:00Z',
    ],
  },
  // Created, never paid: counts nowhere.
  S7: {
    user: 'u6',
    plan: 'Trimestrale',
    cost: 9000,
    vat: 2200,
    status: 2,
    events: [['2028-03-05T09:00:00Z', null, 2, 'create']],
    paid: [],
  },
  // Suspended in November (churn), reactivated in December (new again).
  S8: {
    user: 'u7',
    plan: 'Mensile',
    cost: 3000,
    vat: 2200,
    status: 1,
    events: [
      ['2027-08-01T09:00:00Z', null, 2, 'create'],
      ['2027-08-01T10:00:00Z', 2, 1, 'providerActivated'],
      ['2027-11-15T10:00:00Z', 1, 2, 'providerSuspended'],
      ['2027-12-01T10:00:00Z', 2, 1, 'providerActivated'],
    ],
    paid: monthly('2027-08', '2028-03', 1),
  },
  // Annual without renewal since March 2027 (before the window), still live.
  S9: {
    user: 'u8',
    plan: 'Annuale',
    cost: 120000,
    vat: 2200,
    status: 3,
    events: [
      ['2027-02-20T09:00:00Z', null, 2, 'create'],
      ['2027-02-20T10:00:00Z', 2, 4, 'setBankTransfer'],
      ['2027-03-01T10:00:00Z', 4, 3, 'confirmBankTransfer'],
    ],
    paid: ['2027-03-01T09:00:00Z'],
  },
  // Activated exactly at 1 April 2027 00:00 Rome (22:00 UTC): the window's first instant, April.
  S10: {
    user: 'u9',
    plan: 'Mensile',
    cost: 3000,
    vat: 2200,
    status: 1,
    events: [
      ['2027-03-31T21:00:00Z', null, 2, 'create'],
      ['2027-03-31T22:00:00Z', 2, 1, 'providerActivated'],
    ],
    paid: ['2027-03-31T22:00:00Z'],
  },
  // One second earlier (31 March 23:59:59 Rome): March, outside; cancelled in April. A custom
  // price (19.99 + 22 % = 24.39) whose revenue before VAT is 19.99 again.
  S11: {
    user: 'u10',
    plan: 'Mensile',
    cost: 1999,
    vat: 2200,
    status: 5,
    events: [
      ['2027-03-31T21:00:00Z', null, 2, 'create'],
      ['2027-03-31T21:59:59Z', 2, 1, 'providerActivated'],
      ['2027-04-15T10:00:00Z', 1, 5, 'cancel'],
    ],
    paid: ['2027-04-01T09:00:00Z'],
  },
  // u2 comes back in March 2028: a new subscription, not a new customer.
  S12: {
    user: 'u2',
    plan: 'Mensile',
    cost: 3000,
    vat: 2200,
    status: 1,
    events: [
      ['2028-03-12T09:00:00Z', null, 2, 'create'],
      ['2028-03-12T09:10:00Z', 2, 1, 'providerActivated'],
    ],
    paid: ['2028-03-12T09:10:00Z'],
  },
};

async function buildHistory(): Promise<void> {
  const [tenant] = await ctx.db
    .insert(tenants)
    .values({ name: 'Cruscotto Test' })
    .returning({ id: tenants.id });
  tenantId = tenant!.id;
  const [empty] = await ctx.db.insert(tenants).values({ name: 'Tenant Vuoto' }).returning({ id: tenants.id });
  emptyTenantId = empty!.id;
  const planIds = new Map<string, number>();
  for (const p of PLANS) {
    const [row] = await ctx.db
      .insert(plans)
      .values({
        tenantId,
        name: p.name,
        recurringCostBeforeVat: '30.00',
        vatPercentage: '22',
        recurrenceType: p.months,
      })
      .returning({ id: plans.id });
    planIds.set(p.name, row!.id);
  }
  const userIds = new Map<string, number>();
  for (let i = 1; i <= 10; i++) {
    const [u] = await ctx.db
      .insert(users)
      .values({ email: `cruscotto.u${i}@example.it`, roleId: 3 })
      .returning({ id: users.id });
    await ctx.db.insert(userTenants).values({ userId: u!.id, tenantId, name: `Cliente ${i}` });
    userIds.set(`u${i}`, u!.id);
  }
  let causale = 0;
  for (const story of Object.values(STORIES)) {
    const months = PLANS.find((p) => p.name === story.plan)!.months;
    const start = new Date(story.events[0]![0]);
    const due = amountWithVat(story.cost, story.vat);
    const [sub] = await ctx.db
      .insert(subscriptions)
      .values({
        tenantId,
        userId: userIds.get(story.user)!,
        planId: planIds.get(story.plan)!,
        status: story.status,
        startDate: start,
        nextBillingDate: new Date(start.getTime() + months * 30 * 86_400_000),
        costBeforeVatCents: story.cost,
        vatHundredths: story.vat,
        amountDueCents: due,
        createdAt: start,
        updatedAt: start,
      })
      .returning({ id: subscriptions.id });
    for (const [at, from, to, event] of story.events) {
      await ctx.db.insert(subscriptionEvents).values({
        tenantId,
        subscriptionId: sub!.id,
        event,
        fromStatus: from,
        toStatus: to,
        actorKind: 'system',
        actorName: 'test',
        at: new Date(at),
      });
    }
    for (const paidAt of [...story.paid, null]) {
      await ctx.db.insert(payments).values({
        tenantId,
        subscriptionId: sub!.id,
        amountDueCents: due,
        causale: `CRUSCOTTO-${++causale}`,
        periodStart: start,
        periodEnd: start,
        method: paidAt ? 'paypal' : null,
        paidAt: paidAt ? new Date(paidAt) : null,
      });
    }
  }
  // The plan whose subscriptions ended is retired (deleting it is refused: its history remains).
  await ctx.db
    .update(plans)
    .set({ isActive: false })
    .where(eq(plans.id, planIds.get('Vecchio')!));
}

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  await buildHistory();
});
afterAll(async () => ctx?.close());

async function summary(tenant: number | string = tenantId): Promise<DashboardSummary> {
  const res = await (await ctx.as('superadmin', tenant)).get<DashboardSummary>('/api/dashboard/summary');
  expect(res.status).toBe(200);
  return res.body.data!;
}

describe('the summary of a known history (clock: 15 March 2028, Rome)', () => {
  it('covers the 12 Rome months April 2027 – March 2028 with revenue, new, churn and active counts', async () => {
    const s = await summary();
    expect(s.months.map((m) => m.month)).toEqual([
      '2027-04',
      '2027-05',
      '2027-06',
      '2027-07',
      '2027-08',
      '2027-09',
      '2027-10',
      '2027-11',
      '2027-12',
      '2028-01',
      '2028-02',
      '2028-03',
    ]);
    expect(s.months.map((m) => m.label)).toEqual([
      'apr 27',
      'mag 27',
      'giu 27',
      'lug 27',
      'ago 27',
      'set 27',
      'ott 27',
      'nov 27',
      'dic 27',
      'gen 28',
      'feb 28',
      'mar 28',
    ]);
    // [revenue before VAT, new, churned, active at the month's end]
    expect(s.months.map((m) => [m.revenueCents, m.newSubscriptions, m.churned, m.active])).toEqual([
      // April: S1 + S10 (at 00:00 Rome on the 1st) + S11's 24.39 → 19.99 + S6's last; S10 in, S11 out.
      [3000 + 3000 + 1999 + 2500, 1, 1, 5],
      // May: S1 + S2's quarter + S3's year (1,040.00 at 4 % → 1,000.00) + S6; S3 in, S6 out.
      [3000 + 9000 + 100000 + 2500, 1, 1, 5],
      // June: S2 cancelled at 23:30 Rome on the 30th.
      [3000, 0, 1, 4],
      [3000, 0, 0, 4],
      // August: S8 starts.
      [6000, 1, 0, 5],
      [6000, 0, 0, 5],
      [6000, 0, 0, 5],
      // November: S8 suspended; December: reactivated.
      [6000, 0, 1, 4],
      [6000, 1, 0, 5],
      [6000, 0, 0, 5],
      // February 2028 (29 days): S4 on the 29th at 23:45 Rome.
      [9000, 1, 0, 6],
      // March: S5 in and out, S12 in; S5 paid at 01:00 Rome on the 1st.
      [12000, 2, 1, 7],
    ]);
  });

  it('has the KPIs of spec §9 on these counts', async () => {
    const s = await summary();
    expect(s).toMatchObject({
      currency: 'EUR',
      timeZone: 'Europe/Rome',
      generatedAt: NOW,
      activeSubscriptions: 7,
      // 5 × 30.00 monthly + 1,000.00 / 12 + 1,200.00 / 12 = 150 + 83.333… + 100 → 333.33
      mrrCents: 33333,
      // March's churn 1 / (7 live + 1) × 100
      churnRate: 12.5,
      // (7 − 6) / 6 × 100 = 16.666… → 16.67
      momChange: 16.67,
      // u4 (first activation ever); u2 came back, u1's second was in February
      newCustomersThisMonth: 1,
      hasPlans: true,
      hasSubscriptions: true,
    });
    // Live per plan, in the plans' order; the retired plan has none.
    expect(s.plans.map((p) => [p.name, p.value])).toEqual([
      ['Mensile', 5],
      ['Annuale', 2],
    ]);
  });

  it('keeps the history of a retired plan, which cannot be deleted while its subscriptions exist', async () => {
    const [vecchio] = await ctx.db.select({ id: plans.id }).from(plans).where(eq(plans.name, 'Vecchio'));
    const res = await (await ctx.as('superadmin', tenantId)).delete(`/api/plan/Delete/${vecchio!.id}`);
    expect(res.status).toBe(409);
    const s = await summary();
    expect(s.months[0]!.revenueCents).toBe(10499);
    expect(s.months[1]!.churned).toBe(1);
  });

  it('gives the same numbers on every call', async () => {
    expect(await summary()).toEqual(await summary());
  });

  it('moves with the clock: at the start of April 2028 (Rome) March is the previous month', async () => {
    clock.set('2028-03-31T22:00:00.000Z'); // 1 April 00:00 Rome
    try {
      const s = await summary();
      expect(s.months[0]!.month).toBe('2027-05');
      expect(s.months[11]).toMatchObject({
        month: '2028-04',
        revenueCents: 0,
        newSubscriptions: 0,
        churned: 0,
        active: 7,
      });
      expect(s.months[10]).toMatchObject({ month: '2028-03', active: 7 });
      expect(s).toMatchObject({ churnRate: 0, momChange: 0, newCustomersThisMonth: 0 });
      clock.set('2028-03-31T21:59:59.000Z'); // 31 March 23:59:59 Rome
      expect((await summary()).months[11]!.month).toBe('2028-03');
    } finally {
      clock.set(NOW);
    }
  });
});

describe('an empty tenant', () => {
  it('has twelve empty months, no rates and says it has no plans or subscriptions', async () => {
    const s = await summary(emptyTenantId);
    expect(s).toMatchObject({
      mrrCents: 0,
      activeSubscriptions: 0,
      churnRate: null,
      momChange: null,
      newCustomersThisMonth: 0,
      plans: [],
      hasPlans: false,
      hasSubscriptions: false,
    });
    expect(s.months).toHaveLength(12);
    expect(
      s.months.every(
        (m) => m.revenueCents === 0 && m.active === 0 && m.newSubscriptions === 0 && m.churned === 0,
      ),
    ).toBe(true);
  });
});

describe('who may read it', () => {
  it('Admin and SuperAdmin of the tenant; a User, another tenant, no tenant and no sign-in are refused', async () => {
    expect((await (await ctx.as('admin', 'Demo Srl')).get('/api/dashboard/summary')).status).toBe(200);
    expect((await (await ctx.as('cliente', 'Demo Srl')).get('/api/dashboard/summary')).status).toBe(403);
    expect((await (await ctx.as('admin', tenantId)).get('/api/dashboard/summary')).status).toBe(403);
    expect((await (await ctx.as('admin')).get('/api/dashboard/summary')).status).toBe(400);
    expect((await ctx.api.get('/api/dashboard/summary')).status).toBe(401);
  });

  it("never counts another tenant's rows", async () => {
    const demo = await summary('Demo Srl');
    const [own] = await ctx.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, 'Demo Srl'));
    const live = await ctx.db
      .select({ status: subscriptions.status, t: subscriptions.tenantId })
      .from(subscriptions);
    expect(demo.activeSubscriptions).toBe(
      live.filter((r) => r.t === own!.id && (r.status === 1 || r.status === 3)).length,
    );
    expect(demo.plans.reduce((n, p) => n + p.value, 0)).toBe(demo.activeSubscriptions);
    expect(demo.plans.map((p) => p.name)).not.toContain('Mensile');
  });
});

describe('an activation', () => {
  it('shows at once in the active count and this month’s new subscriptions', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const before = (await admin.get<DashboardSummary>('/api/dashboard/summary')).body.data!;
    await giveIban(ctx, 'Demo Srl', DEMO_IBAN);
    const sub = await createSubscription(admin, {
      userId: await userId(ctx, 'cliente@demo.rinnova.it'),
      planId: await planId(ctx, 'Demo Srl', 'Basic'),
    });
    expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
    const paymentId = sub.payments[0]!.id;
    const transfer = await admin.post('/api/BankTransfer/create', {
      paymentId,
      amount: sub.amountDue,
      approvalDate: '2028-03-15T09:00:00.000Z',
    });
    expect(transfer.status).toBe(200);
    expect((await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`)).status).toBe(200);
    const after = (await admin.get<DashboardSummary>('/api/dashboard/summary')).body.data!;
    expect(after.activeSubscriptions).toBe(before.activeSubscriptions + 1);
    expect(after.months[11]!.newSubscriptions).toBe(before.months[11]!.newSubscriptions + 1);
    expect(after.months[11]!.active).toBe(before.months[11]!.active + 1);
    expect(after.months[10]!.active).toBe(before.months[10]!.active);
  });
});
