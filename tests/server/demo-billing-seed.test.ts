import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonthsClamped, romeCalendarDay } from '../../contract/billing-dates';
import type { Paged } from '../../contract/envelope';
import { amountWithVat } from '../../contract/money';
import type { Subscription } from '../../contract/schemas/subscription';
import { SubscriptionStatus, subscriptionStatusIds, transition } from '../../contract/subscription-status';
import { isValidIban, isValidPartitaIva } from '../../contract/validation/italian';
import {
  bankTransfers,
  payments,
  plans,
  seedRuns,
  subscriptionEvents,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../server/db/schema';
import { dataOf } from './helpers/entity-checks';
import { createTestContext, DEMO, type TestContext } from './helpers/test-app';

let ctx: TestContext;
let demoId: number;
let rossiId: number;
let subs: (typeof subscriptions.$inferSelect)[];
let pays: (typeof payments.$inferSelect)[];
let transfers: (typeof bankTransfers.$inferSelect)[];
let events: (typeof subscriptionEvents.$inferSelect)[];
/**
 * When the demo seed ran (the test database template may be older than this run): its step's
 * completion time, a moment after the `now` it was given.
 */
let now: Date;

beforeAll(async () => {
  ctx = await createTestContext();
  demoId = await ctx.tenantId('Demo Srl');
  rossiId = await ctx.tenantId('Studio Rossi');
  const [demoStep] = await ctx.db.select().from(seedRuns).where(eq(seedRuns.name, 'demo'));
  now = demoStep?.completedAt ?? new Date();
  subs = await ctx.db.select().from(subscriptions).orderBy(asc(subscriptions.id));
  pays = await ctx.db.select().from(payments).orderBy(asc(payments.id));
  transfers = await ctx.db.select().from(bankTransfers).orderBy(asc(bankTransfers.id));
  events = await ctx.db.select().from(subscriptionEvents).orderBy(asc(subscriptionEvents.id));
});
afterAll(() => ctx.close());

const of = (tenantId: number) => subs.filter((s) => s.tenantId === tenantId);
const paymentsOf = (subscriptionId: number) => pays.filter((p) => p.subscriptionId === subscriptionId);
const approvedOf = (paymentId: number) =>
  transfers
    .filter((t) => t.paymentId === paymentId && t.approvalDate !== null)
    .reduce((sum, t) => sum + t.amountCents, 0);

describe('demo billing seed', () => {
  it('gives Demo Srl subscriptions in all five statuses, Studio Rossi its own', () => {
    const demo = of(demoId);
    expect(demo.length).toBeGreaterThanOrEqual(30);
    for (const status of subscriptionStatusIds)
      expect(
        demo.some((s) => s.status === status),
        `${status}`,
      ).toBe(true);
    expect(of(rossiId).length).toBe(6);
    expect(new Set(of(rossiId).map((s) => s.status)).size).toBeGreaterThanOrEqual(4);
  });

  it('charges every payment the amount with VAT of its subscription’s terms, with a causale of its tenant', () => {
    const byId = new Map(subs.map((s) => [s.id, s]));
    expect(pays.length).toBeGreaterThan(subs.length);
    for (const p of pays) {
      const sub = byId.get(p.subscriptionId);
      expect(sub?.tenantId).toBe(p.tenantId);
      expect(sub?.amountDueCents).toBe(
        amountWithVat(sub?.costBeforeVatCents ?? -1, sub?.vatHundredths ?? -1),
      );
      expect(p.amountDueCents).toBe(sub?.amountDueCents);
      expect(p.causale).toBe(`RNV-${p.tenantId}-${String(p.id).padStart(6, '0')}`);
      expect(p.periodEnd.getTime()).toBeGreaterThan(p.periodStart.getTime());
      if (p.paidAt) expect(p.paidAt.getTime()).toBeLessThanOrEqual(now.getTime());
    }
    for (const s of subs) expect(paymentsOf(s.id).length, `subscription ${s.id}`).toBeGreaterThan(0);
  });

  it('matches the plans’ prices (Basic 9,90 → 12,08; Enterprise 990,00 → 1.207,80)', async () => {
    const planRows = await ctx.db
      .select()
      .from(plans)
      .where(inArray(plans.tenantId, [demoId, rossiId]));
    const due = (name: string) => {
      const plan = planRows.find((p) => p.name === name);
      return new Set(subs.filter((s) => s.planId === plan?.id).map((s) => s.amountDueCents));
    };
    expect(due('Basic')).toEqual(new Set([1208]));
    expect(due('Pro')).toEqual(new Set([3648]));
    expect(due('Enterprise')).toEqual(new Set([120780]));
    expect(due('Consulenza mensile')).toEqual(new Set([18300]));
    expect(due('Check-up annuale')).toEqual(new Set([58560]));
  });

  it('Active ones are paid via PayPal once per elapsed period, next billing date in the future', () => {
    for (const s of subs.filter((x) => x.status === SubscriptionStatus.Active)) {
      const list = paymentsOf(s.id);
      expect(list.every((p) => p.method === 'paypal' && p.paidAt !== null)).toBe(true);
      expect(list.every((p) => p.providerSubscriptionId?.startsWith('I-DEMO'))).toBe(true);
      expect(list[0]?.periodStart.getTime()).toBe(s.startDate.getTime());
      list.forEach((p, i) => {
        if (i > 0) expect(p.periodStart.getTime()).toBe(list[i - 1]?.periodEnd.getTime());
      });
      expect(list.at(-1)?.periodEnd.getTime()).toBe(s.nextBillingDate.getTime());
      // Consecutive periods from the start date to a next billing date after the seed: one per elapsed period.
      expect(s.nextBillingDate.getTime()).toBeGreaterThan(now.getTime() - 60_000);
      expect(list.at(-1)?.periodStart.getTime()).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('every ActiveNoRenewal has approved transfers equal to the amount due and a future next billing date', () => {
    const noRenewal = subs.filter((s) => s.status === SubscriptionStatus.ActiveNoRenewal);
    expect(noRenewal.length).toBeGreaterThan(0);
    for (const s of noRenewal) {
      const [payment, ...rest] = paymentsOf(s.id);
      expect(rest).toEqual([]);
      expect(approvedOf(payment?.id ?? -1)).toBe(s.amountDueCents);
      expect(payment?.method).toBe('bankTransfer');
      expect(payment?.paidAt).not.toBeNull();
      expect(s.nextBillingDate.getTime()).toBeGreaterThan(now.getTime());
    }
  });

  it('BankTransferPending ones have no transfer or less than the amount due approved; NotActive ones are unpaid', () => {
    for (const s of subs.filter((x) => x.status === SubscriptionStatus.BankTransferPending)) {
      const [payment] = paymentsOf(s.id);
      expect(payment?.method).toBe('bankTransfer');
      expect(payment?.paidAt).toBeNull();
      expect(approvedOf(payment?.id ?? -1)).toBeLessThan(s.amountDueCents);
      const all = transfers.filter((t) => t.paymentId === payment?.id).reduce((a, t) => a + t.amountCents, 0);
      expect(all).toBeLessThanOrEqual(s.amountDueCents);
    }
    for (const s of subs.filter((x) => x.status === SubscriptionStatus.NotActive)) {
      expect(paymentsOf(s.id).map((p) => [p.paidAt, p.method])).toEqual([[null, null]]);
    }
  });

  it('paid payments of Demo Srl span at least 10 distinct months of the last 12', () => {
    const since = addMonthsClamped(now, -12).getTime();
    const months = new Set(
      pays
        .filter((p) => p.tenantId === demoId && p.paidAt && p.paidAt.getTime() >= since)
        .map((p) => {
          const d = romeCalendarDay(p.paidAt as Date);
          return `${d.year}-${d.month}`;
        }),
    );
    expect(months.size).toBeGreaterThanOrEqual(10);
  });

  it('keeps Studio Rossi’s rows apart from Demo Srl’s', async () => {
    const rossiSubs = new Set(of(rossiId).map((s) => s.id));
    const demoSubs = new Set(of(demoId).map((s) => s.id));
    for (const p of pays) expect(p.tenantId === rossiId).toBe(rossiSubs.has(p.subscriptionId));
    for (const e of events) expect(e.tenantId === rossiId).toBe(rossiSubs.has(e.subscriptionId));
    const rossiPayments = new Set(pays.filter((p) => p.tenantId === rossiId).map((p) => p.id));
    for (const t of transfers) expect(t.tenantId === rossiId).toBe(rossiPayments.has(t.paymentId));
    expect([...rossiSubs].some((id) => demoSubs.has(id))).toBe(false);
    // Customers and plans of a subscription are of its tenant (the foreign keys say so too).
    const rossiPlans = await ctx.db.select({ id: plans.id }).from(plans).where(eq(plans.tenantId, rossiId));
    expect(rossiPlans).toHaveLength(2);
    const rossiMembers = await ctx.db
      .select({ userId: userTenants.userId })
      .from(userTenants)
      .where(eq(userTenants.tenantId, rossiId));
    expect(rossiMembers).toHaveLength(5);
    expect(
      of(rossiId).every(
        (s) => rossiPlans.some((p) => p.id === s.planId) && rossiMembers.some((m) => m.userId === s.userId),
      ),
    ).toBe(true);
  });

  it('records every status change: a create first, moves the state machine allows, the last one is the status', () => {
    for (const s of subs) {
      const history = events.filter((e) => e.subscriptionId === s.id);
      expect(history[0]).toMatchObject({
        event: 'create',
        fromStatus: null,
        toStatus: SubscriptionStatus.NotActive,
      });
      expect(history[0]?.at.getTime()).toBe(s.startDate.getTime());
      expect(history.at(-1)?.toStatus, `subscription ${s.id}`).toBe(s.status);
      for (let i = 1; i < history.length; i++) {
        const [before, e] = [history[i - 1], history[i]];
        expect(e?.fromStatus).toBe(before?.toStatus);
        expect(e?.at.getTime()).toBeGreaterThan(before?.at.getTime() ?? 0);
        const actor = e?.actorKind === 'user' ? 'admin' : e?.actorKind;
        expect(
          transition(e?.fromStatus as never, e?.event as never, actor as never),
          `${s.id}: ${e?.event}`,
        ).toBe(e?.toStatus);
      }
      expect(history.at(-1)?.at.getTime()).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('fills in both sellers’ billing profiles with a valid Partita IVA, IBAN and a real comune', async () => {
    const rows = await ctx.db
      .select()
      .from(tenants)
      .where(inArray(tenants.id, [demoId, rossiId]));
    const demo = rows.find((t) => t.id === demoId);
    expect(demo).toMatchObject({
      legalName: 'Demo Srl',
      taxRegime: 'RF01',
      iban: 'IT60X0542811101000000123456',
      accountHolder: 'Demo Srl',
      zip: '20121',
    });
    for (const t of rows) {
      expect(isValidPartitaIva(t.vatCode ?? '')).toBe(true);
      expect(t.fiscalCode).toBe(t.vatCode);
      expect(isValidIban(t.iban ?? '')).toBe(true);
      expect(t.municipalityId).not.toBeNull();
      expect(t.provinceId).not.toBeNull();
      expect(t.regionId).not.toBeNull();
      expect(t.pec).toMatch(/@pec\.example\.it$/);
    }
    expect(rows[0]?.iban).not.toBe(rows[1]?.iban);
  });

  it('adds customers without password, companies with a valid Partita IVA and SDI', async () => {
    const members = await ctx.db
      .select({
        email: users.email,
        passwordHash: users.passwordHash,
        roleId: users.roleId,
        isCompany: userTenants.isCompany,
        vatCode: userTenants.vatCode,
        sdi: userTenants.sdi,
        municipalityId: userTenants.billingMunicipalityId,
      })
      .from(userTenants)
      .innerJoin(users, eq(users.id, userTenants.userId))
      .where(eq(userTenants.tenantId, demoId));
    const customers = members.filter((m) => m.roleId === 3 && m.email !== DEMO.cliente);
    expect(customers.length).toBeGreaterThanOrEqual(39);
    expect(customers.every((c) => c.passwordHash === null && c.municipalityId !== null)).toBe(true);
    expect(customers.every((c) => /@([a-z0-9-]+\.)?example\.(com|it)$/.test(c.email))).toBe(true);
    const companies = customers.filter((c) => c.isCompany);
    expect(companies.length).toBeGreaterThanOrEqual(10);
    for (const c of companies) {
      expect(isValidPartitaIva(c.vatCode ?? ''), c.email).toBe(true);
      expect(c.sdi).toMatch(/^[A-Z0-9]{7}$/);
    }
  });
});

describe('through the API', () => {
  it('an Admin of Demo Srl lists at least 30 subscriptions', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const page = dataOf(
      await admin.get<Paged<Subscription>>('/api/subscription/getAll', { query: { pageSize: 100 } }),
    );
    expect(page.totalCount).toBeGreaterThanOrEqual(30);
    expect(page.items.every((s) => s.payments.length > 0)).toBe(true);
  });

  it('the demo User sees only their own two subscriptions: one Active, one NotActive', async () => {
    const cliente = await ctx.as('cliente', 'Demo Srl');
    const page = dataOf(
      await cliente.get<Paged<Subscription>>('/api/subscription/getAll', { query: { pageSize: 100 } }),
    );
    expect(page.totalCount).toBe(2);
    expect(page.items.every((s) => s.user.email === DEMO.cliente)).toBe(true);
    expect(page.items.map((s) => s.subscriptionStatus).sort()).toEqual([
      SubscriptionStatus.Active,
      SubscriptionStatus.NotActive,
    ]);
  });
});
