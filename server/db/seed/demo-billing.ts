/**
 * A believable year of billing for the demo tenants, so every screen (and the dashboard's MRR,
 * revenue per month, active count, new vs churn, subscriptions per plan) has data on a fresh
 * start. Part of the one-time 'demo' seed step, inside its transaction.
 *
 * - The three tenants get their seller billing and fiscal profile (demo-fixtures.ts PROFILES):
 *   Demo Srl an ordinary company, Studio Rossi a commercialista with cassa and ritenuta, Sofia
 *   Bellini a forfettario charging the bollo.
 * - Demo Srl gets 37 more customers (one in Germany) and ~46 subscriptions on Basic / Pro /
 *   Enterprise over the last 12 months, in every status; Studio Rossi its own two plans, 6
 *   customers (a comune among them), 7 subscriptions; the forfettario three plans without VAT,
 *   8 customers, 10 subscriptions. Every customer has what an invoice needs (codice fiscale or
 *   Partita IVA, address, CAP, comune; SDI code or PEC for a business).
 * - Every status change is a `subscription_events` row at its historical time, checked against
 *   the state machine. The amount due is the net to pay of the period's document, computed by the
 *   one computation (contract/invoice/fiscal-document.ts) from the tenant's and the customer's
 *   profiles as server/db/fiscal-profiles.ts reads them (cassa, VAT, bollo, ritenuta).
 * - Deterministic: seeded generators (no Math.random) and dates relative to `now`. Ids come from
 *   the tables' sequences up front (one statement per table), so causali can be computed, ids
 *   grow with time (histories are ordered by id) and every table is one multi-row insert.
 */
import { featureKeyOf } from '../../../contract/integrations';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { addMonthsClamped, nextBillingDate } from '../../../contract/billing-dates';
import { Role } from '../../../contract/enums';
import { isNatura, type Natura } from '../../../contract/invoice/fatturapa';
import { toCents, toPercentHundredths, type Cents } from '../../../contract/money';
import {
  transition,
  type ActorKind,
  type SubscriptionEvent,
  type SubscriptionStatusId,
} from '../../../contract/subscription-status';
import { causaleOf } from '../../../contract/schemas/payment';
import { customerProfileFrom, periodDocument, sellerProfileFrom } from '../fiscal-profiles';
import {
  bankTransfers,
  features,
  municipalities,
  payments,
  planFeatures,
  plans,
  provinces,
  subscriptionEvents,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../schema';
import type { Database } from '../client';
import { seedDemoLifecycle } from './demo-lifecycle';

import {
  MINUTE,
  HOUR,
  DAY,
  S,
  generator,
  type Random,
  partitaIva,
  codiceFiscale,
  CADASTRAL_CODES,
  VAT_OFFICE,
  MOBILE_PREFIXES,
  PHONE_PREFIX,
  SDI_CHARS,
  type Place,
  type Sex,
  type CustomerFixture,
  STREETS,
  PLACES,
  DEMO_PERSONS,
  DEMO_COMPANIES,
  DEMO_ABROAD,
  ROSSI_CUSTOMERS,
  ROSSI_PLANS,
  FORFETTARIO,
  FORFETTARIO_CUSTOMERS,
  FORFETTARIO_PLANS,
  FORFETTARIO_SPECS,
  PROFILES,
  type Spec,
  CLIENTE,
  DEMO_SPECS,
  ROSSI_SPECS,
} from './demo-fixtures';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
interface PlanInfo {
  id: number;
  name: string;
  cost: Cents;
  vat: number;
  natura: Natura | null;
  months: number;
}

interface Actor {
  kind: 'user' | 'provider' | 'system';
  id: string | null;
  name: string | null;
}

interface BuiltPayment {
  periodStart: Date;
  periodEnd: Date;
  method: string | null;
  providerSubscriptionId: string | null;
  paidAt: Date | null;
  createdAt: Date;
  /** Transfers received, as shares of the amount due (known once the customer is). */
  transfers: { share: 'full' | 'half' | 'rest'; approvalDate: Date | null; createdAt: Date }[];
}

interface BuiltEvent {
  event: SubscriptionEvent | 'create';
  from: SubscriptionStatusId | null;
  to: SubscriptionStatusId;
  actor: Actor;
  reason: string | null;
  at: Date;
}

interface BuiltSubscription {
  tenantId: number;
  customer: string | undefined;
  plan: PlanInfo;
  status: SubscriptionStatusId;
  startDate: Date;
  nextBillingDate: Date;
  /** The net to pay of one period's document: set once the customer is assigned and stored. */
  due: Cents;
  payments: BuiltPayment[];
  events: BuiltEvent[];
  /** When it left Active for good (cancelled), for pairing a later subscription of the same customer. */
  endedAt: Date | null;
}

/** `days` days before `now` at hh:mm UTC: with days ≥ 1, always before `now`. */
function daysBefore(now: Date, days: number, random: Random): Date {
  const d = new Date(now.getTime() - days * DAY);
  d.setUTCHours(random.int(7, 16), random.int(0, 59), 0, 0);
  return d;
}

const machineActor = (actor: Actor): ActorKind => (actor.kind === 'user' ? 'admin' : actor.kind);

function buildSubscription(
  spec: Spec,
  tenantId: number,
  plan: PlanInfo,
  admin: Actor,
  now: Date,
  random: Random,
): BuiltSubscription {
  const start = daysBefore(now, random.int(spec.days[0], spec.days[1]), random);
  const events: BuiltEvent[] = [];
  let status: SubscriptionStatusId = S.NotActive;
  const record = (event: BuiltEvent['event'], actor: Actor, at: Date, reason: string | null = null) => {
    const to = event === 'create' ? S.NotActive : transition(status, event, machineActor(actor));
    if (to === null) throw new Error(`demo seed: ${event} is not allowed from status ${status}`);
    if (at.getTime() > now.getTime()) throw new Error(`demo seed: ${event} would be in the future`);
    events.push({ event, from: event === 'create' ? null : status, to, actor, reason, at });
    status = to;
  };
  const periodEnd = (i: number) => addMonthsClamped(start, (i + 1) * plan.months);
  const payment = (i: number, extra: Partial<BuiltPayment> = {}): BuiltPayment => {
    const periodStart = addMonthsClamped(start, i * plan.months);
    return {
      periodStart,
      periodEnd: periodEnd(i),
      method: null,
      providerSubscriptionId: null,
      paidAt: null,
      createdAt: i === 0 ? start : periodStart,
      transfers: [],
      ...extra,
    };
  };
  const pays: BuiltPayment[] = [];
  let next = nextBillingDate(start, plan.months);
  let endedAt: Date | null = null;
  record('create', admin, start);

  const story = spec.story;
  if (story.kind === 'paypal') {
    const paypal: Actor = { kind: 'provider', id: null, name: 'paypal' };
    const providerId = `I-DEMO${Array.from({ length: 8 }, () => random.pick([...SDI_CHARS])).join('')}`;
    const activatedAt = new Date(start.getTime() + random.int(5, 90) * MINUTE);
    record('providerActivated', { ...paypal, id: `WH-DEMO-${providerId.slice(6)}` }, activatedAt);
    // One period per period start up to now; a cancelled one stops after `afterPeriods`.
    let periods = 0;
    while (addMonthsClamped(start, periods * plan.months).getTime() <= now.getTime()) periods++;
    if (story.cancel) periods = Math.max(1, Math.min(periods - 1, story.cancel.afterPeriods));
    for (let i = 0; i < periods; i++) {
      const p = payment(i, { method: 'paypal', providerSubscriptionId: providerId });
      p.paidAt = i === 0 ? activatedAt : p.periodStart;
      pays.push(p);
    }
    next = addMonthsClamped(start, periods * plan.months);
    if (story.cancel) {
      const last = pays[pays.length - 1] as BuiltPayment;
      const at = new Date(
        Math.min(
          last.periodStart.getTime() + random.int(2, 20) * DAY + random.int(0, 8) * HOUR,
          last.periodEnd.getTime() - HOUR,
          now.getTime() - HOUR,
        ),
      );
      if (story.cancel.by === 'admin') record('cancel', admin, at, 'Disdetta richiesta dal cliente');
      else record('providerCanceled', paypal, at, 'Abbonamento annullato dal cliente su PayPal');
      endedAt = at;
    }
  } else if (story.kind === 'unpaid') {
    pays.push(payment(0));
  } else {
    const setAt = new Date(start.getTime() + random.int(1, 6) * HOUR);
    record('setBankTransfer', admin, setAt);
    const p = payment(0, { method: 'bankTransfer' });
    pays.push(p);
    const received = (at: Date, share: BuiltPayment['transfers'][number]['share'], approved: boolean) =>
      p.transfers.push({
        share,
        approvalDate: approved ? at : null,
        createdAt: new Date(at.getTime() + random.int(20, 180) * MINUTE),
      });
    const firstAt = new Date(setAt.getTime() + random.int(1, 3) * DAY);
    if (story.kind === 'transferConfirmed') {
      let lastAt = firstAt;
      if (story.installments === 2) {
        received(firstAt, 'half', true);
        lastAt = new Date(firstAt.getTime() + random.int(5, 12) * DAY);
        received(lastAt, 'rest', true);
      } else {
        received(firstAt, 'full', true);
      }
      p.paidAt = lastAt;
      record('confirmBankTransfer', admin, new Date(lastAt.getTime() + random.int(1, 4) * HOUR));
    } else if (story.received !== 'none') {
      received(firstAt, 'half', true);
      if (story.received === 'halfAndUnapproved')
        received(new Date(firstAt.getTime() + random.int(4, 8) * DAY), 'rest', false);
    }
  }
  for (const p of pays) {
    for (const t of p.transfers)
      if (t.createdAt.getTime() > now.getTime()) t.createdAt = new Date(now.getTime() - MINUTE);
  }
  return {
    tenantId,
    customer: spec.customer,
    plan,
    status,
    startDate: start,
    nextBillingDate: next,
    due: 0,
    payments: pays,
    events,
    endedAt,
  };
}

/**
 * Gives each subscription without a fixed customer one from `pool`: a few customers who
 * cancelled come back later with a new PayPal subscription; the others get one customer each
 * (in turn, should there be more subscriptions than customers).
 */
function assignCustomers(subs: BuiltSubscription[], pool: readonly string[], returning: number): void {
  const byStart = [...subs].sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
  const paired = new Set<BuiltSubscription>();
  let i = 0;
  for (const gone of byStart.filter((s) => s.endedAt && !s.customer)) {
    if (paired.size / 2 >= returning) break;
    const ended = gone.endedAt?.getTime() ?? 0;
    const again = byStart.find(
      (s) =>
        !s.customer &&
        !paired.has(s) &&
        s.status === S.Active &&
        s.startDate.getTime() > ended + 3 * DAY &&
        s.plan.id !== gone.plan.id,
    );
    if (!again) continue;
    gone.customer = again.customer = pool[i++ % pool.length];
    paired.add(gone).add(again);
  }
  for (const s of byStart) if (!s.customer) s.customer = pool[i++ % pool.length];
}

// ---------------------------------------------------------------------------------------------
// Seeding

interface CustomerRow {
  tenantId: number;
  email: string;
  name: string;
  isCompany: boolean;
  street: string;
  /** The comune of an Italian billing address; null abroad. */
  place: Place | null;
  phone: string | null;
  pec: string | null;
  sdi: string | null;
  vatCode: string | null;
  fiscalCode: string | null;
  countryCode: string;
  /** Abroad: the city and postcode of the billing address. */
  city: string | null;
  zip: string | null;
  publicAdministration: boolean;
  paOfficeCode: string | null;
  cig: string | null;
}

async function placesOf(tx: Tx, places: readonly Place[]) {
  const unique = [...new Map(places.map((p) => [p.join('|'), p])).values()];
  const rows = await tx
    .select({
      id: municipalities.id,
      name: municipalities.name,
      zip: municipalities.zip,
      province: provinces.abbreviation,
      provinceId: provinces.id,
      regionId: provinces.regionId,
    })
    .from(municipalities)
    .innerJoin(provinces, eq(provinces.id, municipalities.provinceId))
    .where(
      sql`(${municipalities.name}, ${provinces.abbreviation}) in (${sql.join(
        unique.map(([name, province]) => sql`(${name}, ${province})`),
        sql`, `,
      )})`,
    );
  const byKey = new Map(rows.map((r) => [`${r.name}|${r.province}`, r]));
  return (place: Place) => {
    const row = byKey.get(place.join('|'));
    // Every demo address is in a real comune: an invoice needs its CAP and name.
    if (!row) throw new Error(`demo seed: no comune ${place.join(' ')}`);
    return row;
  };
}

/** `n` ids from the sequence of `table`'s id column, in one statement. */
async function nextIds(tx: Tx, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const result = await tx.execute<{ id: string | number }>(
    sql`select nextval(pg_get_serial_sequence(${table}, 'id')) as id from generate_series(1, ${n})`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { id: string | number }[] }).rows) as {
    id: string | number;
  }[];
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

function planInfo(row: {
  id: number;
  name: string;
  cost: string;
  vat: string;
  natura: string | null;
  recurrenceType: number;
}): PlanInfo {
  const vat = toPercentHundredths(row.vat);
  return {
    id: row.id,
    name: row.name,
    cost: toCents(row.cost),
    vat,
    // As the subscription's terms read it (subscription.service termsOf): the Natura of a 0 % plan.
    natura: vat === 0 && isNatura(row.natura) ? row.natura : null,
    months: row.recurrenceType,
  };
}

/**
 * A person's codice fiscale, from the name and birth data drawn by `ids` (born in the comune they
 * live in; a year in the e-mail, as luca.bruno84, is their year of birth).
 */
function personFiscalCode(name: string, email: string, sex: Sex, place: Place, ids: Random): string {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  const placeCode = CADASTRAL_CODES[place.join('|')];
  if (!placeCode) throw new Error(`demo seed: no codice catastale for ${place.join(' ')}`);
  const inEmail = /(\d{2})@/.exec(email)?.[1];
  return codiceFiscale(first, rest.join(' '), {
    year: inEmail ? 1900 + Number(inEmail) : ids.int(1956, 2001),
    month: ids.int(1, 12),
    day: ids.int(1, 28),
    sex,
    placeCode,
  });
}

/** A customer of Studio Rossi or of the forfettario, with what an invoice needs. */
function fixtureRow(
  c: CustomerFixture,
  tenantId: number,
  random: Random,
  ids: Random,
  fallbackOffice: string,
): CustomerRow {
  const company = c.isCompany === true;
  const domain = c.email.split('@')[1]?.split('.')[0] ?? 'cliente';
  const vatCode = company
    ? partitaIva(`${random.digits(7)}${VAT_OFFICE[c.place[1]] ?? fallbackOffice}`)
    : null;
  const pa = c.publicAdministration;
  return {
    tenantId,
    email: c.email,
    name: c.name,
    isCompany: company,
    street: `${random.pick(STREETS)} ${random.int(1, 120)}`,
    place: c.place,
    phone: `+39 ${random.pick(MOBILE_PREFIXES)} ${random.digits(7)}`,
    // A public administration receives through its IPA office code, neither SDI code nor PEC.
    pec: company && !pa ? `${domain}@pec.example.it` : null,
    sdi: company && !pa ? Array.from({ length: 7 }, () => random.pick([...SDI_CHARS])).join('') : null,
    vatCode,
    // A company's codice fiscale is its Partita IVA; a person's is computed.
    fiscalCode: company ? vatCode : personFiscalCode(c.name, c.email, c.sex ?? 'M', c.place, ids),
    countryCode: 'IT',
    city: null,
    zip: null,
    publicAdministration: pa !== undefined,
    paOfficeCode: pa?.officeCode ?? null,
    cig: pa?.cig ?? null,
  };
}

/** A tenant's own plans, their features and its feature catalogue, created `createdAt`. */
async function seedPlans(
  tx: Tx,
  tenantId: number,
  list: readonly {
    name: string;
    cost: string;
    recurrenceType: number;
    features: readonly (readonly [string, string | null])[];
  }[],
  createdAt: Date,
  vat?: { percentage: string; natura: Natura },
) {
  const rows = await tx
    .insert(plans)
    .values(
      list.map((p) => ({
        tenantId,
        name: p.name,
        recurringCostBeforeVat: p.cost,
        recurrenceType: p.recurrenceType,
        ...(vat ? { vatPercentage: vat.percentage, natura: vat.natura } : {}),
        createdAt,
        updatedAt: createdAt,
      })),
    )
    .returning({
      id: plans.id,
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      natura: plans.natura,
      recurrenceType: plans.recurrenceType,
    });
  await tx.insert(planFeatures).values(
    list.flatMap((p) =>
      p.features.map(([featureName, description]) => ({
        tenantId,
        planId: rows.find((r) => r.name === p.name)?.id ?? -1,
        featureName,
        description,
      })),
    ),
  );
  const catalogue = new Map(list.flatMap((p) => p.features.map(([name, d]) => [name, d] as const)));
  await tx.insert(features).values(
    [...catalogue].map(([featureName, description]) => ({
      tenantId,
      featureName,
      key: featureKeyOf(featureName),
      description,
    })),
  );
  return rows;
}

export interface DemoBillingInput {
  now: Date;
  /** Tenant ids by name ('Demo Srl', 'Studio Rossi', FORFETTARIO). */
  tenantIds: ReadonlyMap<string, number>;
  /** Ids of the demo accounts by e-mail. */
  accountIds: ReadonlyMap<string, number>;
}

export async function seedDemoBilling(
  tx: Tx,
  { now, tenantIds, accountIds }: DemoBillingInput,
): Promise<void> {
  const demoId = tenantIds.get('Demo Srl');
  const rossiId = tenantIds.get('Studio Rossi');
  const creatorId = tenantIds.get(FORFETTARIO);
  if (demoId === undefined || rossiId === undefined || creatorId === undefined) return;
  const random = generator(20_260_101);
  // Birth data of the people (their codici fiscali) from a generator of their own.
  const ids = generator(20_260_102);
  const adminId = accountIds.get('admin@demo.rinnova.it');
  const superadminId = accountIds.get('superadmin@demo.rinnova.it');
  const demoAdmin: Actor = {
    kind: 'user',
    id: adminId ? String(adminId) : null,
    name: 'admin@demo.rinnova.it',
  };
  // Studio Rossi and the forfettario have no Admin in the demo: the SuperAdmin acts there.
  const superAdmin: Actor = {
    kind: 'user',
    id: superadminId ? String(superadminId) : null,
    name: 'superadmin@demo.rinnova.it',
  };

  // People of the three tenants.
  const demoCustomers: CustomerRow[] = [
    ...DEMO_PERSONS.map(([name, email, sex]): CustomerRow => {
      const place = random.pick(PLACES);
      return {
        tenantId: demoId,
        email,
        name,
        isCompany: false,
        street: `${random.pick(STREETS)} ${random.int(1, 180)}`,
        place,
        phone: random.int(0, 2) > 0 ? `+39 ${random.pick(MOBILE_PREFIXES)} ${random.digits(7)}` : null,
        pec: null,
        sdi: null,
        vatCode: null,
        fiscalCode: personFiscalCode(name, email, sex, place, ids),
        countryCode: 'IT',
        city: null,
        zip: null,
        publicAdministration: false,
        paOfficeCode: null,
        cig: null,
      };
    }),
    ...DEMO_COMPANIES.map(([name, slug, place]): CustomerRow => {
      const email = `${random.pick(['amministrazione', 'info', 'contabilita'])}@${slug}.example.${random.pick(['it', 'com'])}`;
      const street = `${random.pick(STREETS)} ${random.int(1, 180)}`;
      const phone = `+39 ${PHONE_PREFIX[place[1]] ?? '02'} ${random.digits(6)}`;
      const sdi = Array.from({ length: 7 }, () => random.pick([...SDI_CHARS])).join('');
      const vatCode = partitaIva(`${random.digits(7)}${VAT_OFFICE[place[1]] ?? '015'}`);
      return {
        tenantId: demoId,
        email,
        name,
        isCompany: true,
        street,
        place,
        phone,
        pec: `${slug}@pec.example.it`,
        sdi,
        vatCode,
        fiscalCode: vatCode,
        countryCode: 'IT',
        city: null,
        zip: null,
        publicAdministration: false,
        paOfficeCode: null,
        cig: null,
      };
    }),
    {
      tenantId: demoId,
      email: DEMO_ABROAD.email,
      name: DEMO_ABROAD.name,
      isCompany: true,
      street: DEMO_ABROAD.street,
      place: null,
      phone: null,
      pec: null,
      sdi: null,
      vatCode: DEMO_ABROAD.vatCode,
      fiscalCode: null,
      countryCode: DEMO_ABROAD.countryCode,
      city: DEMO_ABROAD.city,
      zip: DEMO_ABROAD.zip,
      publicAdministration: false,
      paOfficeCode: null,
      cig: null,
    },
  ];
  const rossiCustomers = ROSSI_CUSTOMERS.map((c) => fixtureRow(c, rossiId, random, ids, '037'));
  const creatorCustomers = FORFETTARIO_CUSTOMERS.map((c) => fixtureRow(c, creatorId, random, ids, '048'));
  const newCustomers = [...demoCustomers, ...rossiCustomers, ...creatorCustomers];
  const placeOf = await placesOf(tx, [
    ...newCustomers.flatMap((c) => (c.place ? [c.place] : [])),
    ...Object.values(PROFILES).map((p) => p.place),
  ]);

  // Sellers' billing and fiscal profiles.
  for (const [tenantName, profile] of Object.entries(PROFILES)) {
    const place = placeOf(profile.place);
    await tx
      .update(tenants)
      .set({
        legalName: profile.legalName,
        vatCode: profile.vatCode,
        fiscalCode: profile.fiscalCode,
        taxRegime: profile.taxRegime,
        pensionFundType: profile.pensionFund?.type ?? null,
        pensionFundRate: profile.pensionFund?.rate ?? null,
        withholdingTax: profile.withholdingTax,
        stampDutyToCustomer: profile.stampDutyToCustomer,
        street: profile.street,
        zip: place.zip,
        regionId: place.regionId,
        provinceId: place.provinceId,
        municipalityId: place.id,
        pec: profile.pec,
        iban: profile.iban,
        accountHolder: profile.accountHolder,
      })
      .where(eq(tenants.id, tenantIds.get(tenantName) ?? -1));
  }

  // Studio Rossi's and the forfettario's catalogues (hers without VAT: 0 %, N2.2).
  const rossiPlanRows = await seedPlans(tx, rossiId, ROSSI_PLANS, new Date(now.getTime() - 330 * DAY));
  const creatorPlanRows = await seedPlans(
    tx,
    creatorId,
    FORFETTARIO_PLANS,
    new Date(now.getTime() - 360 * DAY),
    { percentage: '0', natura: 'N2.2' },
  );
  const demoPlanRows = await tx
    .select({
      id: plans.id,
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      natura: plans.natura,
      recurrenceType: plans.recurrenceType,
    })
    .from(plans)
    .where(eq(plans.tenantId, demoId));
  const planRows = new Map([
    [demoId, demoPlanRows],
    [rossiId, rossiPlanRows],
    [creatorId, creatorPlanRows],
  ]);
  const planOf = (tenantId: number, name: string): PlanInfo => {
    const row = planRows.get(tenantId)?.find((p) => p.name === name);
    if (!row) throw new Error(`demo seed: no plan ${name}`);
    return planInfo(row);
  };

  // The year of subscriptions, in memory.
  const existing = await tx
    .select({ email: users.email })
    .from(userTenants)
    .innerJoin(users, eq(users.id, userTenants.userId))
    .where(and(eq(userTenants.tenantId, demoId), eq(users.roleId, Role.User)));
  const fixed = new Set(
    [...DEMO_SPECS, ...ROSSI_SPECS, ...FORFETTARIO_SPECS].flatMap((s) => (s.customer ? [s.customer] : [])),
  );
  // Customers with a story of their own (the German business, the comune, the licensees) are
  // left out of the pools the other subscriptions draw from.
  const poolOf = (rows: readonly CustomerRow[]) => rows.map((c) => c.email).filter((e) => !fixed.has(e));
  const demoPool = random.shuffle([
    ...poolOf(demoCustomers),
    ...existing.map((e) => e.email).filter((email) => email !== CLIENTE),
  ]);
  const build = (specs: readonly Spec[], tenantId: number, admin: Actor) =>
    specs.map((s) => buildSubscription(s, tenantId, planOf(tenantId, s.plan), admin, now, random));
  const demoSubs = build(DEMO_SPECS, demoId, demoAdmin);
  assignCustomers(demoSubs, demoPool, 4);
  const rossiSubs = build(ROSSI_SPECS, rossiId, superAdmin);
  assignCustomers(rossiSubs, poolOf(rossiCustomers), 1);
  const creatorSubs = build(FORFETTARIO_SPECS, creatorId, superAdmin);
  assignCustomers(creatorSubs, poolOf(creatorCustomers), 1);
  const allSubs = [...demoSubs, ...rossiSubs, ...creatorSubs].sort(
    (a, b) => a.startDate.getTime() - b.startDate.getTime(),
  );

  // New customers, registered a little before their first subscription.
  const firstStart = new Map<string, number>();
  for (const s of allSubs)
    if (s.customer && !firstStart.has(`${s.tenantId}|${s.customer}`))
      firstStart.set(`${s.tenantId}|${s.customer}`, s.startDate.getTime());
  const registeredAt = (c: CustomerRow) =>
    new Date(
      (firstStart.get(`${c.tenantId}|${c.email}`) ?? now.getTime() - random.int(5, 60) * DAY) -
        random.int(1, 10) * DAY -
        random.int(0, 6) * HOUR,
    );
  const registered = newCustomers.map((c) => ({ ...c, at: registeredAt(c) }));
  const userRows = await tx
    .insert(users)
    .values(
      registered.map((c) => ({
        email: c.email,
        name: c.name,
        roleId: Role.User,
        defaultTenantId: c.tenantId,
        createdAt: c.at,
        updatedAt: c.at,
      })),
    )
    .returning({ id: users.id, email: users.email });
  await tx.insert(userTenants).values(
    registered.map((c) => {
      const place = c.place ? placeOf(c.place) : null;
      return {
        userId: userRows.find((u) => u.email === c.email)?.id ?? -1,
        tenantId: c.tenantId,
        name: c.name,
        pec: c.pec,
        phone: c.phone,
        sdi: c.sdi,
        vatCode: c.vatCode,
        fiscalCode: c.fiscalCode,
        isCompany: c.isCompany,
        countryCode: c.countryCode,
        billingCity: c.city,
        publicAdministration: c.publicAdministration,
        paOfficeCode: c.paOfficeCode,
        cig: c.cig,
        billingStreet: c.street,
        billingZip: place?.zip ?? c.zip,
        billingRegionId: place?.regionId ?? null,
        billingProvinceId: place?.provinceId ?? null,
        billingMunicipalityId: place?.id ?? null,
        createdAt: c.at,
        updatedAt: c.at,
      };
    }),
  );
  const emails = [...new Set(allSubs.map((s) => s.customer ?? ''))];
  const userIdOf = new Map(
    (
      await tx.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails))
    ).map((u) => [u.email, u.id]),
  );

  // What each subscription asks: the net to pay of one period's document, from the two profiles
  // as fiscal-profiles.ts reads them (the amount the invoice will show as ImportoPagamento).
  const demoTenants = [demoId, rossiId, creatorId];
  const sellers = new Map(
    (
      await tx
        .select({
          id: tenants.id,
          taxRegime: tenants.taxRegime,
          fundType: tenants.pensionFundType,
          fundRate: tenants.pensionFundRate,
          withholdingTax: tenants.withholdingTax,
          stampDutyToCustomer: tenants.stampDutyToCustomer,
          oss: tenants.ossRegistered,
        })
        .from(tenants)
        .where(inArray(tenants.id, demoTenants))
    ).map((row) => [row.id, sellerProfileFrom(row)]),
  );
  const members = new Map(
    (
      await tx
        .select({
          tenantId: userTenants.tenantId,
          userId: userTenants.userId,
          countryCode: userTenants.countryCode,
          isCompany: userTenants.isCompany,
          vatCode: userTenants.vatCode,
          publicAdministration: userTenants.publicAdministration,
          withholdingAgent: userTenants.withholdingAgent,
        })
        .from(userTenants)
        .where(inArray(userTenants.tenantId, demoTenants))
    ).map((row) => [`${row.tenantId}|${row.userId}`, customerProfileFrom(row)]),
  );
  for (const s of allSubs) {
    const seller = sellers.get(s.tenantId);
    const customer = members.get(`${s.tenantId}|${userIdOf.get(s.customer ?? '') ?? -1}`);
    if (!seller || !customer) throw new Error(`demo seed: no fiscal profile for ${s.customer}`);
    s.due = periodDocument(seller, customer, {
      description: s.plan.name,
      costCents: s.plan.cost,
      vat: s.plan.vat,
      natura: s.plan.natura,
    }).netToPayCents;
  }
  const amountOf = (s: BuiltSubscription, share: 'full' | 'half' | 'rest') =>
    share === 'full' ? s.due : share === 'half' ? Math.floor(s.due / 2) : s.due - Math.floor(s.due / 2);

  // Customers seeded before this step (and the demo User) joined before their first subscription.
  const isNew = new Set(newCustomers.map((c) => c.email));
  const earlier = [...firstStart].flatMap(([key, at]) => {
    const [tenantId, email] = key.split('|') as [string, string];
    const userId = userIdOf.get(email);
    return userId === undefined || isNew.has(email)
      ? []
      : [{ tenantId: Number(tenantId), userId, at: new Date(at - 12 * DAY) }];
  });
  if (earlier.length > 0) {
    const values = sql.join(
      earlier.map((r) => sql`(${r.tenantId}::int, ${r.userId}::int, ${r.at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    await tx.execute(
      sql`update users u set created_at = v.at, updated_at = v.at from (values ${values}) as v(tenant_id, user_id, at) where u.id = v.user_id and u.created_at > v.at`,
    );
    await tx.execute(
      sql`update user_tenants m set created_at = v.at, updated_at = v.at from (values ${values}) as v(tenant_id, user_id, at) where m.user_id = v.user_id and m.tenant_id = v.tenant_id and m.created_at > v.at`,
    );
  }

  // Ids in time order, so lists (newest first) and histories (by id) read naturally.
  const allPayments = allSubs
    .flatMap((s) => s.payments.map((p) => ({ s, p })))
    .sort((a, b) => a.p.createdAt.getTime() - b.p.createdAt.getTime());
  const allTransfers = allPayments
    .flatMap(({ s, p }) => p.transfers.map((t) => ({ s, p, t })))
    .sort((a, b) => a.t.createdAt.getTime() - b.t.createdAt.getTime());
  const allEvents = allSubs
    .flatMap((s) => s.events.map((e) => ({ s, e })))
    .sort((a, b) => a.e.at.getTime() - b.e.at.getTime());
  const [subIds, paymentIds, transferIds, eventIds] = [
    await nextIds(tx, 'subscriptions', allSubs.length),
    await nextIds(tx, 'payments', allPayments.length),
    await nextIds(tx, 'bank_transfers', allTransfers.length),
    await nextIds(tx, 'subscription_events', allEvents.length),
  ];
  const subId = new Map(allSubs.map((s, i) => [s, subIds[i] as number]));
  const paymentId = new Map(allPayments.map(({ p }, i) => [p, paymentIds[i] as number]));

  await tx.insert(subscriptions).values(
    allSubs.map((s) => ({
      id: subId.get(s) as number,
      tenantId: s.tenantId,
      userId: userIdOf.get(s.customer ?? '') ?? -1,
      planId: s.plan.id,
      status: s.status,
      startDate: s.startDate,
      nextBillingDate: s.nextBillingDate,
      costBeforeVatCents: s.plan.cost,
      vatHundredths: s.plan.vat,
      amountDueCents: s.due,
      createdAt: s.startDate,
      updatedAt: s.events[s.events.length - 1]?.at ?? s.startDate,
    })),
  );
  await tx.insert(payments).values(
    allPayments.map(({ s, p }) => {
      const id = paymentId.get(p) as number;
      return {
        id,
        tenantId: s.tenantId,
        subscriptionId: subId.get(s) as number,
        amountDueCents: s.due,
        causale: causaleOf(s.tenantId, id),
        periodStart: p.periodStart,
        periodEnd: p.periodEnd,
        method: p.method,
        providerSubscriptionId: p.providerSubscriptionId,
        paidAt: p.paidAt,
        createdAt: p.createdAt,
      };
    }),
  );
  if (allTransfers.length > 0)
    await tx.insert(bankTransfers).values(
      allTransfers.map(({ s, p, t }, i) => ({
        id: transferIds[i] as number,
        tenantId: s.tenantId,
        paymentId: paymentId.get(p) as number,
        amountCents: amountOf(s, t.share),
        approvalDate: t.approvalDate,
        createdAt: t.createdAt,
        updatedAt: t.createdAt,
      })),
    );
  await tx.insert(subscriptionEvents).values(
    allEvents.map(({ s, e }, i) => ({
      id: eventIds[i] as number,
      tenantId: s.tenantId,
      subscriptionId: subId.get(s) as number,
      event: e.event,
      fromStatus: e.from,
      toStatus: e.to,
      actorKind: e.actor.kind,
      actorId: e.actor.id,
      actorName: e.actor.name,
      reason: e.reason,
      at: e.at,
    })),
  );

  // Issue 30: trials, coupons, pauses, plan changes and one-off charges at Demo Srl.
  const demoSeller = sellers.get(demoId);
  if (!demoSeller) throw new Error('demo seed: no fiscal profile for Demo Srl');
  await seedDemoLifecycle(tx, {
    now,
    tenantId: demoId,
    admin: { id: demoAdmin.id, name: demoAdmin.name },
    plan: (name) => planOf(demoId, name),
    customers: demoCustomers
      .filter((c) => c.countryCode === 'IT' && !fixed.has(c.email))
      .map((c) => {
        const userId = userRows.find((u) => u.email === c.email)?.id ?? -1;
        return {
          email: c.email,
          userId,
          planIds: allSubs.filter((s) => s.customer === c.email).map((s) => s.plan.id),
        };
      })
      .filter((c) => c.userId !== -1),
    seller: demoSeller,
    customer: (userId) => {
      const profile = members.get(`${demoId}|${userId}`);
      if (!profile) throw new Error(`demo seed: no fiscal profile for customer ${userId}`);
      return profile;
    },
    nextIds: (table, n) => nextIds(tx, table, n),
  });
}
