/**
 * 'Disattiva il rinnovo' of the customer area (issue 28): a customer turns the automatic renewal
 * of their own Active subscription off (with a reason) and, until its next billing date, back on.
 *
 * - Off: the provider stops renewing at the end of the paid period (Stripe `cancel_at_period_end`,
 *   PayPal suspended: see `PaymentProviderAdapter.stopRenewal`), outside and before the unit of
 *   work, so a provider failure changes nothing; then Active → ActiveNoRenewal through the state
 *   machine (`stopRenewal`, actor 'subscriber'), the reason in the history. The subscription stays
 *   usable (ActiveNoRenewal is live) and the `subscriptions-expire` job ends it at its next billing
 *   date (`expire` → NotActive), as every ActiveNoRenewal.
 * - On: only an ActiveNoRenewal its customer turned off (the history's last renewal move is a
 *   `stopRenewal`), before its next billing date; the provider first, then `resumeRenewal` → Active.
 * - A renewal by bank transfer (issue 29: ActiveNoRenewal, its period paid by transfer or the
 *   transfer chosen) is turned off and on the same way, its status unchanged (`stopRenewal`,
 *   `resumeTransferRenewal`): no provider is called; off, no next payment nor instructions are
 *   made, and the expire job ends it at its date; a payment already made for the next period is
 *   then not collected (a period it never entered).
 * - Twice is once: off when already off, or on when already on, answers the state and calls nobody.
 * - Only the caller's own subscription of the unit's tenant: anything else is the same 404.
 */
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { romeCalendarDay } from '../../../contract/billing-dates';
import { serverMessages } from '../../../contract/messages';
import {
  renewalMessages,
  renewalReasonText,
  type OwnRenewal,
  type RenewalStopInputParsed,
} from '../../../contract/schemas/renewal';
import { SubscriptionStatus, type SubscriptionStatusId } from '../../../contract/subscription-status';
import { payments, subscriptionEvents, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { ProviderError, type ProviderKind } from '../../providers/payment-provider';
import type { ProviderRegistry } from '../../providers/registry';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription, renewsByTransfer, type SubscriptionRow } from './billing.repository';
import { unpaidSetOffFrom } from '../../db/credits';
import { changeStatus } from './subscription.service';

const RENEWAL_EVENTS = ['stopRenewal', 'resumeRenewal', 'resumeTransferRenewal'] as const;

/** 'dd/mm/yyyy' of an instant in Rome (the billing dates' day). */
export function romeDate(date: Date): string {
  const { year, month, day } = romeCalendarDay(date);
  return `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/${year}`;
}

interface RenewalMove {
  event: (typeof RENEWAL_EVENTS)[number];
  /** The status it was made from: a stop from Active renewed at a provider, one from ActiveNoRenewal by transfer. */
  from: SubscriptionStatusId | null;
  reason: string | null;
  at: Date;
}

/** The last renewal move (stop or resume) of each subscription given, in one query. */
async function lastRenewalMoves(
  scope: TenantScope,
  subscriptionIds: readonly number[],
): Promise<Map<number, RenewalMove>> {
  const out = new Map<number, RenewalMove>();
  if (subscriptionIds.length === 0) return out;
  const rows = await scope.tx
    .select({
      subscriptionId: subscriptionEvents.subscriptionId,
      event: subscriptionEvents.event,
      from: subscriptionEvents.fromStatus,
      reason: subscriptionEvents.reason,
      at: subscriptionEvents.at,
    })
    .from(subscriptionEvents)
    .where(
      and(
        eq(subscriptionEvents.tenantId, scope.tenantId),
        inArray(subscriptionEvents.subscriptionId, [...subscriptionIds]),
        inArray(subscriptionEvents.event, [...RENEWAL_EVENTS]),
      ),
    )
    .orderBy(asc(subscriptionEvents.id));
  for (const r of rows)
    out.set(r.subscriptionId, {
      event: r.event as RenewalMove['event'],
      from: r.from as SubscriptionStatusId | null,
      reason: r.reason,
      at: r.at,
    });
  return out;
}

/**
 * When the customer last turned the renewal back on, if ever (PayPal's webhook: a SUSPENDED event
 * created before then is the echo of their earlier 'Disattiva il rinnovo', not a failed charge).
 */
export async function lastResumeAt(scope: TenantScope, subscriptionId: number): Promise<Date | null> {
  const [row] = await scope.tx
    .select({ at: subscriptionEvents.at })
    .from(subscriptionEvents)
    .where(
      and(
        eq(subscriptionEvents.tenantId, scope.tenantId),
        eq(subscriptionEvents.subscriptionId, subscriptionId),
        eq(subscriptionEvents.event, 'resumeRenewal'),
      ),
    )
    .orderBy(desc(subscriptionEvents.id))
    .limit(1);
  return row?.at ?? null;
}

type RenewalFacts = Pick<SubscriptionRow, 'id' | 'status' | 'nextBillingDate'>;

/** Turned off by its customer and not turned on again: ActiveNoRenewal whose last move is a stop. */
const stoppedByCustomer = (sub: RenewalFacts, last: RenewalMove | undefined) =>
  sub.status === SubscriptionStatus.ActiveNoRenewal && last?.event === 'stopRenewal';

/**
 * Issue 29: an ActiveNoRenewal that renews by bank transfer (its period paid by transfer, or the
 * customer chose the transfer) renews, though nothing is charged automatically: its customer may
 * turn that off like an automatic renewal.
 */
async function byTransfer(scope: TenantScope, sub: RenewalFacts): Promise<boolean> {
  return (
    sub.status === SubscriptionStatus.ActiveNoRenewal &&
    (await renewsByTransfer(scope, sub.id, sub.nextBillingDate))
  );
}

function viewOf(sub: RenewalFacts, last: RenewalMove | undefined, now: Date, transfer: boolean): OwnRenewal {
  const stopped = stoppedByCustomer(sub, last);
  return {
    subscriptionId: sub.id,
    status: sub.status,
    renewal:
      sub.status === SubscriptionStatus.Active || (transfer && !stopped)
        ? 'on'
        : stopped
          ? 'stopped'
          : 'none',
    endsAt: sub.nextBillingDate.toISOString(),
    stoppedAt: stopped ? last!.at.toISOString() : null,
    reason: stopped ? last!.reason : null,
    canResume: stopped && sub.nextBillingDate.getTime() > now.getTime(),
  };
}

/** The caller's own subscription of the scope's tenant, or 404 (another customer's, another tenant's, none). */
async function ownSubscription(
  scope: TenantScope,
  userId: number,
  subscriptionId: number,
  lock = false,
): Promise<SubscriptionRow> {
  const sub = await findSubscription(scope, subscriptionId, { lock });
  if (!sub || sub.userId !== userId) throw new HttpError(404, serverMessages.notFound);
  return sub;
}

/** The renewal of each of the caller's subscriptions in the tenant, newest first. */
export async function ownRenewals(scope: TenantScope, userId: number, now: Date): Promise<OwnRenewal[]> {
  const subs = await scope.tx
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      nextBillingDate: subscriptions.nextBillingDate,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, scope.tenantId), eq(subscriptions.userId, userId)))
    .orderBy(desc(subscriptions.id));
  const moves = await lastRenewalMoves(
    scope,
    subs.map((s) => s.id),
  );
  const views: OwnRenewal[] = [];
  for (const row of subs) {
    const sub = { ...row, status: row.status as SubscriptionStatusId };
    views.push(viewOf(sub, moves.get(sub.id), now, await byTransfer(scope, sub)));
  }
  return views;
}

/** One of the caller's subscriptions (404 when not theirs). */
export async function ownRenewal(
  scope: TenantScope,
  userId: number,
  subscriptionId: number,
  now: Date,
): Promise<OwnRenewal> {
  const sub = await ownSubscription(scope, userId, subscriptionId);
  return viewOf(
    sub,
    (await lastRenewalMoves(scope, [sub.id])).get(sub.id),
    now,
    await byTransfer(scope, sub),
  );
}

/**
 * Where the subscription renews: the latest payment carrying a provider subscription id (a renewal
 * link paid later carries the current one), with its provider; null for a bank transfer.
 */
async function providerRenewalOf(
  scope: TenantScope,
  subscriptionId: number,
): Promise<{ kind: ProviderKind; id: string } | null> {
  const [row] = await scope.tx
    .select({ id: payments.providerSubscriptionId, method: payments.method })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNotNull(payments.providerSubscriptionId),
      ),
    )
    .orderBy(desc(payments.id))
    .limit(1);
  if (!row?.id) return null;
  return { kind: row.method === 'stripe' ? 'stripe' : 'paypal', id: row.id };
}

/**
 * A card renewal turned back on would have Stripe charge the whole next period, while the renewal
 * link's payment of that period, unpaid, already set off the customer's residual credit (and
 * Stripe's balance gave it back, subscription-credit.ts `giveBackAtStripe`): the credit would be
 * lost. Refused (409) until that payment is paid by its link.
 */
async function refuseCreditOnLink(scope: TenantScope, sub: RenewalFacts): Promise<void> {
  const asked = await unpaidSetOffFrom(scope, sub.id, sub.nextBillingDate);
  if (asked) throw new HttpError(409, renewalMessages.creditOnRenewalLink(romeDate(asked)));
}

export interface RenewalDeps {
  providers: ProviderRegistry;
}

/**
 * The provider's side of a move: stop or resume, outside any transaction. A provider that answers
 * 'unprocessable' is read back: already where the move leads (PayPal: SUSPENDED after a stop,
 * ACTIVE after a resume) counts as done (a retry after a lost answer); anything else is its error.
 */
async function atProvider(
  deps: RenewalDeps,
  tenantId: number,
  target: { kind: ProviderKind; id: string },
  move: 'stop' | 'resume',
  reason: string,
): Promise<void> {
  const adapter = await deps.providers.adapterOf(tenantId, target.kind);
  try {
    if (move === 'stop') await adapter.stopRenewal(target.id, reason);
    else await adapter.resumeRenewal(target.id, reason);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'unprocessable' && target.kind === 'paypal') {
      const remote = await adapter.getSubscription(target.id);
      if (remote.status === (move === 'stop' ? 'SUSPENDED' : 'ACTIVE')) return;
    }
    throw error;
  }
}

/** What a call did: `changed` false when it found the renewal already as asked (nothing called). */
export interface RenewalOutcome {
  renewal: OwnRenewal;
  changed: boolean;
}

type RunUnit = <T>(work: (w: UnitOfWork) => Promise<T>) => Promise<T>;

/**
 * Shared steps of both calls: the checks on a plain read, the provider, then the unit of work that
 * checks again under the row's lock and moves the status; if the unit fails after the provider
 * moved, the provider is moved back (best effort), so Rinnova and the provider agree.
 */
async function renewalMove(
  deps: RenewalDeps,
  read: TenantScope,
  runUnit: RunUnit,
  now: Date,
  userId: number,
  subscriptionId: number,
  move: 'stop' | 'resume',
  reason: string | null,
  log: (message: string, error: unknown) => void,
): Promise<RenewalOutcome> {
  /**
   * null: already as asked; else the move to make (throws the 409 when it cannot be made):
   * 'provider' stops or resumes an automatic renewal (Stripe, PayPal) with the status change,
   * 'transfer' a renewal by bank transfer, its status unchanged.
   */
  const check = (
    sub: RenewalFacts,
    last: RenewalMove | undefined,
    at: Date,
    transfer: boolean,
  ): 'provider' | 'transfer' | null => {
    const stopped = stoppedByCustomer(sub, last);
    if (move === 'stop') {
      if (stopped) return null;
      if (sub.status === SubscriptionStatus.Active) return 'provider';
      if (transfer) return 'transfer';
      throw new HttpError(
        409,
        sub.status === SubscriptionStatus.ActiveNoRenewal
          ? renewalMessages.notAutomatic
          : renewalMessages.notActive,
      );
    }
    if (sub.status === SubscriptionStatus.Active || (transfer && !stopped)) return null;
    if (!stopped)
      throw new HttpError(
        409,
        sub.status === SubscriptionStatus.ActiveNoRenewal
          ? renewalMessages.notAutomatic
          : renewalMessages.notResumable,
      );
    if (sub.nextBillingDate.getTime() <= at.getTime()) throw new HttpError(409, renewalMessages.periodOver);
    return last?.from === SubscriptionStatus.ActiveNoRenewal ? 'transfer' : 'provider';
  };

  const sub = await ownSubscription(read, userId, subscriptionId);
  const last = (await lastRenewalMoves(read, [sub.id])).get(sub.id);
  const transfer = await byTransfer(read, sub);
  const kind = check(sub, last, now, transfer);
  if (kind === null) return { renewal: viewOf(sub, last, now, transfer), changed: false };

  // A renewal by transfer calls no provider (an earlier card or PayPal subscription, before
  // 'Passa al bonifico', is cancelled there already).
  const provider = kind === 'provider' ? await providerRenewalOf(read, sub.id) : null;
  if (move === 'resume' && provider?.kind === 'stripe') await refuseCreditOnLink(read, sub);
  const providerReason =
    move === 'stop'
      ? 'Rinnovo disattivato dal cliente in Rinnova'
      : 'Rinnovo riattivato dal cliente in Rinnova';
  if (provider) await atProvider(deps, read.tenantId, provider, move, providerReason);

  try {
    return await runUnit(async (w) => {
      const locked = await ownSubscription(w, userId, subscriptionId, true);
      const lastNow = (await lastRenewalMoves(w, [locked.id])).get(locked.id);
      // A twin request may have made the move meanwhile: then this one changes nothing.
      const kindNow = check(locked, lastNow, w.now, await byTransfer(w, locked));
      if (move === 'resume' && kindNow === 'provider' && provider?.kind === 'stripe')
        await refuseCreditOnLink(w, locked);
      const changed = kindNow !== null;
      if (kindNow !== null)
        await changeStatus(
          w,
          locked,
          move === 'stop'
            ? 'stopRenewal'
            : kindNow === 'transfer'
              ? 'resumeTransferRenewal'
              : 'resumeRenewal',
          reason,
        );
      const after = await ownSubscription(w, userId, subscriptionId);
      return {
        renewal: viewOf(
          after,
          (await lastRenewalMoves(w, [after.id])).get(after.id),
          w.now,
          await byTransfer(w, after),
        ),
        changed,
      };
    });
  } catch (error) {
    if (provider)
      await atProvider(
        deps,
        read.tenantId,
        provider,
        move === 'stop' ? 'resume' : 'stop',
        providerReason,
      ).catch((undo: unknown) =>
        log('renewal: the provider could not be moved back after a failed unit', undo),
      );
    throw error;
  }
}

/** `cancelRenewal`: Active → ActiveNoRenewal, the reason ('Troppo costoso — la nota') in the history. */
export function stopOwnRenewal(
  deps: RenewalDeps,
  read: TenantScope,
  runUnit: RunUnit,
  now: Date,
  userId: number,
  subscriptionId: number,
  input: RenewalStopInputParsed,
  log: (message: string, error: unknown) => void,
): Promise<RenewalOutcome> {
  const reason = renewalReasonText(input.reason, input.note);
  return renewalMove(deps, read, runUnit, now, userId, subscriptionId, 'stop', reason, log);
}

/** `resumeRenewal`: a customer-stopped ActiveNoRenewal → Active, before its next billing date. */
export function resumeOwnRenewal(
  deps: RenewalDeps,
  read: TenantScope,
  runUnit: RunUnit,
  now: Date,
  userId: number,
  subscriptionId: number,
  log: (message: string, error: unknown) => void,
): Promise<RenewalOutcome> {
  return renewalMove(deps, read, runUnit, now, userId, subscriptionId, 'resume', null, log);
}
