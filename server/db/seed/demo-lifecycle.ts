/**
 * Issue 30 in the demo: Demo Srl's year also shows what happens to a subscription after its first
 * payment — trials, coupons, pauses of collection, plan changes and one-off charges. Part of the
 * one-time 'demo' seed step (demo-billing.ts calls it after the year of billing, in its
 * transaction), with a generator of its own so the rest of the demo stays as it was.
 *
 * The services cannot run at past dates inside the seed (the infrastructure imports no module and
 * their units publish to consumers the seed has not), so every row is written exactly as the
 * service writes it at that moment, with the same computations:
 * - trials (modules/billing/trials.ts): Basic offers 14 days; `createSubscription` on it writes
 *   'create' + 'startTrial', start = next billing date = `trial_ends_at`, the first payment the
 *   period from that end, unpaid. Running ones (one reminded by the job 3 days before the end:
 *   `subscription_reminders` kind 'trial'); converted ones (the link paid with PayPal: 'pay',
 *   'trialConverted', then PayPal's renewals); expired ones (the job: 'trialExpired', NotActive).
 * - coupons (db/coupons.ts redeemCoupon): `times_redeemed`, a redemption with the discount copied,
 *   each discounted payment carrying it (its amount the discounted net to pay: periodDocument with
 *   the discount), `periods_left` down by one per paid period, the amount due full again at 0.
 * - pauses (pause.service.ts): a running one (`pause_from` = the next billing date B, `paused_until`
 *   = U, next billing date U, no payment for the paused periods) and one resumed early ('Riprendi
 *   ora': the pause cleared, the next billing date the end of the paused period then in course).
 * - plan changes (plan-change.service.ts): an upgrade 'now' on a bank-transfer subscription (prorate
 *   + planChangeDocuments, the proration payment, 'Segna come pagato' days later; the partial TD04
 *   is issued by the real `creditNoteForPlanChange` at the change's moment, demo-invoices.ts) and a
 *   downgrade scheduled at the next renewal.
 * - one-off charges (one-off-charge.service.ts, 'Subito'): one paid with 'Segna come pagato', one
 *   pending with its unpaid payment.
 * Invoices are all issued afterwards by the real `issueInvoiceForPayment` (demo-invoices.ts), which
 * refuses any payment whose amount is not its document's: the seed rolls back rather than show a
 * wrong figure.
 */
import { TZDate } from '@date-fns/tz';
import { addMonthsClamped } from '../../../contract/billing-dates';
import {
  computeDocument,
  discountedLine,
  type LineDiscount,
} from '../../../contract/invoice/fiscal-document';
import { planChangeDocuments } from '../../../contract/invoice/plan-change';
import type { CustomerProfile, SellerProfile } from '../../../contract/invoice/fiscal-document';
import { toCents, toPercentHundredths, type Cents } from '../../../contract/money';
import { sql } from 'drizzle-orm';
import { changePlanMessages, prorate } from '../../../contract/proration';
import { causaleOf } from '../../../contract/schemas/payment';
import {
  SubscriptionStatus as S,
  transition,
  type ActorKind,
  type HistoryOnlyEvent,
  type SubscriptionEvent,
  type SubscriptionStatusId,
} from '../../../contract/subscription-status';
import {
  bankTransfers,
  collectionEvents,
  couponRedemptions,
  coupons,
  oneOffCharges,
  payments,
  planChanges,
  planFeatures,
  plans,
  subscriptionEvents,
  subscriptionReminders,
  subscriptions,
} from '../schema';
import { periodDocument } from '../fiscal-profiles';
import type { Database } from '../client';
import { DAY, HOUR, MINUTE, generator, type Random } from './demo-fixtures';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface LifecyclePlan {
  id: number;
  name: string;
  cost: Cents;
  vat: number;
  natura: string | null;
  months: number;
}

export interface LifecycleInput {
  now: Date;
  tenantId: number;
  admin: { id: string | null; name: string | null };
  plan: (name: string) => LifecyclePlan;
  /** Customers of the tenant to draw from, with the plans they already have. */
  customers: readonly { email: string; userId: number; planIds: readonly number[] }[];
  seller: SellerProfile;
  customer: (userId: number) => CustomerProfile;
  /** The sequence-allocating helper of demo-billing.ts. */
  nextIds: (table: string, n: number) => Promise<number[]>;
}

/** Plus's trial, as the plan form's 'Giorni di prova' sets it. */
export const DEMO_TRIAL_DAYS = 14;

/**
 * Demo Srl's plan with a trial: 'Plus', added during the year (the three older plans have none,
 * so what the tests and the screens know of them stays as it was).
 */
export const DEMO_TRIAL_PLAN = {
  name: 'Plus',
  cost: '19.90',
  recurrenceType: 1,
  features: [
    ['Tutti i contenuti', 'Libreria completa, nuovi contenuti ogni settimana'],
    ['Supporto via email', 'Risposta entro 2 giorni lavorativi'],
  ],
} as const;

/** The demo's coupon codes (Demo Srl), as the tests that create their own coupons leave them aside. */
export const DEMO_COUPON_CODES = ['PROMO20', 'SALDI10', 'RINNOVO15', 'PARTNER50'] as const;

async function insertTrialPlan(tx: Tx, tenantId: number, createdAt: Date): Promise<LifecyclePlan> {
  const [row] = await tx
    .insert(plans)
    .values({
      tenantId,
      name: DEMO_TRIAL_PLAN.name,
      recurringCostBeforeVat: DEMO_TRIAL_PLAN.cost,
      recurrenceType: DEMO_TRIAL_PLAN.recurrenceType,
      trialDays: DEMO_TRIAL_DAYS,
      createdAt,
      updatedAt: createdAt,
    })
    .returning({ id: plans.id, vat: plans.vatPercentage });
  if (!row) throw new Error('demo seed: the trial plan was not stored');
  await tx.insert(planFeatures).values(
    DEMO_TRIAL_PLAN.features.map(([featureName, description]) => ({
      tenantId,
      planId: row.id,
      featureName,
      description,
    })),
  );
  return {
    id: row.id,
    name: DEMO_TRIAL_PLAN.name,
    cost: toCents(DEMO_TRIAL_PLAN.cost),
    vat: toPercentHundredths(row.vat),
    natura: null,
    months: DEMO_TRIAL_PLAN.recurrenceType,
  };
}
const ROME = 'Europe/Rome';

type Actor =
  | { kind: 'user'; id: string | null; name: string | null }
  | { kind: 'provider'; id: string | null; name: string }
  | { kind: 'system'; id: null; name: string }
  | { kind: 'paymentToken'; id: null; name: string };

interface Ev {
  event: SubscriptionEvent | HistoryOnlyEvent | 'create';
  from: SubscriptionStatusId | null;
  to: SubscriptionStatusId;
  actor: Actor;
  reason: string | null;
  at: Date;
}

interface Pay {
  periodStart: Date;
  periodEnd: Date;
  amount: Cents;
  method: string | null;
  providerSubscriptionId: string | null;
  paidAt: Date | null;
  createdAt: Date;
  discounted: boolean;
  /** Paid with 'Segna come pagato' (a bank transfer approved, the collection's 'markedPaid'). */
  markedPaid: boolean;
  /** A bank transfer approved when paid (a confirmed transfer). */
  transfer: boolean;
  planChange: PlanChangeRow | null;
  oneOff: ChargeRow | null;
}

interface PlanChangeRow {
  fromPlanId: number;
  toPlanId: number;
  whenKind: 'now' | 'renewal';
  effectiveAt: Date;
  status: 'applied' | 'scheduled';
  cost: Cents;
  vat: number;
  due: Cents;
  proration: { totalDays: number; unusedDays: number; creditCents: Cents; chargeCents: Cents } | null;
  offsetCents: Cents;
  residualCreditCents: Cents;
  credited: Pay | null;
  createdAt: Date;
  /**
   * An applied change: the terms before it. The subscription is stored with them; the demo's
   * invoicer (demo-invoices.ts) switches them at the change's moment, as applyPrepared does, so the
   * invoices before it are the old plan's.
   */
  before: { plan: LifecyclePlan; due: Cents } | null;
}

interface ChargeRow {
  description: string;
  quantity: number;
  unitPriceCents: Cents;
  amount: Cents;
  createdAt: Date;
  paidAt: Date | null;
}

interface Sub {
  userId: number;
  plan: LifecyclePlan;
  status: SubscriptionStatusId;
  startDate: Date;
  nextBillingDate: Date;
  due: Cents;
  /** One period's net to pay without a coupon. */
  fullDue: Cents;
  trial: { endsAt: Date; state: 'running' | 'converted' | 'expired'; remindedAt: Date | null } | null;
  pause: { from: Date; until: Date; periods: number } | null;
  coupon: { code: string; periodsLeft: number | null; at: Date } | null;
  pays: Pay[];
  events: Ev[];
  changes: PlanChangeRow[];
  createdAt: Date;
}

const kindOf = (a: Actor): ActorKind =>
  a.kind === 'user' ? 'admin' : a.kind === 'paymentToken' ? 'customer' : a.kind;

/** The next run at hh:mm Rome time at or after `at` (a daily job's run). */
function nextRomeRun(at: Date, hour: number, minute: number): Date {
  const z = new TZDate(at.getTime(), ROME);
  let run = new TZDate(z.getFullYear(), z.getMonth(), z.getDate(), hour, minute, 0, ROME);
  if (run.getTime() < at.getTime()) run = new TZDate(run.getTime() + DAY, ROME);
  const fixed = new TZDate(run.getFullYear(), run.getMonth(), run.getDate(), hour, minute, 0, ROME);
  return new Date(fixed.getTime());
}

const romeDay = (d: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: ROME,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(d);
const italianDate = (d: Date) =>
  new Intl.DateTimeFormat('it-IT', {
    timeZone: ROME,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(d);
const eur = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

/**
 * Whether the database has the tables of these stories. A database of a release before issue 30
 * has not (tests/server/tenancy/split.test.ts seeds one with this release's seed, to split it
 * after this release's migrations): its year is the one that release seeded, without them.
 */
export async function hasLifecycleTables(tx: Pick<Tx, 'execute'>): Promise<boolean> {
  const result = await tx.execute<{ ok: boolean }>(
    sql`select (to_regclass('public.coupons') is not null and to_regclass('public.plan_changes') is not null and to_regclass('public.one_off_charges') is not null and to_regclass('public.collection_events') is not null and to_regclass('public.subscription_reminders') is not null) as ok`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { ok: boolean }[] }).rows) as {
    ok: boolean;
  }[];
  return rows[0]?.ok === true;
}

export async function seedDemoLifecycle(tx: Tx, input: LifecycleInput): Promise<void> {
  if (!(await hasLifecycleTables(tx))) return;
  const { now, seller } = input;
  const random: Random = generator(20_260_130);
  const admin: Actor = { kind: 'user', ...input.admin };
  const paypal = (id: string): Actor => ({ kind: 'provider', id, name: 'paypal' });
  const basic = input.plan('Basic');
  const plus = await insertTrialPlan(tx, input.tenantId, new Date(now.getTime() - 300 * DAY));
  const pro = input.plan('Pro');
  const enterprise = input.plan('Enterprise');
  const at = (days: number) => {
    const d = new Date(now.getTime() - days * DAY);
    d.setUTCHours(random.int(8, 15), random.int(0, 59), 0, 0);
    return d;
  };

  // Customers: each story takes the next one that has no subscription on its plan.
  const used = new Set<number>();
  const customerFor = (plan: LifecyclePlan) => {
    const c = input.customers.find((x) => !used.has(x.userId) && !x.planIds.includes(plan.id));
    if (!c) throw new Error(`demo seed: no customer left for a ${plan.name} story`);
    used.add(c.userId);
    return c.userId;
  };
  const amountOf = (userId: number, plan: LifecyclePlan, discount: LineDiscount | null = null) =>
    periodDocument(seller, input.customer(userId), {
      description: plan.name,
      costCents: plan.cost,
      vat: plan.vat,
      natura: plan.vat === 0 ? (plan.natura as never) : null,
      discount,
    }).netToPayCents;

  const subs: Sub[] = [];
  const open = (plan: LifecyclePlan, createdAt: Date): Sub => {
    const userId = customerFor(plan);
    const s: Sub = {
      userId,
      plan,
      status: S.NotActive,
      startDate: createdAt,
      nextBillingDate: addMonthsClamped(createdAt, plan.months),
      due: amountOf(userId, plan),
      fullDue: amountOf(userId, plan),
      trial: null,
      pause: null,
      coupon: null,
      pays: [],
      events: [],
      changes: [],
      createdAt,
    };
    record(s, 'create', admin, createdAt);
    subs.push(s);
    return s;
  };
  function record(s: Sub, event: Ev['event'], actor: Actor, when: Date, reason: string | null = null) {
    if (when.getTime() > now.getTime()) throw new Error(`demo seed: ${event} would be in the future`);
    let to = s.status;
    const history = [
      'changePlan',
      'schedulePlanChange',
      'pauseCollection',
      'resumeCollection',
      'pauseEnded',
      'oneOffCharge',
      'trialConverted',
    ].includes(event);
    if (event === 'create') to = S.NotActive;
    else if (!history) {
      const moved = transition(s.status, event as SubscriptionEvent, kindOf(actor));
      if (moved === null) throw new Error(`demo seed: ${event} is not allowed from status ${s.status}`);
      to = moved;
    }
    s.events.push({ event, from: event === 'create' ? null : s.status, to, actor, reason, at: when });
    s.status = to;
  }
  const pay = (s: Sub, start: Date, extra: Partial<Pay> = {}): Pay => {
    const p: Pay = {
      periodStart: start,
      periodEnd: addMonthsClamped(s.startDate, monthsFromStart(s, start) + s.plan.months),
      amount: s.due,
      method: null,
      providerSubscriptionId: null,
      paidAt: null,
      createdAt: start,
      discounted: false,
      markedPaid: false,
      transfer: false,
      planChange: null,
      oneOff: null,
      ...extra,
    };
    s.pays.push(p);
    return p;
  };
  const monthsFromStart = (s: Sub, start: Date) => {
    let k = 0;
    while (addMonthsClamped(s.startDate, k).getTime() < start.getTime()) k++;
    return k;
  };
  const providerId = () => `I-DEMO${random.digits(4)}LC${random.digits(4)}`;

  /**
   * PayPal's renewals: a paid period at each period start up to now (from period `from`), leaving
   * out those in `skip` (paused); the next billing date the first period start after now. A coupon
   * discounts the first paid periods while it lasts.
   */
  const renewByPayPal = (s: Sub, id: string, from: number, skip: (start: Date) => boolean = () => false) => {
    let k = from;
    for (;;) {
      const start = addMonthsClamped(s.startDate, k * s.plan.months);
      if (start.getTime() > now.getTime()) {
        s.nextBillingDate = start;
        break;
      }
      if (!skip(start)) couponPay(s, start, { method: 'paypal', providerSubscriptionId: id, paidAt: start });
      k++;
    }
  };
  /** A period's payment, discounted while the coupon has periods left (forever: always). */
  const couponPay = (s: Sub, start: Date, extra: Partial<Pay>) => {
    const c = s.coupon;
    const discounted = c !== null && (c.periodsLeft === null || c.periodsLeft > 0);
    const p = pay(s, start, { ...extra, discounted, amount: discounted ? discountedDue(s) : s.fullDue });
    if (discounted && c && c.periodsLeft !== null && p.paidAt) c.periodsLeft--;
    s.due = c && (c.periodsLeft === null || c.periodsLeft > 0) ? discountedDue(s) : s.fullDue;
    return p;
  };
  const couponDiscounts = new Map<string, LineDiscount>();
  const discountedDue = (s: Sub) =>
    amountOf(s.userId, s.plan, s.coupon ? (couponDiscounts.get(s.coupon.code) ?? null) : null);

  // ---------------------------------------------------------------------------------------------
  // Trials on Plus (14 days).
  const startTrial = (createdAt: Date): Sub => {
    const s = open(plus, createdAt);
    const endsAt = trialEndOf(createdAt);
    s.startDate = endsAt;
    s.nextBillingDate = endsAt;
    s.trial = { endsAt, state: 'running', remindedAt: null };
    record(s, 'startTrial', admin, createdAt, `Prova gratuita di ${DEMO_TRIAL_DAYS} giorni`);
    pay(s, endsAt, { createdAt });
    return s;
  };
  const trialEndOf = (start: Date) => {
    const z = new TZDate(start.getTime(), ROME);
    return new Date(
      new TZDate(
        z.getFullYear(),
        z.getMonth(),
        z.getDate() + DEMO_TRIAL_DAYS,
        z.getHours(),
        z.getMinutes(),
        z.getSeconds(),
        ROME,
      ).getTime(),
    );
  };
  /** The trials job's reminder (09:15 Rome), at its first run within 3 days of the end. */
  const remind = (s: Sub) => {
    if (!s.trial) return;
    const sent = nextRomeRun(new Date(s.trial.endsAt.getTime() - 3 * DAY), 9, 15);
    if (sent.getTime() <= now.getTime()) s.trial.remindedAt = sent;
  };
  // Running: ending in 1 day (reminded), 4 days and 10 days.
  remind(startTrial(at(13)));
  startTrial(at(10));
  startTrial(at(4));
  // Converted: the first payment's link paid with PayPal during the trial, then PayPal renews.
  for (const days of [150, 96, 68]) {
    const s = startTrial(at(days));
    const trial = s.trial!;
    const paidAt = new Date(s.createdAt.getTime() + random.int(6, 10) * DAY + random.int(1, 300) * MINUTE);
    const id = providerId();
    const first = s.pays[0]!;
    first.method = 'paypal';
    first.providerSubscriptionId = id;
    first.paidAt = paidAt;
    record(s, 'pay', { kind: 'paymentToken', id: null, name: 'Cliente (link di pagamento)' }, paidAt);
    trial.state = 'converted';
    record(
      s,
      'trialConverted',
      { kind: 'paymentToken', id: null, name: 'Cliente (link di pagamento)' },
      paidAt,
    );
    renewByPayPal(s, id, 1);
  }
  // Expired: reminded, then at the job's first run after the end, unpaid: NotActive.
  for (const days of [150, 38]) {
    const s = startTrial(at(days));
    remind(s);
    const endedAt = nextRomeRun(s.trial!.endsAt, 9, 15);
    s.trial!.state = 'expired';
    record(
      s,
      'trialExpired',
      { kind: 'system', id: null, name: 'trials' },
      endedAt,
      'Periodo di prova terminato senza il primo pagamento',
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Coupons.
  const couponDefs = [
    {
      code: 'PROMO20',
      percentOff: 2000,
      amountOff: null,
      duration: 'once',
      periods: null,
      planIds: [],
      expires: null,
      max: null,
      days: 320,
    },
    {
      code: 'SALDI10',
      percentOff: null,
      amountOff: 1000,
      duration: 'repeating',
      periods: 3,
      planIds: [basic.id, pro.id],
      expires: 130,
      max: null,
      days: 200,
    },
    {
      code: 'RINNOVO15',
      percentOff: 1500,
      amountOff: null,
      duration: 'forever',
      periods: null,
      planIds: [],
      expires: null,
      max: 2,
      days: 260,
    },
    {
      code: 'PARTNER50',
      percentOff: null,
      amountOff: 5000,
      duration: 'once',
      periods: null,
      planIds: [enterprise.id],
      expires: -60,
      max: 10,
      days: 15,
    },
  ] as const;
  if (couponDefs.map((c) => c.code).join() !== DEMO_COUPON_CODES.join())
    throw new Error('demo seed: DEMO_COUPON_CODES lists other codes');
  for (const c of couponDefs)
    couponDiscounts.set(
      c.code,
      c.percentOff !== null ? { percentOff: c.percentOff } : { amountOffCents: c.amountOff! },
    );
  const periodsOf = (code: string) => {
    const c = couponDefs.find((d) => d.code === code)!;
    return c.duration === 'forever' ? null : c.duration === 'once' ? 1 : c.periods;
  };
  const redeemed = new Map<string, number>();
  /** A PayPal subscription created with a coupon (Create's `couponCode`), activated by PayPal. */
  const withCoupon = (plan: LifecyclePlan, code: string, days: number) => {
    const s = open(plan, at(days));
    s.coupon = { code, periodsLeft: periodsOf(code), at: s.createdAt };
    s.due = discountedDue(s);
    redeemed.set(code, (redeemed.get(code) ?? 0) + 1);
    const id = providerId();
    const activatedAt = new Date(s.createdAt.getTime() + random.int(5, 90) * MINUTE);
    record(s, 'providerActivated', paypal(`WH-DEMO-${id.slice(6)}`), activatedAt);
    const first = couponPay(s, s.startDate, {
      method: 'paypal',
      providerSubscriptionId: id,
      paidAt: activatedAt,
    });
    first.createdAt = s.createdAt;
    renewByPayPal(s, id, 1);
    return s;
  };
  withCoupon(pro, 'PROMO20', 100);
  withCoupon(basic, 'PROMO20', 21);
  withCoupon(pro, 'SALDI10', 160);
  withCoupon(basic, 'RINNOVO15', 130);
  withCoupon(enterprise, 'RINNOVO15', 50);

  // ---------------------------------------------------------------------------------------------
  // Pauses of collection (PayPal subscriptions: PayPal suspended and re-activated).
  const paypalSub = (plan: LifecyclePlan, days: number) => {
    const s = open(plan, at(days));
    const id = providerId();
    const activatedAt = new Date(s.createdAt.getTime() + random.int(5, 90) * MINUTE);
    record(s, 'providerActivated', paypal(`WH-DEMO-${id.slice(6)}`), activatedAt);
    const first = pay(s, s.startDate, { method: 'paypal', providerSubscriptionId: id, paidAt: activatedAt });
    first.createdAt = s.createdAt;
    return { s, id };
  };
  const pauseReason = (periods: number, from: Date, until: Date) =>
    `Incasso sospeso per ${periods} ${periods === 1 ? 'periodo' : 'periodi'} dal ${italianDate(from)} al ${italianDate(until)}; funzionalità mantenute`;
  {
    // Running: paused 6 days ago for 2 periods from the next billing date.
    const { s, id } = paypalSub(pro, 128);
    const pausedAt = at(6);
    let k = 1;
    while (addMonthsClamped(s.startDate, k).getTime() <= pausedAt.getTime()) k++;
    const from = addMonthsClamped(s.startDate, k);
    const until = addMonthsClamped(s.startDate, k + 2);
    for (let i = 1; i < k; i++)
      couponPay(s, addMonthsClamped(s.startDate, i), {
        method: 'paypal',
        providerSubscriptionId: id,
        paidAt: addMonthsClamped(s.startDate, i),
      });
    s.pause = { from, until, periods: 2 };
    s.nextBillingDate = until;
    record(s, 'pauseCollection', admin, pausedAt, pauseReason(2, from, until));
  }
  {
    // Paused for 3 periods, resumed early ('Riprendi ora') within the second.
    const { s, id } = paypalSub(basic, 250);
    const pausedAt = at(175);
    let k = 1;
    while (addMonthsClamped(s.startDate, k).getTime() <= pausedAt.getTime()) k++;
    const from = addMonthsClamped(s.startDate, k);
    const until = addMonthsClamped(s.startDate, k + 3);
    const resumedAt = new Date(addMonthsClamped(s.startDate, k + 1).getTime() + random.int(3, 12) * DAY);
    const next = addMonthsClamped(s.startDate, k + 2);
    record(s, 'pauseCollection', admin, pausedAt, pauseReason(3, from, until));
    record(
      s,
      'resumeCollection',
      admin,
      resumedAt,
      `Incasso ripreso prima della fine della sospensione (prevista il ${italianDate(until)}); prossimo addebito il ${italianDate(next)}`,
    );
    renewByPayPal(s, id, 1, (start) => start.getTime() >= from.getTime() && start.getTime() < next.getTime());
  }

  // ---------------------------------------------------------------------------------------------
  // Plan changes.
  /** A bank-transfer subscription: transfer received and confirmed (ActiveNoRenewal). */
  const transferSub = (plan: LifecyclePlan, days: number) => {
    const s = open(plan, at(days));
    const setAt = new Date(s.createdAt.getTime() + random.int(1, 5) * HOUR);
    record(s, 'setBankTransfer', admin, setAt);
    const receivedAt = new Date(setAt.getTime() + random.int(1, 3) * DAY);
    const p = pay(s, s.startDate, { method: 'bankTransfer', paidAt: receivedAt, transfer: true });
    p.createdAt = s.createdAt;
    record(s, 'confirmBankTransfer', admin, new Date(receivedAt.getTime() + random.int(1, 4) * HOUR));
    return { s, p };
  };
  {
    // Basic → Pro 'now' on the ninth day of the period: TD04 of Basic's unused days, TD01 of Pro's.
    const { s, p: current } = transferSub(basic, 24);
    const changeAt = new Date(current.paidAt!.getTime() + random.int(6, 8) * DAY + random.int(1, 5) * HOUR);
    const customer = input.customer(s.userId);
    const oldAmountCents = discountedLine({
      description: basic.name,
      quantity: 1,
      unitPriceCents: s.plan.cost,
    }).totalCents;
    const proration = prorate({
      periodStart: current.periodStart,
      periodEnd: s.nextBillingDate,
      changeAt,
      oldAmountCents,
      newPriceCents: pro.cost,
    });
    const docs = planChangeDocuments({
      seller,
      customer,
      proration,
      oldPlan: { name: basic.name, vat: basic.vat, natura: null },
      newPlan: { name: pro.name, vat: pro.vat, natura: null },
    });
    if (!docs.credit || !docs.charge) throw new Error('demo seed: the upgrade has no credit or no charge');
    const change: PlanChangeRow = {
      fromPlanId: basic.id,
      toPlanId: pro.id,
      whenKind: 'now',
      effectiveAt: changeAt,
      status: 'applied',
      cost: pro.cost,
      vat: pro.vat,
      due: amountOf(s.userId, pro),
      proration: {
        totalDays: proration.totalDays,
        unusedDays: proration.unusedDays,
        creditCents: proration.creditCents,
        chargeCents: proration.chargeCents,
      },
      offsetCents: Math.min(docs.credit.netToPayCents, docs.charge.netToPayCents),
      residualCreditCents: docs.residualCreditCents,
      credited: current,
      createdAt: changeAt,
      before: { plan: basic, due: s.due },
    };
    s.changes.push(change);
    s.plan = pro;
    s.due = s.fullDue = change.due;
    record(s, 'changePlan', admin, changeAt, changePlanMessages.appliedReason(basic.name, pro.name));
    // The proration, paid with 'Segna come pagato' a few days later.
    const paidAt = new Date(changeAt.getTime() + random.int(2, 4) * DAY);
    s.pays.push({
      periodStart: changeAt,
      periodEnd: s.nextBillingDate,
      amount: docs.amountDueCents,
      method: 'bankTransfer',
      providerSubscriptionId: null,
      paidAt: paidAt.getTime() < now.getTime() ? paidAt : new Date(now.getTime() - HOUR),
      createdAt: changeAt,
      discounted: false,
      markedPaid: true,
      transfer: false,
      planChange: change,
      oneOff: null,
    });
  }
  {
    // Pro → Basic scheduled at the next renewal (a downgrade waits for the period it paid to end).
    const { s, id } = paypalSub(pro, 72);
    renewByPayPal(s, id, 1);
    const scheduledAt = at(3);
    s.changes.push({
      fromPlanId: pro.id,
      toPlanId: basic.id,
      whenKind: 'renewal',
      effectiveAt: s.nextBillingDate,
      status: 'scheduled',
      cost: basic.cost,
      vat: basic.vat,
      due: amountOf(s.userId, basic),
      proration: null,
      offsetCents: 0,
      residualCreditCents: 0,
      credited: null,
      createdAt: scheduledAt,
      before: null,
    });
    record(
      s,
      'schedulePlanChange',
      admin,
      scheduledAt,
      changePlanMessages.scheduledReason(pro.name, basic.name, italianDate(s.nextBillingDate)),
    );
  }

  // ---------------------------------------------------------------------------------------------
  // One-off charges ('Subito') on a yearly bank-transfer subscription.
  {
    const { s } = transferSub(enterprise, 140);
    const charge = (
      description: string,
      quantity: number,
      unitPriceCents: Cents,
      createdAt: Date,
      paidAt: Date | null,
    ) => {
      // oneOffDocument's computation: the charge's line at the subscription's VAT.
      const amount = computeDocument({
        seller,
        customer: input.customer(s.userId),
        charges: [{ description, quantity, unitPriceCents }],
        plan: { vat: s.plan.vat, natura: null },
      }).netToPayCents;
      const c: ChargeRow = { description, quantity, unitPriceCents, amount, createdAt, paidAt };
      s.pays.push({
        periodStart: createdAt,
        periodEnd: createdAt,
        amount,
        method: paidAt ? 'bankTransfer' : null,
        providerSubscriptionId: null,
        paidAt,
        createdAt,
        discounted: false,
        markedPaid: paidAt !== null,
        transfer: false,
        planChange: null,
        oneOff: c,
      });
      record(
        s,
        'oneOffCharge',
        admin,
        createdAt,
        `«${description}» × ${quantity}: ${eur(amount)} € da incassare subito`,
      );
    };
    const trainingAt = at(62);
    charge('Formazione on-site (giornata)', 2, 45_000, trainingAt, at(55));
    charge('Migrazione dati dal gestionale precedente', 1, 30_000, at(2), null);
  }

  await insertAll(tx, input, subs, couponDefs, redeemed, now);
}

async function insertAll(
  tx: Tx,
  input: LifecycleInput,
  subs: Sub[],
  couponDefs: readonly {
    code: string;
    percentOff: number | null;
    amountOff: number | null;
    duration: string;
    periods: number | null;
    planIds: readonly number[];
    expires: number | null;
    max: number | null;
    days: number;
  }[],
  redeemed: ReadonlyMap<string, number>,
  now: Date,
): Promise<void> {
  const { tenantId } = input;
  subs.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const allPays = subs
    .flatMap((s) => s.pays.map((p) => ({ s, p })))
    .sort((a, b) => a.p.createdAt.getTime() - b.p.createdAt.getTime());
  const allEvents = subs
    .flatMap((s) => s.events.map((e) => ({ s, e })))
    .sort((a, b) => a.e.at.getTime() - b.e.at.getTime());
  const allChanges = subs.flatMap((s) => s.changes.map((c) => ({ s, c })));
  const charges = allPays.flatMap(({ s, p }) => (p.oneOff ? [{ s, p, c: p.oneOff }] : []));
  const withCoupon = subs.filter((s) => s.coupon);
  const [subIds, payIds, eventIds, couponIds, redemptionIds, changeIds, chargeIds] = [
    await input.nextIds('subscriptions', subs.length),
    await input.nextIds('payments', allPays.length),
    await input.nextIds('subscription_events', allEvents.length),
    await input.nextIds('coupons', couponDefs.length),
    await input.nextIds('coupon_redemptions', withCoupon.length),
    await input.nextIds('plan_changes', allChanges.length),
    await input.nextIds('one_off_charges', charges.length),
  ];
  const subId = new Map(subs.map((s, i) => [s, subIds[i]!]));
  const payId = new Map(allPays.map(({ p }, i) => [p, payIds[i]!]));
  const couponId = new Map(couponDefs.map((c, i) => [c.code, couponIds[i]!]));
  const redemptionId = new Map(withCoupon.map((s, i) => [s, redemptionIds[i]!]));
  const changeId = new Map(allChanges.map(({ c }, i) => [c, changeIds[i]!]));
  const chargeId = new Map(charges.map(({ c }, i) => [c, chargeIds[i]!]));

  await tx.insert(subscriptions).values(
    subs.map((s) => {
      const before = s.changes.find((c) => c.before)?.before;
      return {
        id: subId.get(s)!,
        tenantId,
        userId: s.userId,
        planId: (before?.plan ?? s.plan).id,
        status: s.status,
        startDate: s.startDate,
        nextBillingDate: s.nextBillingDate,
        costBeforeVatCents: (before?.plan ?? s.plan).cost,
        vatHundredths: (before?.plan ?? s.plan).vat,
        amountDueCents: before?.due ?? s.due,
        trialEndsAt: s.trial?.endsAt ?? null,
        trialState: s.trial?.state ?? null,
        pauseFrom: s.pause?.from ?? null,
        pausedUntil: s.pause?.until ?? null,
        pausePeriods: s.pause?.periods ?? null,
        pauseEntitlements: s.pause ? 'keep' : null,
        createdAt: s.createdAt,
        updatedAt: s.events[s.events.length - 1]?.at ?? s.createdAt,
      };
    }),
  );
  const dayOf = (daysAgo: number) => romeDay(new Date(now.getTime() - daysAgo * DAY));
  await tx.insert(coupons).values(
    couponDefs.map((c) => {
      const createdAt = new Date(now.getTime() - c.days * DAY);
      return {
        id: couponId.get(c.code)!,
        tenantId,
        code: c.code,
        percentOffHundredths: c.percentOff,
        amountOffCents: c.amountOff,
        duration: c.duration,
        durationPeriods: c.duration === 'repeating' ? c.periods : null,
        planIds: [...c.planIds],
        expiresAt: c.expires === null ? null : dayOf(c.expires),
        maxRedemptions: c.max,
        timesRedeemed: redeemed.get(c.code) ?? 0,
        createdAt,
        updatedAt: createdAt,
      };
    }),
  );
  if (withCoupon.length > 0)
    await tx.insert(couponRedemptions).values(
      withCoupon.map((s) => {
        const def = couponDefs.find((c) => c.code === s.coupon!.code)!;
        return {
          id: redemptionId.get(s)!,
          tenantId,
          couponId: couponId.get(def.code)!,
          subscriptionId: subId.get(s)!,
          percentOffHundredths: def.percentOff,
          amountOffCents: def.amountOff,
          periodsLeft: s.coupon!.periodsLeft,
          createdAt: s.coupon!.at,
        };
      }),
    );
  await tx.insert(payments).values(
    allPays.map(({ s, p }) => ({
      id: payId.get(p)!,
      tenantId,
      subscriptionId: subId.get(s)!,
      amountDueCents: p.amount,
      causale: causaleOf(tenantId, payId.get(p)!),
      periodStart: p.periodStart,
      periodEnd: p.periodEnd,
      method: p.method,
      providerSubscriptionId: p.providerSubscriptionId,
      paidAt: p.paidAt,
      couponRedemptionId: p.discounted ? redemptionId.get(s)! : null,
      planChangeId: p.planChange ? changeId.get(p.planChange)! : null,
      oneOffChargeId: p.oneOff ? chargeId.get(p.oneOff)! : null,
      createdAt: p.createdAt,
    })),
  );
  if (allChanges.length > 0)
    await tx.insert(planChanges).values(
      allChanges.map(({ s, c }) => {
        const proration = s.pays.find((p) => p.planChange === c);
        return {
          id: changeId.get(c)!,
          tenantId,
          subscriptionId: subId.get(s)!,
          fromPlanId: c.fromPlanId,
          toPlanId: c.toPlanId,
          whenKind: c.whenKind,
          effectiveAt: c.effectiveAt,
          status: c.status,
          costBeforeVatCents: c.cost,
          vatHundredths: c.vat,
          amountDueCents: c.due,
          totalDays: c.proration?.totalDays ?? null,
          unusedDays: c.proration?.unusedDays ?? null,
          creditCents: c.status === 'applied' ? (c.proration?.creditCents ?? 0) : null,
          chargeCents: c.status === 'applied' ? (c.proration?.chargeCents ?? 0) : null,
          offsetCents: c.status === 'applied' ? c.offsetCents : null,
          residualCreditCents: c.status === 'applied' ? c.residualCreditCents : null,
          prorationPaymentId: proration ? payId.get(proration)! : null,
          creditedPaymentId: c.credited ? payId.get(c.credited)! : null,
          createdAt: c.createdAt,
          appliedAt: c.status === 'applied' ? c.effectiveAt : null,
        };
      }),
    );
  if (charges.length > 0)
    await tx.insert(oneOffCharges).values(
      charges.map(({ s, p, c }) => ({
        id: chargeId.get(c)!,
        tenantId,
        subscriptionId: subId.get(s)!,
        description: c.description,
        quantity: c.quantity,
        unitPriceCents: c.unitPriceCents,
        collect: 'now',
        status: c.paidAt ? 'paid' : 'pending',
        amountDueCents: c.amount,
        paymentId: payId.get(p)!,
        createdAt: c.createdAt,
        paidAt: c.paidAt,
      })),
    );
  // Transfers: a confirmed transfer's, and 'Segna come pagato' (the amount due, approved then).
  const transfers = allPays.filter(({ p }) => p.paidAt && (p.transfer || p.markedPaid));
  if (transfers.length > 0) {
    const ids = await input.nextIds('bank_transfers', transfers.length);
    await tx.insert(bankTransfers).values(
      transfers.map(({ p }, i) => {
        const createdAt = p.markedPaid
          ? p.paidAt!
          : new Date(Math.min(p.paidAt!.getTime() + 30 * MINUTE, now.getTime()));
        return {
          id: ids[i]!,
          tenantId,
          paymentId: payId.get(p)!,
          amountCents: p.amount,
          approvalDate: p.paidAt,
          createdAt,
          updatedAt: createdAt,
        };
      }),
    );
  }
  const marked = allPays.filter(({ p }) => p.markedPaid && p.paidAt);
  if (marked.length > 0)
    await tx.insert(collectionEvents).values(
      marked.map(({ p }) => ({
        tenantId,
        paymentId: payId.get(p)!,
        kind: 'markedPaid',
        step: null,
        actorKind: 'user',
        actorName: input.admin.name,
        note: null,
        at: p.paidAt!,
      })),
    );
  const reminded = subs.filter((s) => s.trial?.remindedAt);
  if (reminded.length > 0)
    await tx.insert(subscriptionReminders).values(
      reminded.map((s) => ({
        tenantId,
        subscriptionId: subId.get(s)!,
        kind: 'trial',
        periodEnd: s.trial!.endsAt,
        sentAt: s.trial!.remindedAt!,
      })),
    );
  await tx.insert(subscriptionEvents).values(
    allEvents.map(({ s, e }, i) => ({
      id: eventIds[i]!,
      tenantId,
      subscriptionId: subId.get(s)!,
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
}
