/**
 * Free trials (issue 30, 'Prove'). A subscription created on a plan with `trial_days` > 0 (the
 * Admin's Create, the widget's confirmation, any caller of `createSubscription`) starts its trial
 * in the same unit: status ActiveNoRenewal through the state machine ('startTrial'), usable at
 * once (the entitlement API reads it live until its next billing date), `trial_ends_at` = the
 * start + the trial days at the same Rome wall-clock time, and its first payment is the period
 * that starts then (due that day). Nothing is paid and no invoice is issued before that payment.
 *
 * - The trials job (`trials`, daily): three days before the end, one e-mail per trial with a
 *   payment link of the first payment (when the plan is on a provider; else the customer's area) (the reminder row `subscription_reminders` kind 'trial' is
 *   written in the same unit: a second run sends nothing); at the end, unpaid, 'trialExpired'
 *   (system) → NotActive, the customer e-mailed, the outbound webhook `subscription.expired`.
 * - Converted: whatever pays the first payment (PayPal, Stripe, 'Segna come pagato', a confirmed
 *   transfer) publishes `payment.paid`; its in-transaction consumer here marks the trial
 *   'converted' and writes the history's 'trialConverted'. The invoice and the webhook
 *   `payment.succeeded` are the other consumers of the same event, so each happens once.
 */
import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns';
import { and, asc, eq, gt, lte, notExists, sql } from 'drizzle-orm';
import { BILLING_TIME_ZONE } from '../../../contract/billing-dates';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import {
  payments,
  plans,
  subscriptionReminders,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../db/schema';
import { withSignInLink } from '../../mail/templates';
import { trialEndedMail, trialEndingMail } from '../../mail/trial-templates';
import type { EventBus } from '../../unit-of-work/events';
import type { UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import type { PaymentHooks } from './payment-hooks';
import { changeStatus, formatEur, recordHistory } from './subscription.service';
import { paymentLinkIfAny } from './dunning';

/** Days before a trial's end when its reminder goes out. */
export const TRIAL_REMINDER_DAYS_BEFORE = 3;
const DAY_MS = 86_400_000;

export const TRIALS_JOB = 'trials';

/** The end of a trial of `days` days from `start`: the same Rome wall-clock time, `days` days later. */
export function trialEnd(start: Date, days: number): Date {
  return new Date(addDays(new TZDate(start.getTime(), BILLING_TIME_ZONE), days).getTime());
}

/**
 * Whether a new subscription of `userId` on `planId` starts a trial: the plan offers trial days
 * and the customer never had a trial on it (one trial per customer and plan: a second widget
 * confirmation or a new Create does not grant another).
 */
export async function trialDaysFor(
  uow: UnitOfWork,
  plan: { id: number; trialDays: number | null },
  userId: number,
): Promise<number> {
  if (!plan.trialDays || plan.trialDays <= 0) return 0;
  const [earlier] = await uow.tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.tenantId, uow.tenantId),
        eq(subscriptions.userId, userId),
        eq(subscriptions.planId, plan.id),
        sql`${subscriptions.trialEndsAt} is not null`,
      ),
    )
    .limit(1);
  return earlier ? 0 : plan.trialDays;
}

const romeDate = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

/** A running trial's subscription with what its e-mails need, locked; undefined when not running. */
async function runningTrial(w: UnitOfWork, id: number) {
  const [sub] = await w.tx
    .select({
      id: subscriptions.id,
      userId: subscriptions.userId,
      status: subscriptions.status,
      trialEndsAt: subscriptions.trialEndsAt,
      trialState: subscriptions.trialState,
      nextBillingDate: subscriptions.nextBillingDate,
      email: users.email,
      name: userTenants.name,
      planName: plans.name,
      tenantName: tenants.name,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(
      userTenants,
      and(eq(userTenants.userId, subscriptions.userId), eq(userTenants.tenantId, subscriptions.tenantId)),
    )
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .innerJoin(tenants, eq(tenants.id, subscriptions.tenantId))
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, id)))
    .for('update', { of: subscriptions });
  if (!sub || sub.trialState !== 'running' || sub.trialEndsAt === null) return undefined;
  return { ...sub, trialEndsAt: sub.trialEndsAt };
}

/** The unpaid first payment of a trial: the period that starts at its end. */
async function trialPayment(w: UnitOfWork, subscriptionId: number, trialEndsAt: Date) {
  const [p] = await w.tx
    .select({ id: payments.id, paidAt: payments.paidAt, amountDueCents: payments.amountDueCents })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        eq(payments.periodStart, trialEndsAt),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(1);
  return p;
}

export interface TrialRunResult {
  reminded: number;
  expired: number;
  failed: string[];
}

/**
 * The trials job's work for one tenant: the reminders due (trials ending within three days, not
 * reminded yet) and the ends due (trials whose end has passed unpaid). Each subscription in its
 * own unit; a failure is reported and retried by the next run, which repeats nothing done.
 */
export async function runTrials(
  deps: { uow: UnitOfWorkRunner; createLink: PaymentHooks['createRenewalPaymentLink'] | undefined },
  tenantId: number,
  jobName: string = TRIALS_JOB,
): Promise<TrialRunResult> {
  const actor = { kind: 'system', job: jobName } as const;
  const now = deps.uow.clock();
  const result: TrialRunResult = { reminded: 0, expired: 0, failed: [] };
  const running = and(
    eq(subscriptions.tenantId, tenantId),
    eq(subscriptions.trialState, 'running'),
    eq(subscriptions.status, SubscriptionStatus.ActiveNoRenewal),
  );
  const [toRemind, toEnd] = await deps.uow.run({ tenantId, actor }, async (w) => [
    await w.tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        and(
          running,
          gt(subscriptions.trialEndsAt, now),
          lte(subscriptions.trialEndsAt, new Date(now.getTime() + TRIAL_REMINDER_DAYS_BEFORE * DAY_MS)),
          notExists(
            w.tx
              .select({ one: sql`1` })
              .from(subscriptionReminders)
              .where(
                and(
                  eq(subscriptionReminders.subscriptionId, subscriptions.id),
                  eq(subscriptionReminders.kind, 'trial'),
                  eq(subscriptionReminders.periodEnd, subscriptions.trialEndsAt),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(subscriptions.id)),
    await w.tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(running, lte(subscriptions.trialEndsAt, now)))
      .orderBy(asc(subscriptions.id)),
  ]);

  for (const { id } of toRemind) {
    try {
      const done = await deps.uow.run({ tenantId, actor }, async (w) => {
        const sub = await runningTrial(w, id);
        if (!sub || sub.status !== SubscriptionStatus.ActiveNoRenewal) return false;
        const payment = await trialPayment(w, sub.id, sub.trialEndsAt);
        if (!payment || payment.paidAt !== null) return false;
        const [claimed] = await w.tx
          .insert(subscriptionReminders)
          .values({
            tenantId: w.tenantId,
            subscriptionId: sub.id,
            kind: 'trial',
            periodEnd: sub.trialEndsAt,
            sentAt: w.now,
          })
          .onConflictDoNothing()
          .returning({ id: subscriptionReminders.id });
        if (!claimed) return false;
        // A link when one can be made (a provider the plan is on); else the customer's area, whose
        // sign-in link every e-mail carries.
        const link = await paymentLinkIfAny(w, deps.createLink, {
          subscriptionId: sub.id,
          periodStart: sub.trialEndsAt,
        });
        await w.outbox.email(
          withSignInLink(
            trialEndingMail(sub.email, sub.name, {
              tenantName: sub.tenantName,
              planName: sub.planName,
              endsOn: romeDate.format(sub.trialEndsAt),
              amount: formatEur(payment.amountDueCents),
              link,
            }),
            sub.userId,
          ),
        );
        return true;
      });
      if (done) result.reminded++;
    } catch (error) {
      result.failed.push(`sottoscrizione ${id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  for (const { id } of toEnd) {
    try {
      const done = await deps.uow.run({ tenantId, actor }, async (w) => {
        const sub = await runningTrial(w, id);
        if (!sub || sub.status !== SubscriptionStatus.ActiveNoRenewal) return false;
        if (sub.trialEndsAt.getTime() > w.now.getTime()) return false;
        const payment = await trialPayment(w, sub.id, sub.trialEndsAt);
        if (payment?.paidAt) return false; // converted: its payment.paid consumer marks it
        await changeStatus(
          w,
          { id: sub.id, status: SubscriptionStatus.ActiveNoRenewal },
          'trialExpired',
          'Periodo di prova terminato senza il primo pagamento',
        );
        await w.tx
          .update(subscriptions)
          .set({ trialState: 'expired', updatedAt: w.now })
          .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
        await w.outbox.email(
          withSignInLink(
            trialEndedMail(sub.email, sub.name, {
              tenantName: sub.tenantName,
              planName: sub.planName,
              endedOn: romeDate.format(sub.trialEndsAt),
            }),
            sub.userId,
          ),
        );
        return true;
      });
      if (done) result.expired++;
    } catch (error) {
      result.failed.push(`sottoscrizione ${id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}

/**
 * A trial's first payment paid (any way): the trial is converted, once, in the payment's own
 * transaction; the history says so ('trialConverted', no status move of its own).
 */
export async function convertTrialIfFirstPayment(w: UnitOfWork, paymentId: number): Promise<boolean> {
  const [row] = await w.tx
    .select({
      subscriptionId: subscriptions.id,
      status: subscriptions.status,
      trialEndsAt: subscriptions.trialEndsAt,
      periodStart: payments.periodStart,
    })
    .from(payments)
    .innerJoin(
      subscriptions,
      and(eq(subscriptions.id, payments.subscriptionId), eq(subscriptions.tenantId, payments.tenantId)),
    )
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.id, paymentId),
        eq(subscriptions.trialState, 'running'),
      ),
    );
  if (!row || row.trialEndsAt === null || row.periodStart.getTime() !== row.trialEndsAt.getTime())
    return false;
  const moved = await w.tx
    .update(subscriptions)
    .set({ trialState: 'converted', updatedAt: w.now })
    .where(
      and(
        eq(subscriptions.tenantId, w.tenantId),
        eq(subscriptions.id, row.subscriptionId),
        eq(subscriptions.trialState, 'running'),
      ),
    )
    .returning({ id: subscriptions.id, status: subscriptions.status });
  if (moved.length === 0) return false;
  await recordHistory(
    w,
    { id: row.subscriptionId, status: moved[0]!.status as typeof SubscriptionStatus.Active },
    'trialConverted',
    null,
  );
  return true;
}

export function subscribeTrialConversions(events: EventBus): void {
  events.subscribe('payment.paid', {
    name: 'trial.converted',
    phase: 'inTransaction',
    handle: async (w, { paymentId }) => {
      if (await convertTrialIfFirstPayment(w, paymentId))
        return { outcome: 'applied' as const, detail: `prova convertita dal pagamento ${paymentId}` };
    },
  });
}
