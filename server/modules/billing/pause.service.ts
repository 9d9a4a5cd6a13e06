/**
 * Pause of collection (issue 30, 'Sospendi incasso' / 'Riprendi ora'):
 * `POST api/subscription/pause/{id} {periods, entitlements}` and `POST api/subscription/resume/{id}`.
 *
 * How the dates move (Europe/Rome, the subscription's anchor dates, `periodEndAfter`):
 * - paused at any time of a paid period ending at next billing date B: the pause covers the N
 *   periods from B, `pause_from` = B and `paused_until` = U = the end of the N-th period after B
 *   (start + k × recurrence months, clamped to the month's end, at the start's Rome wall-clock
 *   time: a monthly subscription of 31 Jan paused from 28 Feb for 2 periods → 30 Apr); the next
 *   billing date becomes U. The period in course stays paid and usable; no status moves.
 * - resumed early ('Riprendi ora') at t: before B (the pause has not started), the next billing
 *   date goes back to B; within the pause, to the end of the paused period containing t (the
 *   period in course is left unbilled: the customer resumes and pays from its end).
 * - its periods over (t ≥ U): the subscription-pauses job clears it (history 'pauseEnded').
 *
 * What is not due while paused: every renewal path reads the next billing date (bank-transfer
 * renewal payment 7 days before, renewal reminders, expire job, PayPal/Stripe renewals), so none
 * acts before U; an unpaid payment already made for a paused period (the bank-transfer renewal
 * payment made 7 days before, with its payment links and collection history) is removed in the
 * pausing unit, so the dunning ladder has nothing to chase. Entitlements within [B, U) follow
 * `pause_entitlements` (entitlements.service.ts).
 *
 * The provider (PayPal, Stripe) is called BEFORE the unit, outside any transaction, keyed by the
 * subscription and the pause (a retry repeats nothing): a failure is a 502 and nothing changes in
 * Rinnova. Stripe: `pause_collection {behavior: 'void', resumes_at: U}` (Stripe resumes by itself);
 * PayPal: suspend, and activate when the pause ends (the job, or 'Riprendi ora').
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, lte } from 'drizzle-orm';
import { periodEndAfter } from '../../../contract/billing-dates';
import { serverMessages } from '../../../contract/messages';
import {
  pauseMessages,
  type PauseEntitlements,
  type SubscriptionPause,
} from '../../../contract/schemas/pause';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { bankTransfers, payments, planChanges, plans, subscriptions, tenants } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { ProviderError, type ProviderKind } from '../../providers/payment-provider';
import type { ProviderRegistry } from '../../providers/registry';
import type { TenantScope, UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { findSubscription, type SubscriptionRow } from './billing.repository';
import { periodBilling, unpaidSetOffFrom } from '../../db/credits';
import { recordHistory, withdrawUnpaidPayments } from './subscription.service';

const rome = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
/** dd/mm/yyyy in Europe/Rome. */
export const romeDate = (d: Date) => rome.format(d);

interface PauseRow {
  pauseFrom: Date | null;
  pausedUntil: Date | null;
  pausePeriods: number | null;
  pauseEntitlements: string | null;
}

export function pauseOfRow(row: PauseRow): SubscriptionPause | null {
  if (!row.pauseFrom || !row.pausedUntil || !row.pausePeriods || !row.pauseEntitlements) return null;
  return {
    from: row.pauseFrom.toISOString(),
    until: row.pausedUntil.toISOString(),
    periods: row.pausePeriods,
    entitlements: row.pauseEntitlements as PauseEntitlements,
  };
}

async function pauseRowOf(scope: TenantScope, id: number): Promise<PauseRow | undefined> {
  const [row] = await scope.tx
    .select({
      pauseFrom: subscriptions.pauseFrom,
      pausedUntil: subscriptions.pausedUntil,
      pausePeriods: subscriptions.pausePeriods,
      pauseEntitlements: subscriptions.pauseEntitlements,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, scope.tenantId), eq(subscriptions.id, id)));
  return row;
}

async function recurrenceOf(scope: TenantScope, sub: SubscriptionRow): Promise<number> {
  const [plan] = await scope.tx
    .select({ recurrence: plans.recurrenceType })
    .from(plans)
    .where(and(eq(plans.tenantId, scope.tenantId), eq(plans.id, sub.planId)));
  if (!plan) throw new HttpError(404, serverMessages.notFound);
  return plan.recurrence;
}

/** The end of `periods` periods from `from` (the subscription's anchor dates). */
export function afterPeriods(startDate: Date, recurrence: number, from: Date, periods: number): Date {
  let end = from;
  for (let i = 0; i < periods; i++) end = periodEndAfter(startDate, recurrence, end);
  return end;
}

/** The provider subscription that charges the periods: of the latest paid payment, if PayPal or Stripe. */
export async function providerOf(
  scope: TenantScope,
  subscriptionId: number,
): Promise<{ kind: ProviderKind; id: string } | null> {
  const [row] = await scope.tx
    .select({ method: payments.method, providerSubscriptionId: payments.providerSubscriptionId })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNotNull(payments.paidAt),
        isNull(payments.planChangeId),
      ),
    )
    .orderBy(desc(payments.periodStart), desc(payments.id))
    .limit(1);
  if (!row?.providerSubscriptionId || (row.method !== 'paypal' && row.method !== 'stripe')) return null;
  if (row.method === 'paypal') {
    // An ActiveNoRenewal PayPal subscription is already suspended at PayPal (its customer turned
    // the renewal off): neither suspended again nor re-activated by a pause.
    const [sub] = await scope.tx
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(and(eq(subscriptions.tenantId, scope.tenantId), eq(subscriptions.id, subscriptionId)));
    if (sub?.status !== SubscriptionStatus.Active) return null;
  }
  return { kind: row.method, id: row.providerSubscriptionId };
}

export interface PreparedPause {
  sub: SubscriptionRow;
  from: Date;
  until: Date;
  provider: { kind: ProviderKind; id: string } | null;
}

/**
 * Checks a pause and computes its dates (nothing written): 404 for another tenant's subscription;
 * 409 unless Active/ActiveNoRenewal, not paused, with no unpaid earlier period, no transfer
 * recorded for a paused period and no plan change scheduled.
 */
export async function preparePause(
  w: TenantScope & { now: Date },
  id: number,
  body: { periods: number },
  options: { lock?: boolean } = {},
): Promise<PreparedPause> {
  const sub = await findSubscription(w, id, { lock: options.lock ?? false });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  if (sub.status !== SubscriptionStatus.Active && sub.status !== SubscriptionStatus.ActiveNoRenewal)
    throw new HttpError(409, pauseMessages.notLive);
  const current = await pauseRowOf(w, id);
  if (current?.pausedUntil)
    throw new HttpError(409, pauseMessages.alreadyPaused(romeDate(current.pausedUntil)));
  const recurrence = await recurrenceOf(w, sub);
  const from = sub.nextBillingDate;
  const until = afterPeriods(sub.startDate, recurrence, from, body.periods);
  // An unpaid period before the pause (the one in course, or older): pay it first.
  const [unpaid] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, id),
        isNull(payments.paidAt),
        lt(payments.periodStart, from),
        inArray(payments.collectionStatus, ['due', 'overdue']),
      ),
    )
    .limit(1);
  if (unpaid) throw new HttpError(409, pauseMessages.unpaid);
  const [transfer] = await w.tx
    .select({ id: bankTransfers.id })
    .from(bankTransfers)
    .innerJoin(
      payments,
      and(eq(payments.tenantId, bankTransfers.tenantId), eq(payments.id, bankTransfers.paymentId)),
    )
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, id),
        gte(payments.periodStart, from),
        lt(payments.periodStart, until),
      ),
    )
    .limit(1);
  if (transfer) throw new HttpError(409, pauseMessages.transferRecorded);
  // A paused period's payment that used the customer's credit gives it back to the ledger when it
  // is withdrawn (`withdrawUnpaidPayments`); on a card Stripe's balance already gave it back, so
  // the ledger would count it twice: pay that payment first (as a change of recurrence, 409).
  if ((await periodBilling(w, id))?.method === 'stripe' && (await unpaidSetOffFrom(w, id, from, until)))
    throw new HttpError(409, pauseMessages.creditAtStripe);
  const [scheduled] = await w.tx
    .select({ id: planChanges.id })
    .from(planChanges)
    .where(
      and(
        eq(planChanges.tenantId, w.tenantId),
        eq(planChanges.subscriptionId, id),
        eq(planChanges.status, 'scheduled'),
      ),
    )
    .limit(1);
  if (scheduled) throw new HttpError(409, pauseMessages.planChangeScheduled);
  return { sub, from, until, provider: await providerOf(w, id) };
}

/**
 * The pause, in the request's unit: the unpaid payments of the paused periods removed (with their
 * links and collection history), the next billing date moved to `until`, the pause recorded, a
 * history row and `subscription.paused` (outbound webhook).
 */
export async function makePause(
  w: UnitOfWork,
  id: number,
  body: { periods: number; entitlements: PauseEntitlements },
): Promise<SubscriptionPause> {
  const p = await preparePause(w, id, body, { lock: true });
  const doomed = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, id),
        isNull(payments.paidAt),
        isNull(payments.planChangeId),
        gte(payments.periodStart, p.from),
        lt(payments.periodStart, p.until),
      ),
    );
  const ids = doomed.map((d) => d.id);
  await withdrawUnpaidPayments(w, ids);
  await w.tx
    .update(subscriptions)
    .set({
      nextBillingDate: p.until,
      pauseFrom: p.from,
      pausedUntil: p.until,
      pausePeriods: body.periods,
      pauseEntitlements: body.entitlements,
      updatedAt: w.now,
    })
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, id)));
  await recordHistory(
    w,
    p.sub,
    'pauseCollection',
    `Incasso sospeso per ${body.periods} ${body.periods === 1 ? 'periodo' : 'periodi'} dal ${romeDate(p.from)} al ${romeDate(p.until)}; funzionalità ${body.entitlements === 'keep' ? 'mantenute' : 'sospese'}` +
      (ids.length > 0 ? `; rimosso il pagamento non dovuto del periodo sospeso` : ''),
  );
  await w.publish('subscription.paused', { subscriptionId: id });
  return pauseOfRow({
    pauseFrom: p.from,
    pausedUntil: p.until,
    pausePeriods: body.periods,
    pauseEntitlements: body.entitlements,
  })!;
}

export interface PreparedResume {
  sub: SubscriptionRow;
  pause: PauseRow & { pauseFrom: Date; pausedUntil: Date };
  /** The next billing date once resumed. */
  next: Date;
  provider: { kind: ProviderKind; id: string } | null;
}

/** 'Riprendi ora': 409 when not paused; the next billing date it leads to (see the header). */
export async function prepareResume(
  w: TenantScope & { now: Date },
  id: number,
  options: { lock?: boolean } = {},
): Promise<PreparedResume> {
  const sub = await findSubscription(w, id, { lock: options.lock ?? false });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  const pause = await pauseRowOf(w, id);
  if (!pause?.pauseFrom || !pause.pausedUntil) throw new HttpError(409, pauseMessages.notPaused);
  let next = pause.pauseFrom;
  if (w.now.getTime() >= pause.pauseFrom.getTime()) {
    const recurrence = await recurrenceOf(w, sub);
    next = periodEndAfter(sub.startDate, recurrence, pause.pauseFrom);
    while (next.getTime() <= w.now.getTime() && next.getTime() < pause.pausedUntil.getTime())
      next = periodEndAfter(sub.startDate, recurrence, next);
    if (next.getTime() > pause.pausedUntil.getTime()) next = pause.pausedUntil;
  }
  return {
    sub,
    pause: { ...pause, pauseFrom: pause.pauseFrom, pausedUntil: pause.pausedUntil },
    next,
    provider: await providerOf(w, id),
  };
}

/**
 * Ends a pause in `w`: early ('Riprendi ora': the next billing date per prepareResume) or because
 * its periods are over (the job: the next billing date is already `paused_until`). Moves the row
 * only from the pause it read, so a second run does nothing.
 */
export async function endPause(
  w: UnitOfWork,
  id: number,
  how: { early: true } | { early: false; pausedUntil: Date },
): Promise<{ ended: boolean; next: Date | null }> {
  const p = await prepareResume(w, id, { lock: true }).catch((error: unknown) => {
    if (!how.early && error instanceof HttpError && error.statusCode === 409) return null;
    throw error;
  });
  if (!p) return { ended: false, next: null };
  if (!how.early) {
    if (p.pause.pausedUntil.getTime() !== how.pausedUntil.getTime() || p.pause.pausedUntil > w.now)
      return { ended: false, next: null };
  }
  const next = how.early ? p.next : p.sub.nextBillingDate;
  await w.tx
    .update(subscriptions)
    .set({
      nextBillingDate: next,
      pauseFrom: null,
      pausedUntil: null,
      pausePeriods: null,
      pauseEntitlements: null,
      updatedAt: w.now,
    })
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, id)));
  await recordHistory(
    w,
    p.sub,
    how.early ? 'resumeCollection' : 'pauseEnded',
    how.early
      ? `Incasso ripreso prima della fine della sospensione (prevista il ${romeDate(p.pause.pausedUntil)}); prossimo addebito il ${romeDate(next)}`
      : `Periodi sospesi terminati; prossimo addebito il ${romeDate(next)}`,
  );
  await w.publish('subscription.resumed', { subscriptionId: id, early: how.early });
  return { ended: true, next };
}

// ---- The provider's side (outside any transaction)

export interface PauseProviderDeps {
  providers: ProviderRegistry;
}

/**
 * Pause (or resume) at the provider. PayPal answering 'unprocessable' is read back: already
 * SUSPENDED after a pause (ACTIVE after a resume) is done (a retry after a lost answer).
 */
export async function pauseAtProvider(
  deps: PauseProviderDeps,
  tenantId: number,
  subscriptionId: number,
  target: { kind: ProviderKind; id: string },
  move: { kind: 'pause'; until: Date } | { kind: 'resume'; key: string },
): Promise<void> {
  const adapter = await deps.providers.adapterOf(tenantId, target.kind);
  try {
    if (move.kind === 'pause')
      await adapter.pauseCollection(target.id, {
        resumesAt: move.until,
        reason: 'Incasso sospeso in Rinnova',
        idempotencyKey: `rinnova-pause-${tenantId}-${subscriptionId}-${move.until.getTime()}`,
      });
    else
      await adapter.resumeCollection(target.id, {
        reason: 'Incasso ripreso in Rinnova',
        idempotencyKey: `rinnova-resume-${tenantId}-${subscriptionId}-${move.key}`,
      });
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'unprocessable' && target.kind === 'paypal') {
      const remote = await adapter.getSubscription(target.id);
      if (remote.status === (move.kind === 'pause' ? 'SUSPENDED' : 'ACTIVE')) return;
    }
    throw error;
  }
}

/**
 * The subscription-pauses job for one tenant: each pause whose periods are over is ended — a
 * PayPal subscription re-activated first (outside any transaction; a failure leaves the pause to
 * the next run and is reported), then the unit that clears it. Stripe resumes by itself at
 * `resumes_at`. Running twice ends each pause once.
 */
export async function endDuePauses(
  deps: PauseProviderDeps & { uow: UnitOfWorkRunner },
  tenantId: number,
  jobName: string,
): Promise<{ ended: number; failed: string[] }> {
  const actor = { kind: 'system', job: jobName } as const;
  const now = deps.uow.clock();
  const due = await deps.uow.run({ tenantId, actor }, (w) =>
    w.tx
      .select({ id: subscriptions.id, pausedUntil: subscriptions.pausedUntil })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.tenantId, w.tenantId),
          isNotNull(subscriptions.pausedUntil),
          lte(subscriptions.pausedUntil, now),
        ),
      )
      .orderBy(asc(subscriptions.id)),
  );
  let ended = 0;
  const failed: string[] = [];
  for (const row of due) {
    try {
      const provider = await deps.uow.run({ tenantId, actor }, (w) => providerOf(w, row.id));
      if (provider?.kind === 'paypal')
        await pauseAtProvider(deps, tenantId, row.id, provider, {
          kind: 'resume',
          key: String(row.pausedUntil!.getTime()),
        });
      const done = await deps.uow.run({ tenantId, actor }, (w) =>
        endPause(w, row.id, { early: false, pausedUntil: row.pausedUntil! }),
      );
      if (done.ended) ended++;
    } catch (error) {
      failed.push(`sottoscrizione ${row.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { ended, failed };
}

/**
 * The customer's own pause (issue 30): the caller's subscription (another customer's or an unknown
 * id: 404, before anything else) and whether the tenant lets its customers pause
 * (`tenants.customer_pause`, read from the tenant's database's copy of its row).
 */
export async function ownPauseAllowed(scope: TenantScope, subscriptionId: number, userId: number) {
  const [sub] = await scope.tx
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, scope.tenantId), eq(subscriptions.id, subscriptionId)));
  if (!sub || sub.userId !== userId) throw new HttpError(404, serverMessages.notFound);
  const [tenant] = await scope.tx
    .select({ allowed: tenants.customerPause })
    .from(tenants)
    .where(eq(tenants.id, scope.tenantId));
  return tenant?.allowed ?? false;
}
