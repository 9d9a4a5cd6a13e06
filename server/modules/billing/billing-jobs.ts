/**
 * The recurring jobs (api-contract 'Background jobs', product spec §3). Each is a pg-boss cron
 * schedule in Europe/Rome whose run fans out one job per tenant ({ tenantId }) on the same queue;
 * each tenant's job does its work once: running it twice in a period changes nothing more.
 * Every change goes through a unit of work whose actor is the job ({ kind: 'system', job }).
 */
import { and, asc, eq, exists, gt, inArray, isNull, lte, not, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import {
  paymentProviders,
  payments,
  plans,
  subscriptionEvents,
  subscriptionReminders,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../db/schema';
import { renewalReminderMail, renewalTransferMail, withSignInLink } from '../../mail/templates';
import { changeStatus, ensureRenewalPayment, formatEur, instructionsOfPayment } from './subscription.service';
import { renewsByTransfer } from './billing.repository';
import type { UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import type { JobContext, JobDefinition } from '../../jobs/engine';
import type { PaymentHooks } from './payment-hooks';
import { italianDay, paymentLinkIfAny, runDunning } from './dunning';
import { addDays, ladderOf } from './collection.service';
import { applyDuePlanChanges } from './plan-change.service';
import { endDuePauses } from './pause.service';
import type { ProviderRegistry } from '../../providers/registry';
import { runTrials, TRIALS_JOB } from './trials';
import { expirePayPalCouponApprovals } from './paypal-coupon-revise';

/** Not a running trial (issue 30): those end and are reminded by the trials job. */
const notRunningTrial = sql`${subscriptions.trialState} is distinct from 'running'`;

export const JOB_NAMES = {
  expireSubscriptions: 'subscriptions-expire',
  expireTokens: 'payment-tokens-expire',
  paypalSync: 'paypal-sync',
  renewalReminders: 'renewal-reminders',
  dunning: 'dunning',
  planChanges: 'plan-changes',
  pauses: 'subscription-pauses',
  trials: TRIALS_JOB,
  paypalCouponExpiry: 'paypal-coupon-expiry',
} as const;

/** Days before the next billing date when the renewal reminder goes out. */
export const REMINDER_DAYS_BEFORE = 7;
const DAY_MS = 86_400_000;

const retries = { retryLimit: 3, retryDelaySeconds: 60, retryBackoff: true } as const;

export interface RecurringJobDeps {
  db: Database;
  uow: UnitOfWorkRunner;
  /** Absent (or partly absent) until the payments issue provides them: see payment-hooks.ts. */
  hooks: Partial<PaymentHooks>;
  /** The providers a pause's end re-activates (PayPal); absent, a PayPal pause's end fails and is retried. */
  providers?: ProviderRegistry;
}

async function allTenants(db: Database): Promise<number[]> {
  const rows = await db.select({ id: tenants.id }).from(tenants).orderBy(asc(tenants.id));
  return rows.map((r) => r.id);
}

/** Tenants with a payment provider named like 'paypal' (GetPayPalSettingsByTenant's rule). */
export async function tenantsWithPaypal(db: Database): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: paymentProviders.tenantId })
    .from(paymentProviders)
    .where(sql`lower(${paymentProviders.name}) like '%paypal%'`)
    .orderBy(asc(paymentProviders.tenantId));
  return rows.map((r) => r.id);
}

/**
 * A job run without `tenantId` (the cron's) enqueues one job per tenant; with `tenantId` it does
 * that tenant's work. The per-tenant jobs retry independently of each other.
 */
function perTenant(
  base: Omit<JobDefinition, 'run' | 'retryLimit' | 'retryDelaySeconds' | 'retryBackoff'>,
  tenantsOf: () => Promise<number[]>,
  work: (tenantId: number, ctx: JobContext) => Promise<Record<string, unknown>>,
): JobDefinition {
  return {
    ...base,
    ...retries,
    async run(data, ctx) {
      if (data.tenantId === undefined || data.tenantId === null) {
        const ids = await tenantsOf();
        for (const tenantId of ids) await ctx.enqueue(base.name, { tenantId });
        return { tenants: ids.length };
      }
      const tenantId = Number(data.tenantId);
      if (!Number.isInteger(tenantId) || tenantId < 1)
        throw new Error(`tenantId non valido: ${String(data.tenantId)}`);
      return work(tenantId, ctx);
    },
  };
}

/**
 * ActiveNoRenewal → NotActive once the next billing date has passed (event 'expire', in the
 * history), unless it renews by bank transfer (issue 29): while the bank-transfer payment of the
 * period starting at its next billing date is still in collection (unpaid, 'due' or 'overdue'),
 * the customer keeps access through the ladder's grace (pastDue) and the dunning job ends it at the
 * ladder's final day ('collectionExhausted'); the transfer recorded ('Segna come pagato') or a
 * payment link paid moves its next billing date on. This holds for a period the customer chose
 * to pay by transfer ('Passa al bonifico', issue 28) too: no BankTransferPending any more.
 */
export async function expireSubscriptions(
  uow: UnitOfWorkRunner,
  tenantId: number,
  jobName: string = JOB_NAMES.expireSubscriptions,
): Promise<number> {
  return uow.run({ tenantId, actor: { kind: 'system', job: jobName } }, async (w) => {
    const due = await w.tx
      .select({
        id: subscriptions.id,
        status: subscriptions.status,
        nextBillingDate: subscriptions.nextBillingDate,
      })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.tenantId, w.tenantId),
          eq(subscriptions.status, SubscriptionStatus.ActiveNoRenewal),
          lte(subscriptions.nextBillingDate, w.now),
          notRunningTrial,
          or(
            notExists(
              w.tx
                .select({ one: sql`1` })
                .from(payments)
                .where(
                  and(
                    eq(payments.tenantId, subscriptions.tenantId),
                    eq(payments.subscriptionId, subscriptions.id),
                    eq(payments.periodStart, subscriptions.nextBillingDate),
                    isNull(payments.paidAt),
                    eq(payments.method, 'bankTransfer'),
                    inArray(payments.collectionStatus, ['due', 'overdue']),
                  ),
                ),
            ),
            // Its customer turned the renewal by transfer off: it ends with its period.
            lastEventIsStop(w),
          ),
        ),
      )
      .orderBy(asc(subscriptions.id))
      .for('update', { of: subscriptions });
    for (const sub of due) {
      await changeStatus(
        w,
        { id: sub.id, status: sub.status as typeof SubscriptionStatus.ActiveNoRenewal },
        'expire',
        'Data del prossimo rinnovo superata senza rinnovo',
      );
    }
    return due.length;
  });
}

const romeDate = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

/**
 * Renewal reminders: each ActiveNoRenewal subscription whose next billing date falls within the
 * next 7 days gets one e-mail per period with a fresh payment link. The reminder row (unique per
 * subscription and period) is written in the same unit as the link and the e-mail's outbox row,
 * so a second run sends nothing and a failed link leaves nothing half-done.
 *
 * Issue 29: one that renews by bank transfer (`renewsByTransfer`) gets instead the next period's
 * payment (method 'bankTransfer', due on the Rome day of the next billing date) and its transfer
 * instructions, with a payment link beside them when one can be made; in the same unit.
 */
const laterEvent = alias(subscriptionEvents, 'later_event');

/**
 * The subscription's last event is its customer's stopRenewal ('Disattiva il rinnovo', issue 28,
 * or of a renewal by transfer, issue 29): a renewal turned off and not back on.
 */
function lastEventIsStop(w: UnitOfWork) {
  return exists(
    w.tx
      .select({ one: sql`1` })
      .from(subscriptionEvents)
      .where(
        and(
          eq(subscriptionEvents.tenantId, subscriptions.tenantId),
          eq(subscriptionEvents.subscriptionId, subscriptions.id),
          eq(subscriptionEvents.event, 'stopRenewal'),
          notExists(
            w.tx
              .select({ one: sql`1` })
              .from(laterEvent)
              .where(
                and(
                  eq(laterEvent.subscriptionId, subscriptionEvents.subscriptionId),
                  gt(laterEvent.id, subscriptionEvents.id),
                ),
              ),
          ),
        ),
      ),
  );
}

export async function sendRenewalReminders(
  deps: { uow: UnitOfWorkRunner; createLink: PaymentHooks['createRenewalPaymentLink'] },
  tenantId: number,
  jobName: string = JOB_NAMES.renewalReminders,
): Promise<{ sent: number; failed: string[] }> {
  const actor = { kind: 'system', job: jobName } as const;
  const now = deps.uow.clock();
  const candidates = await deps.uow.run({ tenantId, actor }, (w) =>
    w.tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.tenantId, w.tenantId),
          eq(subscriptions.status, SubscriptionStatus.ActiveNoRenewal),
          gt(subscriptions.nextBillingDate, now),
          lte(subscriptions.nextBillingDate, new Date(now.getTime() + REMINDER_DAYS_BEFORE * DAY_MS)),
          notRunningTrial,
          // A renewal its customer turned off ('Disattiva il rinnovo', issue 28: the last event of
          // the subscription is their stopRenewal) ends with its period: no payment link for it.
          not(lastEventIsStop(w)),
          notExists(
            w.tx
              .select({ one: sql`1` })
              .from(subscriptionReminders)
              .where(
                and(
                  eq(subscriptionReminders.subscriptionId, subscriptions.id),
                  eq(subscriptionReminders.kind, 'renewal'),
                  eq(subscriptionReminders.periodEnd, subscriptions.nextBillingDate),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(subscriptions.id)),
  );
  let sent = 0;
  const failed: string[] = [];
  for (const { id } of candidates) {
    try {
      const done = await deps.uow.run({ tenantId, actor }, async (w) => {
        const [sub] = await w.tx
          .select({
            id: subscriptions.id,
            userId: subscriptions.userId,
            planId: subscriptions.planId,
            status: subscriptions.status,
            startDate: subscriptions.startDate,
            nextBillingDate: subscriptions.nextBillingDate,
            amountDueCents: subscriptions.amountDueCents,
            email: users.email,
            name: userTenants.name,
            planName: plans.name,
            tenantName: tenants.name,
          })
          .from(subscriptions)
          .innerJoin(users, eq(users.id, subscriptions.userId))
          .innerJoin(
            userTenants,
            and(
              eq(userTenants.userId, subscriptions.userId),
              eq(userTenants.tenantId, subscriptions.tenantId),
            ),
          )
          .innerJoin(
            plans,
            and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)),
          )
          .innerJoin(tenants, eq(tenants.id, subscriptions.tenantId))
          .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, id)))
          .for('update', { of: subscriptions });
        if (!sub || sub.status !== SubscriptionStatus.ActiveNoRenewal) return false;
        const [claimed] = await w.tx
          .insert(subscriptionReminders)
          .values({
            tenantId: w.tenantId,
            subscriptionId: sub.id,
            kind: 'renewal',
            periodEnd: sub.nextBillingDate,
            sentAt: w.now,
          })
          .onConflictDoNothing()
          .returning({ id: subscriptionReminders.id });
        if (!claimed) return false;
        if (await renewsByTransfer(w, sub.id, sub.nextBillingDate)) {
          await mailRenewalByTransfer(w, sub, deps.createLink);
          return true;
        }
        // The period's payment first (issue 30: a residual credit sets it off, so the e-mail says
        // the amount the link asks; one the credit wholly covers is paid by it: nothing to mail).
        const payment = await ensureRenewalPayment(w, sub, sub.nextBillingDate);
        if (payment.paidAt !== null) return true;
        const link = await deps.createLink(w, { subscriptionId: sub.id, periodStart: sub.nextBillingDate });
        await w.outbox.email(
          withSignInLink(
            renewalReminderMail(sub.email, sub.name, {
              tenantName: sub.tenantName,
              planName: sub.planName,
              endsOn: romeDate.format(sub.nextBillingDate),
              amount: formatEur(payment.amountDueCents),
              link,
            }),
            sub.userId,
          ),
        );
        return true;
      });
      if (done) sent++;
    } catch (error) {
      failed.push(`sottoscrizione ${id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { sent, failed };
}

/**
 * Test seam: called right after a renewal-by-transfer e-mail is written to the outbox, inside its
 * unit. A test makes it throw to prove that a crash there leaves nothing (no reminder row, no
 * payment, no e-mail) and the next run does it once.
 */
export const renewalFaults: { afterTransferMail: ((subscriptionId: number) => void) | null } = {
  afterTransferMail: null,
};

/**
 * The next period's payment by bank transfer (made now if missing; recorded as a transfer) and
 * the e-mail with its instructions, the grace and, when one can be made, a payment link.
 */
async function mailRenewalByTransfer(
  w: UnitOfWork,
  sub: {
    id: number;
    userId: number;
    planId: number;
    startDate: Date;
    nextBillingDate: Date;
    amountDueCents: number;
    email: string;
    name: string | null;
    planName: string;
    tenantName: string;
  },
  createLink: PaymentHooks['createRenewalPaymentLink'],
): Promise<void> {
  const payment = await ensureRenewalPayment(w, sub, sub.nextBillingDate);
  // Paid already: by the residual credit of a plan change that wholly covers it (issue 30,
  // `setOffRenewal`: 'creditSettled', its invoice): nothing to transfer, no instructions.
  if (payment.paidAt !== null) return;
  if (payment.method !== 'bankTransfer')
    await w.tx
      .update(payments)
      .set({ method: 'bankTransfer' })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, payment.id)));
  const instructions = await instructionsOfPayment(w, payment);
  const ladder = await ladderOf(w);
  const link = await paymentLinkIfAny(w, createLink, {
    subscriptionId: sub.id,
    periodStart: sub.nextBillingDate,
  });
  await w.outbox.email(
    withSignInLink(
      renewalTransferMail(sub.email, sub.name, {
        tenantName: sub.tenantName,
        planName: sub.planName,
        dueOn: italianDay(payment.dueDate),
        beneficiary: instructions.beneficiary,
        iban: instructions.iban,
        amount: formatEur(payment.amountDueCents),
        causale: payment.causale,
        graceEndsOn: italianDay(addDays(payment.dueDate, ladder.graceDays)),
        link,
      }),
      sub.userId,
    ),
  );
  renewalFaults.afterTransferMail?.(sub.id);
}

/**
 * The recurring jobs that can run with what is injected: a job whose payment dependency is
 * missing is left out (and named in `missing`), never faked.
 */
export function recurringJobs(deps: RecurringJobDeps): { definitions: JobDefinition[]; missing: string[] } {
  const { db, uow, hooks } = deps;
  const definitions: JobDefinition[] = [];
  const missing: string[] = [];

  definitions.push(
    perTenant(
      {
        name: JOB_NAMES.expireSubscriptions,
        label: 'Sottoscrizioni senza rinnovo scadute → non attive',
        cron: '5 * * * *',
      },
      () => allTenants(db),
      async (tenantId) => ({ tenantId, expired: await expireSubscriptions(uow, tenantId) }),
    ),
  );

  const { expireTokens, paypalTenants, syncPaypal, createRenewalPaymentLink } = hooks;
  if (expireTokens) {
    definitions.push(
      perTenant(
        { name: JOB_NAMES.expireTokens, label: 'Link di pagamento scaduti', cron: '*/15 * * * *' },
        () => allTenants(db),
        async (tenantId) => ({
          tenantId,
          expired: await uow.run({ tenantId, actor: { kind: 'system', job: JOB_NAMES.expireTokens } }, (w) =>
            expireTokens(w),
          ),
        }),
      ),
    );
  } else missing.push(`${JOB_NAMES.expireTokens} (PaymentHooks.expireTokens)`);

  if (syncPaypal) {
    definitions.push(
      perTenant(
        { name: JOB_NAMES.paypalSync, label: 'Sincronizzazione PayPal', cron: '30 2 * * *' },
        () => (paypalTenants ? paypalTenants() : tenantsWithPaypal(db)),
        async (tenantId) => ({ tenantId, updated: await syncPaypal(tenantId) }),
      ),
    );
  } else missing.push(`${JOB_NAMES.paypalSync} (PaymentHooks.syncPaypal)`);

  if (createRenewalPaymentLink) {
    definitions.push(
      perTenant(
        {
          name: JOB_NAMES.renewalReminders,
          label: 'Promemoria di rinnovo (7 giorni prima)',
          cron: '0 9 * * *',
        },
        () => allTenants(db),
        async (tenantId) => {
          const result = await sendRenewalReminders({ uow, createLink: createRenewalPaymentLink }, tenantId);
          if (result.failed.length > 0) {
            // The sent ones are recorded; a retry sends only the missing ones.
            throw new Error(
              `${result.failed.length} promemoria non inviati (${result.sent} inviati): ${result.failed[0]}`,
            );
          }
          return { tenantId, sent: result.sent };
        },
      ),
    );
  } else missing.push(`${JOB_NAMES.renewalReminders} (PaymentHooks.createRenewalPaymentLink)`);

  // Collection of payments (issue 29): the ladder's reminders and its end, once a day.
  definitions.push(
    perTenant(
      { name: JOB_NAMES.dunning, label: 'Solleciti di pagamento (incassi in ritardo)', cron: '0 10 * * *' },
      () => allTenants(db),
      async (tenantId) => {
        const result = await runDunning(
          {
            uow,
            createLink: createRenewalPaymentLink,
            stopAtProvider: hooks.stopProviderSubscription?.bind(hooks),
          },
          tenantId,
          JOB_NAMES.dunning,
        );
        if (result.failed.length > 0) {
          // What was done is recorded; a retry does only what is missing.
          throw new Error(`${result.failed.length} incassi non trattati: ${result.failed[0]}`);
        }
        return { ...result, failed: undefined };
      },
    ),
  );

  // Plan changes scheduled for a day (issue 30): applied once their day has come, every hour.
  definitions.push(
    perTenant(
      { name: JOB_NAMES.planChanges, label: 'Cambi di piano programmati', cron: '7 * * * *' },
      () => allTenants(db),
      async (tenantId) => ({
        tenantId,
        applied: await uow.run({ tenantId, actor: { kind: 'system', job: JOB_NAMES.planChanges } }, (w) =>
          applyDuePlanChanges(w),
        ),
      }),
    ),
  );

  // Pauses of collection whose periods are over (issue 30): ended every hour, once each.
  definitions.push(
    perTenant(
      { name: JOB_NAMES.pauses, label: 'Fine delle sospensioni dell’incasso', cron: '9 * * * *' },
      () => allTenants(db),
      async (tenantId) => {
        const result = await endDuePauses(
          { uow, providers: deps.providers ?? noProviders },
          tenantId,
          JOB_NAMES.pauses,
        );
        if (result.failed.length > 0)
          throw new Error(`${result.failed.length} sospensioni non terminate: ${result.failed[0]}`);
        return { tenantId, ended: result.ended };
      },
    ),
  );

  // Free trials (issue 30): the reminder three days before the end, and the end unpaid.
  definitions.push(
    perTenant(
      { name: JOB_NAMES.trials, label: 'Prove gratuite: promemoria e scadenze', cron: '15 9 * * *' },
      () => allTenants(db),
      async (tenantId) => {
        const result = await runTrials(
          { uow, createLink: createRenewalPaymentLink },
          tenantId,
          JOB_NAMES.trials,
        );
        if (result.failed.length > 0)
          // What was done is recorded; a retry does only what is missing.
          throw new Error(`${result.failed.length} prove non trattate: ${result.failed[0]}`);
        return { tenantId, reminded: result.reminded, expired: result.expired };
      },
    ),
  );

  // 'Applica coupon' on a PayPal subscription unapproved at its deadline (issue 30): 'expired', hourly.
  definitions.push(
    perTenant(
      {
        name: JOB_NAMES.paypalCouponExpiry,
        label: 'Coupon PayPal non approvati: scadenza',
        cron: '11 * * * *',
      },
      () => tenantsWithPaypal(db),
      async (tenantId) => ({
        tenantId,
        expired: await uow.run(
          { tenantId, actor: { kind: 'system', job: JOB_NAMES.paypalCouponExpiry } },
          (w) => expirePayPalCouponApprovals(w),
        ),
      }),
    ),
  );

  return { definitions, missing };
}

const noProviders = {
  adapterOf: () => Promise.reject(new Error('fornitori di pagamento non disponibili')),
} as unknown as ProviderRegistry;
