/**
 * 'Cambia piano' (issue 30; api-contract 'Changes after the first payment'):
 * `POST api/subscription/changePlan/{id} {planId, when, preview}`.
 *
 * - preview: the proration (contract/proration.ts) and its two documents (contract/invoice/
 *   plan-change.ts) as `quote` answers them; nothing is written.
 * - when 'now' (or today's date): applied in the request's unit of work — the subscription's plan
 *   and agreed terms change, the partial credit note (TD04) of the unused days is issued against
 *   the period's invoice, the payment of the new plan's days (its TD01 issued when paid) is
 *   created unpaid and due today (amount: the charge's net less the credit note's), a history row
 *   'changePlan', the domain event 'subscription.planChanged' (outbound webhook
 *   'subscription.plan_changed'); entitlements read the subscription's plan, so they switch at once.
 * - when 'renewal' or a later day of the period: a scheduled row ('schedulePlanChange' in the
 *   history); the plan-changes job applies it on its day (`applyDuePlanChanges`), and a renewal
 *   recorded at or after its day applies it first, so the new period is the new price.
 * - between recurrences (monthly ↔ yearly…), as Stripe does (its anchor resets with the interval):
 *   made before the billing date, the unused days are credited as above and a whole new period of
 *   the new plan starts on the change day, charged in full; the billing date becomes the change day
 *   + the new recurrence and the periods' anchor (`start_date`, as a trial's end sets it) the change
 *   day. At the billing date: no proration, the new plan and recurrence from that date (the anchor
 *   moves to it). A renewal payment of the old plan already made for the period from the billing
 *   date is withdrawn with the change (at the billing date: when scheduled, and the renewal job
 *   asks the new plan's); paid or with a transfer recorded, the change is refused (409).
 *
 * Docs: docs/fiscal-rules.md 'Cambio di piano'; the provider's side: plan-change.provider.ts.
 */
import { recordPayPalRevision, type PayPalPlanRevision } from './paypal-plan-change';
import { and, asc, eq, gte, isNull, lte, ne, notExists, sql } from 'drizzle-orm';
import { addMonthsClamped, parseBillingDateTime, romeDay } from '../../../contract/billing-dates';
import { isNatura, type Natura } from '../../../contract/invoice/fatturapa';
import { discountedLine } from '../../../contract/invoice/fiscal-document';
import { toQuote } from '../../../contract/invoice/quote';
import {
  planChangeDocuments,
  planChangePreview,
  type PlanChangeDocuments,
  type PlanChangePreview,
} from '../../../contract/invoice/plan-change';
import { billingMessages, serverMessages } from '../../../contract/messages';
import { fromCents, toCents, toPercentHundredths } from '../../../contract/money';
import { changePlanMessages, prorate, type ChangeWhen } from '../../../contract/proration';
import { isLive } from '../../../contract/subscription-status';
import { discountOfPayment, redemptionOf } from '../../db/coupons';
import { customerProfileOf, periodDocument, sellerProfileOf } from '../../db/fiscal-profiles';
import { creditUsedBy, periodBilling } from '../../db/credits';
import {
  bankTransfers,
  couponRedemptions,
  invoices,
  payments,
  planChanges,
  plans,
  subscriptionReminders,
  subscriptions,
  tenants,
} from '../../db/schema';
import type { ScheduledPlanChange } from '../../../contract/schemas/subscription';
import { recurrenceTypeNames, type RecurrenceTypeId } from '../../../contract/schemas/plan';
import { HttpError } from '../../lib/http-error';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription, type SubscriptionRow } from './billing.repository';
import {
  insertPayment,
  recordHistory,
  subscriptionTermsWith,
  withdrawUnpaidPayments,
} from './subscription.service';
import { recordResidualCredit } from './subscription-credit';

function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, serverMessages.validation, { errors: [`${field}: ${message}`] });
}

interface PlanRow {
  id: number;
  name: string;
  cost: string;
  vat: string;
  recurrence: number;
  isActive: boolean;
  natura: string | null;
}

async function planOf(scope: TenantScope, planId: number): Promise<PlanRow | undefined> {
  const [plan] = await scope.tx
    .select({
      id: plans.id,
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      recurrence: plans.recurrenceType,
      isActive: plans.isActive,
      natura: plans.natura,
    })
    .from(plans)
    .where(and(eq(plans.tenantId, scope.tenantId), eq(plans.id, planId)));
  return plan;
}

/** The subscription's payment for the period ending at its next billing date (not a proration's). */
async function currentPeriodPayment(scope: TenantScope, sub: SubscriptionRow) {
  const rows = await scope.tx
    .select({
      id: payments.id,
      periodStart: payments.periodStart,
      periodEnd: payments.periodEnd,
      paidAt: payments.paidAt,
      method: payments.method,
      providerSubscriptionId: payments.providerSubscriptionId,
      couponRedemptionId: payments.couponRedemptionId,
      prorationOf: planChanges.id,
    })
    .from(payments)
    .leftJoin(
      planChanges,
      and(eq(planChanges.tenantId, payments.tenantId), eq(planChanges.prorationPaymentId, payments.id)),
    )
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, sub.id),
        eq(payments.periodEnd, sub.nextBillingDate),
      ),
    )
    .orderBy(asc(payments.id));
  // After a change between recurrences the period is the change's own new period: its payment is
  // the proration's (a whole period of the new plan, invoiced on its own TD01).
  return rows.find((r) => r.prorationOf === null) ?? rows[0];
}

/**
 * The renewal payment Rinnova already made for the period from the billing date (the renewal by
 * transfer or the renewal reminder 7 days before, a renewal link of the Admin or the dunning,
 * 'Passa al bonifico'), or null: a change of recurrence makes that period the old plan's no more,
 * so it is withdrawn with the change (`withdrawRenewal`). One already paid, or with a bank transfer
 * recorded (being confirmed, or part of it approved), is never touched: the change is refused
 * (409). One that used the customer's residual credit gives it back to the ledger, unless Stripe's
 * balance already gave it back (409: the credit would be counted twice).
 */
async function staleRenewalOf(scope: TenantScope, sub: SubscriptionRow) {
  const [row] = await scope.tx
    .select({ id: payments.id, paidAt: payments.paidAt })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, sub.id),
        eq(payments.periodStart, sub.nextBillingDate),
        isNull(payments.planChangeId),
        isNull(payments.oneOffChargeId),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(1);
  if (!row) return null;
  const day = italian(romeDay(sub.nextBillingDate));
  if (row.paidAt !== null) throw new HttpError(409, changePlanMessages.renewalPaid(day));
  const [transfer] = await scope.tx
    .select({ id: bankTransfers.id })
    .from(bankTransfers)
    .where(and(eq(bankTransfers.tenantId, scope.tenantId), eq(bankTransfers.paymentId, row.id)))
    .limit(1);
  if (transfer) throw new HttpError(409, changePlanMessages.renewalTransferRecorded(day));
  if ((await creditUsedBy(scope, row.id)) > 0 && (await periodBilling(scope, sub.id))?.method === 'stripe')
    throw new HttpError(409, changePlanMessages.renewalCreditAtStripe(day));
  return { id: row.id, day };
}

/**
 * Withdraws the stale renewal payment (`staleRenewalOf`) in the change's unit: the credit it used
 * back to the ledger, its links, collection history and the payment itself removed
 * (`withdrawUnpaidPayments`, as a pause does). With `reminderAgain` (a change at the billing date,
 * which keeps it) the renewal reminder's claim of that date goes too, so the renewal job makes the
 * period's payment again, the new plan's, and mails it.
 */
async function withdrawRenewal(
  w: UnitOfWork,
  sub: SubscriptionRow,
  paymentId: number,
  options: { reminderAgain: boolean },
): Promise<void> {
  await withdrawUnpaidPayments(w, [paymentId]);
  if (options.reminderAgain)
    await w.tx
      .delete(subscriptionReminders)
      .where(
        and(
          eq(subscriptionReminders.tenantId, w.tenantId),
          eq(subscriptionReminders.subscriptionId, sub.id),
          eq(subscriptionReminders.kind, 'renewal'),
          eq(subscriptionReminders.periodEnd, sub.nextBillingDate),
        ),
      );
}

/** A change of the subscription: its plan, when, and what it gives. */
export interface PreparedChange {
  sub: SubscriptionRow;
  fromPlan: PlanRow;
  toPlan: PlanRow;
  whenKind: 'now' | 'renewal' | 'date';
  effectiveAt: Date;
  /** Applied in this request (now, or today's date). */
  immediate: boolean;
  /** The new agreed terms and the net to pay of a whole period. */
  terms: { costCents: number; vat: number; natura: Natura | null; dueCents: number };
  /** The plans' recurrences differ: a change before the billing date starts a new period. */
  recurrenceChanges: boolean;
  /** The billing date once the change is made (moved by a change between recurrences). */
  nextBillingDate: Date;
  /** The documents of an immediate change (null for a scheduled one: computed when it applies). */
  docs: PlanChangeDocuments | null;
  /** The period's payment (whose invoice the credit note varies) and how it was paid. */
  current: NonNullable<Awaited<ReturnType<typeof currentPeriodPayment>>>;
  /** A change of recurrence: the renewal payment of the old plan made before it, to withdraw. */
  staleRenewal: { id: number; day: string } | null;
  preview: PlanChangePreview;
}

/**
 * Checks a change and computes it (nothing is written): 404 for a subscription or plan not of the
 * tenant; 409 unless Active/ActiveNoRenewal with its period paid; 400 on `planId` / `when`.
 */
export async function preparePlanChange(
  w: TenantScope & { now: Date },
  id: number,
  body: { planId: number; when: ChangeWhen },
  options: { lock?: boolean } = {},
): Promise<PreparedChange> {
  const sub = await findSubscription(w, id, { lock: options.lock ?? false });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  if (!isLive(sub.status)) throw new HttpError(409, changePlanMessages.notLive);
  const fromPlan = await planOf(w, sub.planId);
  const toPlan = await planOf(w, body.planId);
  if (!fromPlan) throw new HttpError(404, serverMessages.notFound);
  if (!toPlan) throw fieldError('planId', changePlanMessages.planRequired);
  if (toPlan.id === fromPlan.id) throw fieldError('planId', changePlanMessages.samePlan);
  if (!toPlan.isActive) throw fieldError('planId', billingMessages.planInactive);
  const recurrenceChanges = toPlan.recurrence !== fromPlan.recurrence;

  const [scheduled] = await w.tx
    .select({ effectiveAt: planChanges.effectiveAt })
    .from(planChanges)
    .where(
      and(
        eq(planChanges.tenantId, w.tenantId),
        eq(planChanges.subscriptionId, sub.id),
        eq(planChanges.status, 'scheduled'),
      ),
    );
  if (scheduled)
    throw new HttpError(409, changePlanMessages.alreadyScheduled(italian(romeDay(scheduled.effectiveAt))));

  const current = await currentPeriodPayment(w, sub);
  if (!current || current.paidAt === null) throw new HttpError(409, changePlanMessages.unpaidPeriod);
  // A proration still unpaid: one change at a time.
  const [unpaid] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .innerJoin(
      planChanges,
      and(eq(planChanges.tenantId, payments.tenantId), eq(planChanges.prorationPaymentId, payments.id)),
    )
    .where(
      and(eq(payments.tenantId, w.tenantId), eq(payments.subscriptionId, sub.id), isNull(payments.paidAt)),
    );
  if (unpaid) throw new HttpError(409, changePlanMessages.unpaidProration);

  const today = romeDay(w.now);
  const endDay = romeDay(sub.nextBillingDate);
  let whenKind: PreparedChange['whenKind'];
  let effectiveAt: Date;
  if (body.when === 'now') {
    whenKind = 'now';
    effectiveAt = w.now;
  } else if (body.when === 'renewal') {
    whenKind = 'renewal';
    effectiveAt = sub.nextBillingDate;
  } else {
    const day = body.when.date;
    if (day < today || day > endDay) throw fieldError('when', changePlanMessages.dateOutsidePeriod);
    whenKind = 'date';
    effectiveAt = day === today ? w.now : day === endDay ? sub.nextBillingDate : parseBillingDateTime(day)!;
  }
  const immediate = effectiveAt.getTime() <= w.now.getTime();
  const atRenewal = effectiveAt.getTime() >= sub.nextBillingDate.getTime();
  // A PayPal subscription's billing date cannot be moved (a revision keeps its cycle): its
  // recurrence changes at the billing date only.
  if (recurrenceChanges && !atRenewal && current.method === 'paypal' && current.providerSubscriptionId)
    throw fieldError('when', changePlanMessages.paypalRecurrenceAtRenewal);
  // The next period already paid (a renewal paid before its date moves the billing date to its
  // end): a change before that period starts would credit days not yet begun; it waits for the
  // paid period's end. A paid payment is never touched.
  if (!atRenewal && romeDay(current.periodStart) > romeDay(effectiveAt))
    throw new HttpError(409, changePlanMessages.renewalPaid(italian(romeDay(current.periodStart))));
  // The renewal payment already made for the period from the billing date is the old plan's:
  // withdrawn with the change (a change at the billing date too), or the change refused when it is
  // paid or a transfer is recorded. Between recurrences that period no longer exists; within the
  // recurrence the renewal job asks it again at the new plan's terms (before, it stayed at the old
  // plan's amount while its invoice would be the new plan's). Not for a change made when the
  // billing date has already passed (that period is the one in course).
  const staleRenewal = !atRenewal || !immediate ? await staleRenewalOf(w, sub) : null;
  // Between recurrences, before the billing date: a whole new period from the change day.
  const newPeriodEnd =
    recurrenceChanges && !atRenewal ? addMonthsClamped(effectiveAt, toPlan.recurrence) : undefined;

  const seller = await sellerProfileOf(w.tx, w.tenantId);
  const customer = await customerProfileOf(w.tx, w.tenantId, sub.userId);
  const costCents = toCents(toPlan.cost);
  const vat = toPercentHundredths(toPlan.vat);
  const natura = vat === 0 && isNatura(toPlan.natura) ? toPlan.natura : null;
  const nextPeriod = periodDocument(seller, customer, { description: toPlan.name, costCents, vat, natura });
  const terms = { costCents, vat, natura, dueCents: nextPeriod.netToPayCents };

  // The old period's amount: what its invoice charged for the fees (after its coupon, if any).
  const discount = await discountOfPayment(w, current.couponRedemptionId);
  const oldAmountCents = discountedLine({
    description: fromPlan.name,
    quantity: 1,
    unitPriceCents: sub.costBeforeVatCents,
    discount,
  }).totalCents;
  const proration = prorate({
    periodStart: current.periodStart,
    periodEnd: sub.nextBillingDate,
    changeAt: atRenewal ? sub.nextBillingDate : effectiveAt,
    oldAmountCents,
    newPriceCents: costCents,
    newPeriodEnd,
  });
  const docs = planChangeDocuments({
    seller,
    customer,
    proration,
    oldPlan: {
      name: fromPlan.name,
      vat: sub.vatHundredths,
      natura: sub.vatHundredths === 0 && isNatura(fromPlan.natura) ? fromPlan.natura : null,
    },
    newPlan: { name: toPlan.name, vat, natura },
  });
  if (immediate && docs.credit) {
    // One partial credit note per invoice: a second change within the period waits for the next.
    const [credited] = await w.tx
      .select({ id: invoices.id })
      .from(invoices)
      .innerJoin(
        planChanges,
        and(eq(planChanges.tenantId, invoices.tenantId), eq(planChanges.creditNoteId, invoices.id)),
      )
      .where(and(eq(invoices.tenantId, w.tenantId), eq(invoices.paymentId, current.id)));
    if (credited) throw new HttpError(409, changePlanMessages.oncePerPeriod);
  }
  const preview = planChangePreview(docs, {
    effective: whenKind,
    fromPlan: { id: fromPlan.id, name: fromPlan.name },
    toPlan: { id: toPlan.id, name: toPlan.name },
    nextPeriod: toQuote(nextPeriod),
    nextBillingDate: romeDay(newPeriodEnd ?? sub.nextBillingDate),
    recurrenceChanges,
  });
  return {
    sub,
    fromPlan,
    toPlan,
    whenKind,
    effectiveAt,
    immediate,
    terms,
    recurrenceChanges,
    nextBillingDate: newPeriodEnd ?? sub.nextBillingDate,
    docs: immediate ? docs : null,
    current,
    staleRenewal,
    preview,
  };
}

const italian = (day: string) => day.split('-').reverse().join('/');

/** What a change made answers: the preview's figures, and what was written. */
export interface PlanChangeOutcome {
  preview: PlanChangePreview;
  status: 'applied' | 'scheduled';
  planChangeId: number;
  prorationPaymentId: number | null;
  creditNote: { id: number; number: string } | null;
}

/** Makes the change (see the module's comment), in the caller's unit of work. */
export async function makePlanChange(
  w: UnitOfWork,
  id: number,
  body: { planId: number; when: ChangeWhen },
  /** PayPal's revise made before the unit (its plan and the buyer's approval link), or null. */
  paypalRevision: PayPalPlanRevision | null = null,
): Promise<PlanChangeOutcome> {
  const prepared = await preparePlanChange(w, id, body, { lock: true });
  if (!prepared.immediate) {
    const [row] = await w.tx
      .insert(planChanges)
      .values({
        tenantId: w.tenantId,
        subscriptionId: prepared.sub.id,
        fromPlanId: prepared.fromPlan.id,
        toPlanId: prepared.toPlan.id,
        whenKind: prepared.whenKind,
        effectiveAt: prepared.effectiveAt,
        status: 'scheduled',
        costBeforeVatCents: prepared.terms.costCents,
        vatHundredths: prepared.terms.vat,
        amountDueCents: prepared.terms.dueCents,
        createdAt: w.now,
      })
      .returning({ id: planChanges.id });
    await recordPayPalRevision(w, prepared.sub.id, row!.id, paypalRevision);
    // At the billing date: the renewal payment made before is the old plan's period; the renewal
    // job makes it again, the new plan's (a chosen day of the period withdraws it when the change
    // applies).
    const atRenewal = prepared.effectiveAt.getTime() >= prepared.sub.nextBillingDate.getTime();
    const withdrawn = atRenewal ? prepared.staleRenewal : null;
    if (withdrawn) await withdrawRenewal(w, prepared.sub, withdrawn.id, { reminderAgain: true });
    await recordHistory(
      w,
      prepared.sub,
      'schedulePlanChange',
      changePlanMessages.scheduledReason(
        prepared.fromPlan.name,
        prepared.toPlan.name,
        italian(romeDay(prepared.effectiveAt)),
      ) + (withdrawn ? `; ${changePlanMessages.renewalAskedAgain(withdrawn.day)}` : ''),
    );
    return {
      preview: prepared.preview,
      status: 'scheduled',
      planChangeId: row!.id,
      prorationPaymentId: null,
      creditNote: null,
    };
  }
  const [row] = await w.tx
    .insert(planChanges)
    .values({
      tenantId: w.tenantId,
      subscriptionId: prepared.sub.id,
      fromPlanId: prepared.fromPlan.id,
      toPlanId: prepared.toPlan.id,
      whenKind: prepared.whenKind,
      effectiveAt: prepared.effectiveAt,
      status: 'scheduled',
      costBeforeVatCents: prepared.terms.costCents,
      vatHundredths: prepared.terms.vat,
      amountDueCents: prepared.terms.dueCents,
      createdAt: w.now,
    })
    .returning({ id: planChanges.id });
  await recordPayPalRevision(w, prepared.sub.id, row!.id, paypalRevision);
  return applyPrepared(w, prepared, row!.id);
}

/**
 * The subscription's running coupon after its plan changed to `toPlan` (issue 30), in the change's
 * unit, the subscription's new terms already written: a coupon whose plans allow the new plan (or
 * any plan) keeps its periods left, and the amount due becomes the new plan's price discounted by
 * it (the redemption's stored percent or amount), so the later payments that carry it ask what
 * their invoices discount; a coupon not valid for the new plan ends (no period left) with a history
 * row 'couponEnded' naming it, and the new plan's full price is asked.
 */
async function couponOnNewPlan(
  w: UnitOfWork,
  sub: Pick<SubscriptionRow, 'id' | 'status'>,
  toPlan: { id: number; name: string },
): Promise<void> {
  const r = await redemptionOf(w, sub.id);
  if (!r || r.periodsLeft === 0) return;
  if (r.planIds.length > 0 && !r.planIds.includes(toPlan.id)) {
    await w.tx
      .update(couponRedemptions)
      .set({ periodsLeft: 0 })
      .where(and(eq(couponRedemptions.tenantId, w.tenantId), eq(couponRedemptions.id, r.id)));
    await recordHistory(w, sub, 'couponEnded', changePlanMessages.couponEnded(r.code, toPlan.name));
    return;
  }
  const terms = await findSubscription(w, sub.id);
  if (!terms) return;
  const { discounted } = await subscriptionTermsWith(w, terms, r.discount);
  await w.tx
    .update(subscriptions)
    .set({ amountDueCents: discounted.netToPayCents })
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
}

/** Applies a prepared, immediate change recorded as `planChangeId`. */
async function applyPrepared(
  w: UnitOfWork,
  prepared: PreparedChange,
  planChangeId: number,
): Promise<PlanChangeOutcome> {
  const { sub, docs, current, terms } = prepared;
  // Between recurrences a new period starts on the change day: the billing date and the periods'
  // anchor move (the later periods count from the change day, month-ends clamped).
  const newPeriod = docs?.proration.newPeriod === true;
  // The renewal payment of the old plan's next period, made before: between recurrences that period
  // no longer exists; within the recurrence the renewal job asks it again, the new plan's.
  const withdrawn = prepared.staleRenewal;
  if (withdrawn) await withdrawRenewal(w, sub, withdrawn.id, { reminderAgain: !newPeriod });
  await w.tx
    .update(subscriptions)
    .set({
      planId: prepared.toPlan.id,
      costBeforeVatCents: terms.costCents,
      vatHundredths: terms.vat,
      amountDueCents: terms.dueCents,
      ...(newPeriod ? { startDate: prepared.effectiveAt, nextBillingDate: prepared.nextBillingDate } : {}),
      updatedAt: w.now,
    })
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
  await couponOnNewPlan(w, sub, prepared.toPlan);

  let prorationPaymentId: number | null = null;
  let offsetCents = 0;
  if (docs?.period) {
    if (docs.credit) {
      // The credit varies the period's invoice: it must exist (the note is issued by invoicing
      // when the change is published, below).
      const [invoiced] = await w.tx
        .select({ id: invoices.id })
        .from(invoices)
        .where(
          and(
            eq(invoices.tenantId, w.tenantId),
            eq(invoices.paymentId, current.id),
            eq(invoices.documentType, 'TD01'),
          ),
        );
      if (!invoiced) throw new HttpError(409, changePlanMessages.invoiceMissing);
      offsetCents = Math.min(docs.credit.netToPayCents, docs.charge?.netToPayCents ?? 0);
    }
    if (docs.charge) {
      prorationPaymentId = await insertPayment(w, {
        subscriptionId: sub.id,
        amountDueCents: docs.amountDueCents,
        periodStart: prepared.effectiveAt,
        periodEnd: prepared.nextBillingDate,
      });
      await w.tx
        .update(payments)
        .set({
          method: current.method,
          providerSubscriptionId: current.providerSubscriptionId,
          planChangeId,
        })
        .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, prorationPaymentId)));
    }
  }
  const p = docs?.proration ?? null;
  await w.tx
    .update(planChanges)
    .set({
      status: 'applied',
      appliedAt: w.now,
      totalDays: p?.totalDays ?? null,
      unusedDays: p?.unusedDays ?? null,
      creditCents: p?.creditCents ?? 0,
      chargeCents: p?.chargeCents ?? 0,
      offsetCents,
      residualCreditCents: docs?.residualCreditCents ?? 0,
      prorationPaymentId,
      creditedPaymentId: docs?.credit ? current.id : null,
    })
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, planChangeId)));
  // The credit left to the customer joins the subscription's ledger: the next period payments
  // set it off (subscription-credit.ts).
  await recordResidualCredit(w, sub.id, planChangeId, docs?.residualCreditCents ?? 0);
  await recordHistory(
    w,
    sub,
    'changePlan',
    changePlanMessages.appliedReason(prepared.fromPlan.name, prepared.toPlan.name) +
      (withdrawn
        ? `; ${(newPeriod ? changePlanMessages.renewalWithdrawn : changePlanMessages.renewalAskedAgain)(withdrawn.day)}`
        : ''),
  );
  // A proration fully set off by the credit is paid at once (its invoice shows 0,00 to pay).
  if (prorationPaymentId !== null && docs?.amountDueCents === 0) {
    await w.tx
      .update(payments)
      .set({ paidAt: w.now })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, prorationPaymentId)));
    await w.publish('payment.paid', { paymentId: prorationPaymentId, subscriptionId: sub.id });
  }
  // Invoicing issues the partial credit note (TD04) in this unit; the webhook goes out.
  await w.publish('subscription.planChanged', {
    subscriptionId: sub.id,
    fromPlanId: prepared.fromPlan.id,
    toPlanId: prepared.toPlan.id,
    planChangeId,
  });
  const [note] = await w.tx
    .select({ id: invoices.id, number: invoices.numberText })
    .from(planChanges)
    .innerJoin(
      invoices,
      and(eq(invoices.tenantId, planChanges.tenantId), eq(invoices.id, planChanges.creditNoteId)),
    )
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, planChangeId)));
  return {
    preview: prepared.preview,
    status: 'applied',
    planChangeId,
    prorationPaymentId,
    creditNote: note ?? null,
  };
}

/**
 * Applies the scheduled changes whose day has come (the plan-changes job; a renewal recorded for a
 * period starting at or after a change's day calls it first for that subscription). A change of a
 * subscription no longer live is cancelled. Answers how many were applied.
 */
export async function applyDuePlanChanges(w: UnitOfWork, subscriptionId?: number): Promise<number> {
  const due = await w.tx
    .select()
    .from(planChanges)
    .where(
      and(
        eq(planChanges.tenantId, w.tenantId),
        eq(planChanges.status, 'scheduled'),
        lte(planChanges.effectiveAt, w.now),
        subscriptionId === undefined ? undefined : eq(planChanges.subscriptionId, subscriptionId),
      ),
    )
    .orderBy(asc(planChanges.effectiveAt), asc(planChanges.id))
    .for('update');
  let applied = 0;
  for (const change of due) {
    const sub = await findSubscription(w, change.subscriptionId, { lock: true });
    if (!sub || !isLive(sub.status) || sub.planId !== change.fromPlanId) {
      await w.tx
        .update(planChanges)
        .set({ status: 'canceled', appliedAt: w.now })
        .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, change.id)));
      continue;
    }
    const fromPlan = (await planOf(w, change.fromPlanId))!;
    const toPlan = (await planOf(w, change.toPlanId))!;
    if (change.effectiveAt.getTime() >= sub.nextBillingDate.getTime() || change.whenKind === 'renewal') {
      // At the billing date: the new terms from the new period on; no proration. A new recurrence
      // counts its periods from that date (the anchor moves to it).
      await w.tx
        .update(subscriptions)
        .set({
          planId: change.toPlanId,
          costBeforeVatCents: change.costBeforeVatCents,
          vatHundredths: change.vatHundredths,
          amountDueCents: change.amountDueCents,
          ...(fromPlan.recurrence !== toPlan.recurrence ? { startDate: change.effectiveAt } : {}),
          updatedAt: w.now,
        })
        .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
      await couponOnNewPlan(w, sub, toPlan);
      await w.tx
        .update(planChanges)
        .set({ status: 'applied', appliedAt: w.now, creditCents: 0, chargeCents: 0, offsetCents: 0 })
        .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, change.id)));
      await recordHistory(w, sub, 'changePlan', changePlanMessages.appliedReason(fromPlan.name, toPlan.name));
      await w.publish('subscription.planChanged', {
        subscriptionId: sub.id,
        fromPlanId: change.fromPlanId,
        toPlanId: change.toPlanId,
        planChangeId: change.id,
      });
    } else {
      // A chosen day within the period: prorated from that day, as if asked then. What now stands
      // in its way (the period's invoice still missing, a proration unpaid…) cancels the change,
      // with its reason in the history, in a savepoint: the other changes still apply.
      try {
        await w.tx.transaction(async (sp) => {
          const unit: UnitOfWork = { ...w, tx: sp };
          await sp
            .update(planChanges)
            .set({ status: 'canceled' })
            .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, change.id)));
          const prepared = await preparePlanChange(
            { ...unit, now: change.effectiveAt },
            sub.id,
            { planId: change.toPlanId, when: 'now' },
            { lock: true },
          );
          await sp
            .update(planChanges)
            .set({ status: 'scheduled' })
            .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, change.id)));
          await applyPrepared(unit, { ...prepared, effectiveAt: change.effectiveAt }, change.id);
        });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        await w.tx
          .update(planChanges)
          .set({ status: 'canceled', appliedAt: w.now })
          .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, change.id)));
        await recordHistory(
          w,
          sub,
          'planChangeCanceled',
          changePlanMessages.canceledReason(
            // A field error's own words ('planId: …' → '…'), else the message.
            error.options.errors?.map((e) => e.replace(/^\w+: /, '')).join(' ') ?? error.message,
          ),
        );
        continue;
      }
    }
    applied++;
  }
  return applied;
}

/** The subscription's scheduled change (GetById's `scheduledPlanChange`), or null. */
export async function scheduledPlanChangeOf(
  scope: TenantScope,
  subscriptionId: number,
): Promise<ScheduledPlanChange | null> {
  const [row] = await scope.tx
    .select({
      id: planChanges.id,
      planId: planChanges.toPlanId,
      planName: plans.name,
      effectiveAt: planChanges.effectiveAt,
      whenKind: planChanges.whenKind,
    })
    .from(planChanges)
    .innerJoin(plans, and(eq(plans.tenantId, planChanges.tenantId), eq(plans.id, planChanges.toPlanId)))
    .where(
      and(
        eq(planChanges.tenantId, scope.tenantId),
        eq(planChanges.subscriptionId, subscriptionId),
        eq(planChanges.status, 'scheduled'),
      ),
    );
  if (!row) return null;
  return {
    id: row.id,
    planId: row.planId,
    planName: row.planName,
    effectiveAt: row.effectiveAt.toISOString(),
    effectiveDay: romeDay(row.effectiveAt),
    when: row.whenKind === 'renewal' ? 'renewal' : 'date',
  };
}

/** What cancelling a scheduled change needs to know before its unit (nothing written). */
export interface PlanChangeCancelCheck {
  /** The scheduled change, or null (nothing to cancel: the call answers so, idempotently). */
  change: {
    id: number;
    fromPlanId: number;
    toPlanName: string;
    effectiveDay: string;
    /** Between recurrences: the revert moves the provider's next charge back to `nextBillingDate`. */
    recurrenceChanges: boolean;
    nextBillingDate: Date;
  } | null;
  /** The provider subscription revised when the change was scheduled (to revert first), or null. */
  provider: { method: 'stripe' | 'paypal'; providerSubscriptionId: string } | null;
}

/**
 * Checks `POST api/subscription/cancelPlanChange/{id}`: 404 for a subscription not of the tenant,
 * 409 when the change's moment has come (the plan-changes job or the renewal applies it).
 */
export async function checkPlanChangeCancel(
  w: TenantScope & { now: Date },
  id: number,
): Promise<PlanChangeCancelCheck> {
  const sub = await findSubscription(w, id);
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  const scheduled = await scheduledPlanChangeOf(w, id);
  if (!scheduled) return { change: null, provider: null };
  if (Date.parse(scheduled.effectiveAt) <= w.now.getTime())
    throw new HttpError(409, changePlanMessages.scheduledDue);
  const [row] = await w.tx
    .select({ fromPlanId: planChanges.fromPlanId, toPlanId: planChanges.toPlanId })
    .from(planChanges)
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, scheduled.id)));
  const [fromPlan, toPlan] = [await planOf(w, row!.fromPlanId), await planOf(w, row!.toPlanId)];
  // The route revised the provider when it scheduled the change (same condition as there).
  const current = await currentPeriodPayment(w, sub);
  const provider =
    current?.providerSubscriptionId && (current.method === 'stripe' || current.method === 'paypal')
      ? {
          method: current.method === 'stripe' ? ('stripe' as const) : ('paypal' as const),
          providerSubscriptionId: current.providerSubscriptionId,
        }
      : null;
  return {
    change: {
      id: scheduled.id,
      fromPlanId: row!.fromPlanId,
      toPlanName: scheduled.planName,
      effectiveDay: scheduled.effectiveDay,
      recurrenceChanges: fromPlan?.recurrence !== toPlan?.recurrence,
      nextBillingDate: sub.nextBillingDate,
    },
    provider,
  };
}

/**
 * Cancels the scheduled change `planChangeId` in the caller's unit: 'canceled', a history row
 * 'planChangeCanceled'. Answers false when it is no longer scheduled (cancelled meanwhile: the
 * same call twice changes things once).
 */
export async function cancelScheduledPlanChange(
  w: UnitOfWork,
  id: number,
  planChangeId: number,
): Promise<boolean> {
  const sub = await findSubscription(w, id, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  const [row] = await w.tx
    .select({
      status: planChanges.status,
      effectiveAt: planChanges.effectiveAt,
      createdAt: planChanges.createdAt,
      toPlanName: plans.name,
    })
    .from(planChanges)
    .innerJoin(plans, and(eq(plans.tenantId, planChanges.tenantId), eq(plans.id, planChanges.toPlanId)))
    .where(
      and(
        eq(planChanges.tenantId, w.tenantId),
        eq(planChanges.subscriptionId, id),
        eq(planChanges.id, planChangeId),
      ),
    )
    .for('update', { of: planChanges });
  if (!row || row.status !== 'scheduled') return false;
  if (row.effectiveAt.getTime() <= w.now.getTime()) throw new HttpError(409, changePlanMessages.scheduledDue);
  await w.tx
    .update(planChanges)
    .set({ status: 'canceled', appliedAt: w.now })
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, planChangeId)));
  // A renewal payment made since the change was scheduled asked its terms (`scheduledAmountFor`,
  // `scheduledRecurrenceFor`): stale once it is cancelled. Unpaid and with no transfer recorded,
  // it is withdrawn and the renewal job makes it again at the current plan (one paid, with a
  // transfer, or whose credit Stripe gave back, is left as it is).
  const [madeSince] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, sub.id),
        eq(payments.periodStart, sub.nextBillingDate),
        gte(payments.periodStart, row.effectiveAt),
        gte(payments.createdAt, row.createdAt),
        isNull(payments.paidAt),
        isNull(payments.planChangeId),
        isNull(payments.oneOffChargeId),
        notExists(
          w.tx
            .select({ one: sql`1` })
            .from(bankTransfers)
            .where(and(eq(bankTransfers.tenantId, w.tenantId), eq(bankTransfers.paymentId, payments.id))),
        ),
      ),
    )
    .limit(1);
  // Not one whose credit Stripe's balance already gave back (the credit would count twice).
  const withdraw =
    madeSince !== undefined &&
    !((await creditUsedBy(w, madeSince.id)) > 0 && (await periodBilling(w, sub.id))?.method === 'stripe');
  if (withdraw) await withdrawRenewal(w, sub, madeSince.id, { reminderAgain: true });
  await recordHistory(
    w,
    sub,
    'planChangeCanceled',
    changePlanMessages.cancelReason(row.toPlanName, italian(romeDay(row.effectiveAt))) +
      (withdraw ? `; ${changePlanMessages.renewalWithdrawn(italian(romeDay(sub.nextBillingDate)))}` : ''),
  );
  return true;
}

/**
 * The customer's own 'Cambia piano' (issue 30): their subscription (another customer's or an
 * unknown id: 404, before anything else) and whether the tenant lets its customers change plan
 * (`tenants.customer_plan_change`, read from the tenant's database's copy of its row).
 */
export async function ownPlanChange(
  scope: TenantScope,
  subscriptionId: number,
  userId: number,
): Promise<{ allowed: boolean; sub: { id: number; userId: number; planId: number } }> {
  const [sub] = await scope.tx
    .select({ id: subscriptions.id, userId: subscriptions.userId, planId: subscriptions.planId })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, scope.tenantId), eq(subscriptions.id, subscriptionId)));
  if (!sub || sub.userId !== userId) throw new HttpError(404, serverMessages.notFound);
  const [tenant] = await scope.tx
    .select({ allowed: tenants.customerPlanChange })
    .from(tenants)
    .where(eq(tenants.id, scope.tenantId));
  return { allowed: tenant?.allowed ?? false, sub };
}

/** A plan the customer may choose, with its price for them: the net to pay of one period. */
export interface OfferedPlan {
  id: number;
  name: string;
  recurringCostBeforeVAT: number;
  price: number;
  /** 'Mensile', 'Annuale'… (another recurrence than the subscription's is offered too). */
  recurrenceTypeName: string;
}

/**
 * The plans a customer may change to: the tenant's active plans (any recurrence: a change between
 * recurrences starts a new period), the current one left out, cheapest first; each priced with the
 * customer's fiscal profile (its net to pay of one period of that plan).
 */
export async function plansOfferedTo(
  scope: TenantScope,
  sub: { userId: number; planId: number },
): Promise<OfferedPlan[]> {
  const current = await planOf(scope, sub.planId);
  if (!current) return [];
  const rows = await scope.tx
    .select({
      id: plans.id,
      name: plans.name,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      natura: plans.natura,
      recurrence: plans.recurrenceType,
    })
    .from(plans)
    .where(and(eq(plans.tenantId, scope.tenantId), eq(plans.isActive, true), ne(plans.id, sub.planId)))
    .orderBy(asc(plans.recurringCostBeforeVat), asc(plans.id));
  const [seller, customer] = await Promise.all([
    sellerProfileOf(scope.tx, scope.tenantId),
    customerProfileOf(scope.tx, scope.tenantId, sub.userId),
  ]);
  return rows.map((p) => {
    const costCents = toCents(p.cost);
    const vat = toPercentHundredths(p.vat);
    const document = periodDocument(seller, customer, {
      description: p.name,
      costCents,
      vat,
      natura: vat === 0 && isNatura(p.natura) ? p.natura : null,
    });
    return {
      id: p.id,
      name: p.name,
      recurringCostBeforeVAT: fromCents(costCents),
      price: fromCents(document.netToPayCents),
      recurrenceTypeName: recurrenceTypeNames[p.recurrence as RecurrenceTypeId] ?? '',
    };
  });
}
