/**
 * The `dunning` job (issue 29): once a day per tenant, every unpaid payment still to collect —
 * overdue after a provider's failed charge, or a bank transfer whose due date has come — walks the
 * tenant's ladder: each step's reminder once (claimed by its collection_events row, unique per
 * payment and step, in the same unit as the e-mail's outbox row), and on `finalDay` the end:
 * 'exhausted', the subscription → NotActive through the state machine (system actor, event
 * 'collectionExhausted': history and outbound webhook), the customer told; then, outside any
 * transaction, the provider's subscription stopped at the provider (retried on the next run
 * until it succeeds: `payments.provider_stopped_at`).
 */
import { and, asc, eq, gte, inArray, isNotNull, isNull, lte, ne, not, or, sql } from 'drizzle-orm';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import type { CollectionSettings } from '../../../contract/schemas/collection';
import {
  collectionEvents,
  payments,
  plans,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import {
  collectionExhaustedMail,
  collectionReminderMail,
  type ReminderDetails,
} from '../../mail/collection-templates';
import { withSignInLink } from '../../mail/templates';
import type { ProviderKind } from '../../providers/payment-provider';
import type { UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import {
  addDays,
  collectionSettingsOf,
  daysBetween,
  recordCollectionEvent,
  romeDay,
} from './collection.service';
import type { PaymentHooks } from './payment-hooks';
import { changeStatus, formatEur, tenantBankDetails } from './subscription.service';

export const DUNNING_JOB = 'dunning';
/** Payments selected per query of the pass. */
const DUNNING_BATCH = 500;

/** The tenant's ladder with its e-mails ('Solleciti': each step's text by position, the final one). */
type Ladder = CollectionSettings;

/**
 * Test seam: called right after a reminder's e-mail is written to the outbox, inside its unit. A
 * test makes it throw to prove that a crash there sends nothing and the next run sends once.
 */
export const dunningFaults: { afterReminderMail: ((paymentId: number) => void) | null } = {
  afterReminderMail: null,
};

export interface DunningDeps {
  uow: UnitOfWorkRunner;
  /** A fresh payment link for a period (the renewal reminder's): optional, the area otherwise. */
  createLink?: PaymentHooks['createRenewalPaymentLink'] | undefined;
  /** Stops a provider subscription at its provider (PayPal: suspended; Stripe: cancelled). */
  stopAtProvider?:
    ((tenantId: number, kind: ProviderKind, providerSubscriptionId: string) => Promise<void>) | undefined;
}

export interface DunningResult {
  tenantId: number;
  overdue: number;
  reminded: number;
  exhausted: number;
  providerStopped: number;
  failed: string[];
}

/** Statuses whose unpaid payments are collected (a Canceled subscription's are left alone). */
const collectedStatuses = [
  SubscriptionStatus.Active,
  SubscriptionStatus.ActiveNoRenewal,
  SubscriptionStatus.BankTransferPending,
  SubscriptionStatus.NotActive,
];

/** Statuses the ladder's end moves to NotActive ('collectionExhausted'). */
const endedStatuses: readonly number[] = [
  SubscriptionStatus.Active,
  SubscriptionStatus.ActiveNoRenewal,
  SubscriptionStatus.BankTransferPending,
];

const rome = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'UTC',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
/** dd/mm/yyyy of a YYYY-MM-DD day. */
export const italianDay = (day: string) => rome.format(new Date(`${day}T00:00:00Z`));

/**
 * The payment with what its e-mails need, locked, in the unit's tenant (whose name the caller
 * read once), and the ladder steps whose reminder it already got.
 */
async function paymentForMail(w: UnitOfWork, paymentId: number, tenantName: string) {
  const [row] = await w.tx
    .select({
      id: payments.id,
      subscriptionId: payments.subscriptionId,
      amountDueCents: payments.amountDueCents,
      causale: payments.causale,
      method: payments.method,
      periodStart: payments.periodStart,
      paidAt: payments.paidAt,
      dueDate: payments.dueDate,
      collectionStatus: payments.collectionStatus,
      status: subscriptions.status,
      userId: subscriptions.userId,
      email: users.email,
      name: userTenants.name,
      planName: plans.name,
      remindedSteps: remindedStepsOf,
    })
    .from(payments)
    .innerJoin(
      subscriptions,
      and(eq(subscriptions.id, payments.subscriptionId), eq(subscriptions.tenantId, payments.tenantId)),
    )
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(
      userTenants,
      and(eq(userTenants.userId, subscriptions.userId), eq(userTenants.tenantId, subscriptions.tenantId)),
    )
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)))
    .for('update', { of: [payments, subscriptions] });
  if (!row) return undefined;
  const { remindedSteps, ...rest } = row;
  return { ...rest, tenantName, remindedSteps: stepsOf(remindedSteps) };
}

/** The steps whose reminder a payment already got (collection_events, unique per payment and step). */
const remindedStepsOf = sql<
  number[] | string | null
>`array(select ${collectionEvents.step} from ${collectionEvents} where ${collectionEvents.tenantId} = ${payments.tenantId} and ${collectionEvents.paymentId} = ${payments.id} and ${collectionEvents.kind} = 'reminder' and ${collectionEvents.step} is not null)`;

/** int2[] arrives parsed from node-postgres, as its text form from some drivers. */
function stepsOf(value: number[] | string | null): number[] {
  return Array.isArray(value)
    ? value.map(Number)
    : (value ?? '').replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

/**
 * Nothing to do today for a payment as the pass's selection read it: already overdue, before the
 * ladder's end, and today's step (if any) already sent. Since then only more can have happened
 * (paid, ended, the step sent), never less, so it needs no unit of its own: no lock, no commit.
 */
function nothingToday(
  p: { dueDate: string; collectionStatus: string; remindedSteps: number[] },
  ladder: Ladder,
  today: string,
): boolean {
  if (p.collectionStatus !== 'overdue') return false;
  const day = daysBetween(p.dueDate, today);
  if (day >= ladder.finalDay) return false;
  const step = stepOn(ladder, day);
  return step < 0 || p.remindedSteps.includes(step);
}

/** The tenant's name, read once per pass (not joined into every payment's lock). */
async function tenantNameOf(w: UnitOfWork): Promise<string> {
  const [tenant] = await w.tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, w.tenantId));
  return tenant?.name ?? '';
}
type PaymentForMail = NonNullable<Awaited<ReturnType<typeof paymentForMail>>>;

/** The step whose reminder goes out `day` days after the due date: the latest come, else -1. */
export function stepOn(ladder: Pick<Ladder, 'steps'>, day: number): number {
  let step = -1;
  for (let i = 0; i < ladder.steps.length; i++) if (ladder.steps[i]! <= day) step = i;
  return step;
}

/**
 * A fresh payment link (card or PayPal) of the period of `p`'s subscription that starts at
 * `periodStart`, in `w`; null when none can be made (no link maker, or an HttpError: the plan is
 * not on PayPal/Stripe at this amount, the subscription's status takes no link…).
 */
export async function paymentLinkIfAny(
  w: UnitOfWork,
  createLink: DunningDeps['createLink'],
  p: { subscriptionId: number; periodStart: Date },
): Promise<string | null> {
  if (!createLink) return null;
  try {
    return await createLink(w, { subscriptionId: p.subscriptionId, periodStart: p.periodStart });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return null;
  }
}

/**
 * A reminder of `p` to its customer, in `w`: the tenant's text of ladder step `step` (its
 * default when it has none), then the transfer's instructions (a bank transfer, with a fresh
 * payment link beside them when one can be made), the provider's retry and the way to update the
 * method (a card or PayPal of an Active subscription), else a fresh payment link when one can be
 * made, else the customer's area; always with the sign-in link. Written to the outbox (sent
 * after commit).
 */
export async function mailReminder(
  w: UnitOfWork,
  p: PaymentForMail,
  ladder: Ladder,
  createLink: DunningDeps['createLink'] | undefined,
  step: number,
): Promise<void> {
  const today = romeDay(w.now);
  let how: ReminderDetails['how'];
  if (p.method === 'bankTransfer' || p.status === SubscriptionStatus.BankTransferPending) {
    const bank = await tenantBankDetails(w);
    // Issue 29: a card or PayPal link beside the instructions, when one can be made (a renewal
    // by bank transfer; a first payment set to transfer by the Admin has none).
    const link = await paymentLinkIfAny(w, createLink, p);
    how = {
      kind: 'transfer',
      beneficiary: bank.beneficiary,
      iban: bank.iban,
      causale: p.causale,
      ...(link ? { link } : {}),
    };
  } else if ((p.method === 'stripe' || p.method === 'paypal') && p.status === SubscriptionStatus.Active) {
    how = { kind: 'provider', provider: p.method === 'stripe' ? 'Stripe' : 'PayPal' };
  } else {
    const url = await paymentLinkIfAny(w, createLink, p);
    // No link for this plan (not on PayPal/Stripe at this amount…): the area's 'Paga ora'.
    how = url ? { kind: 'link', url } : { kind: 'area' };
  }
  await w.outbox.email(
    withSignInLink(
      collectionReminderMail(
        p.email,
        p.name,
        {
          tenantName: p.tenantName,
          planName: p.planName,
          dueOn: italianDay(p.dueDate),
          amount: formatEur(p.amountDueCents),
          reference: p.causale,
          daysOverdue: Math.max(0, daysBetween(p.dueDate, today)),
          graceEndsOn: italianDay(addDays(p.dueDate, ladder.graceDays)),
          how,
        },
        ladder.emails.steps[step],
      ),
      p.userId,
    ),
  );
  dunningFaults.afterReminderMail?.(p.id);
}

type Outcome = 'none' | 'reminded' | 'exhausted';

/** A payment as the pass's selection reads it. */
interface ToCollect {
  id: number;
  dueDate: string;
  collectionStatus: string;
  remindedSteps: number[] | string | null;
}

/** One payment's day on the ladder, in its own unit. */
async function collectOne(
  w: UnitOfWork,
  paymentId: number,
  ladder: Ladder,
  tenantName: string,
  createLink: DunningDeps['createLink'],
): Promise<{ outcome: Outcome; becameOverdue: boolean }> {
  const p = await paymentForMail(w, paymentId, tenantName);
  const none = { outcome: 'none' as const, becameOverdue: false };
  if (!p || p.paidAt !== null) return none;
  if (p.collectionStatus !== 'due' && p.collectionStatus !== 'overdue') return none;
  const today = romeDay(w.now);
  const day = daysBetween(p.dueDate, today);
  if (day < 0) return none;
  let becameOverdue = false;
  if (p.collectionStatus === 'due') {
    await w.tx
      .update(payments)
      .set({ collectionStatus: 'overdue' })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, p.id)));
    await recordCollectionEvent(w, p.id, 'due', { note: 'Scadenza superata senza pagamento' });
    becameOverdue = true;
  }
  if (day >= ladder.finalDay) {
    await w.tx
      .update(payments)
      .set({ collectionStatus: 'exhausted' })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, p.id)));
    await recordCollectionEvent(w, p.id, 'exhausted', {
      note: `Nessun pagamento ${ladder.finalDay} giorni dopo la scadenza`,
    });
    if (endedStatuses.includes(p.status))
      await changeStatus(
        w,
        { id: p.subscriptionId, status: p.status as (typeof collectedStatuses)[number] },
        'collectionExhausted',
        `Pagamento ${p.id} non incassato: solleciti esauriti`,
      );
    await w.outbox.email(
      withSignInLink(
        collectionExhaustedMail(
          p.email,
          p.name,
          {
            tenantName: p.tenantName,
            planName: p.planName,
            dueOn: italianDay(p.dueDate),
            amount: formatEur(p.amountDueCents),
            reference: p.causale,
            daysOverdue: day,
            graceEndsOn: italianDay(addDays(p.dueDate, ladder.graceDays)),
          },
          ladder.emails.final,
        ),
        p.userId,
      ),
    );
    return { outcome: 'exhausted', becameOverdue };
  }
  // The latest step whose day has come: a missed earlier step is not sent late.
  const step = stepOn(ladder, day);
  // Already sent (read under the payment's lock, which every claim of a step takes first): no
  // claim to try. Otherwise the claim is the collection_events row, unique per payment and step.
  if (step < 0 || p.remindedSteps.includes(step)) return { outcome: 'none', becameOverdue };
  const claimed = await recordCollectionEvent(w, p.id, 'reminder', {
    step,
    note: `Giorno ${ladder.steps[step]}`,
  });
  if (!claimed) return { outcome: 'none', becameOverdue };
  await mailReminder(w, p, ladder, createLink, step);
  return { outcome: 'reminded', becameOverdue };
}

/** The tenant's daily pass. Each payment in its own unit; a failure is reported, the rest go on. */
export async function runDunning(
  deps: DunningDeps,
  tenantId: number,
  jobName = DUNNING_JOB,
): Promise<DunningResult> {
  const actor = { kind: 'system', job: jobName } as const;
  const result: DunningResult = {
    tenantId,
    overdue: 0,
    reminded: 0,
    exhausted: 0,
    providerStopped: 0,
    failed: [],
  };
  const { ladder, tenantName, today } = await deps.uow.run({ tenantId, actor }, async (w) => ({
    ladder: await collectionSettingsOf(w),
    tenantName: await tenantNameOf(w),
    today: romeDay(w.now),
  }));
  // The payments to collect, oldest due first, a batch at a time after the last one seen (keyset
  // on payments_collection_idx's order: (tenant, due date, id) among the unpaid still to collect,
  // each batch's subscriptions by their key; a pass does not go back to one it has seen).
  type Cursor = { dueDate: string; id: number };
  let after: Cursor | null = null;
  for (;;) {
    const cursor: Cursor | null = after;
    const batch: ToCollect[] = await deps.uow.run({ tenantId, actor }, (w) =>
      w.tx
        .select({
          id: payments.id,
          dueDate: payments.dueDate,
          collectionStatus: payments.collectionStatus,
          remindedSteps: remindedStepsOf,
        })
        .from(payments)
        .innerJoin(
          subscriptions,
          and(eq(subscriptions.id, payments.subscriptionId), eq(subscriptions.tenantId, payments.tenantId)),
        )
        .where(
          and(
            eq(payments.tenantId, w.tenantId),
            isNull(payments.paidAt),
            inArray(payments.collectionStatus, ['due', 'overdue']),
            lte(payments.dueDate, today),
            cursor
              ? sql`(${payments.dueDate}, ${payments.id}) > (${cursor.dueDate}::date, ${cursor.id})`
              : undefined,
            or(eq(payments.collectionStatus, 'overdue'), eq(payments.method, 'bankTransfer')),
            inArray(subscriptions.status, collectedStatuses),
            // A period the subscription never entered (its renewal turned off by the customer,
            // then ended at its date): nothing to collect.
            not(
              and(
                eq(subscriptions.status, SubscriptionStatus.NotActive),
                gte(payments.periodStart, subscriptions.nextBillingDate),
              )!,
            ),
          ),
        )
        .orderBy(asc(payments.dueDate), asc(payments.id))
        .limit(DUNNING_BATCH),
    );
    for (const row of batch) {
      const id = row.id;
      if (nothingToday({ ...row, remindedSteps: stepsOf(row.remindedSteps) }, ladder, today)) continue;
      try {
        const done = await deps.uow.run({ tenantId, actor }, (w) =>
          collectOne(w, id, ladder, tenantName, deps.createLink),
        );
        if (done.becameOverdue) result.overdue++;
        if (done.outcome === 'reminded') result.reminded++;
        if (done.outcome === 'exhausted') result.exhausted++;
      } catch (error) {
        result.failed.push(`pagamento ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (batch.length < DUNNING_BATCH) break;
    after = batch[batch.length - 1]!;
  }
  if (deps.stopAtProvider) await stopProviders(deps, tenantId, actor, result);
  return result;
}

/**
 * Exhausted payments whose provider subscription is still running there: stopped at the provider
 * (outside any transaction), then marked done. A failure is reported and retried the next run.
 */
async function stopProviders(
  deps: DunningDeps,
  tenantId: number,
  actor: { kind: 'system'; job: string },
  result: DunningResult,
): Promise<void> {
  const pending = await deps.uow.run({ tenantId, actor }, (w) =>
    w.tx
      .select({ id: payments.id, method: payments.method, providerId: payments.providerSubscriptionId })
      .from(payments)
      .where(
        and(
          eq(payments.tenantId, w.tenantId),
          // Always true of an exhausted payment (paid, it is recovered in the paying unit): it lets
          // payments_tenant_paid_at_idx serve the query among the unpaid, not every payment read.
          isNull(payments.paidAt),
          eq(payments.collectionStatus, 'exhausted'),
          isNull(payments.providerStoppedAt),
          isNotNull(payments.providerSubscriptionId),
          inArray(payments.method, ['paypal', 'stripe']),
        ),
      )
      .orderBy(asc(payments.id)),
  );
  for (const p of pending) {
    try {
      await deps.stopAtProvider!(tenantId, p.method as ProviderKind, p.providerId!);
      await deps.uow.run({ tenantId, actor }, (w) =>
        w.tx
          .update(payments)
          .set({ providerStoppedAt: w.now })
          .where(
            and(
              eq(payments.tenantId, w.tenantId),
              eq(payments.id, p.id),
              ne(payments.collectionStatus, 'due'),
            ),
          ),
      );
      result.providerStopped++;
    } catch (error) {
      result.failed.push(
        `fornitore del pagamento ${p.id}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/**
 * 'Sollecita ora' (an Admin): the reminder e-mail now (the text of the step reached), recorded as a reminder without a ladder
 * step (the ladder's own steps still go out on their days). 404 for another tenant's payment;
 * 409 when it is paid, or its ladder ended.
 */
export async function remindNow(
  w: UnitOfWork,
  paymentId: number,
  createLink: DunningDeps['createLink'],
  conflict: string,
  notFound: string,
): Promise<void> {
  const p = await paymentForMail(w, paymentId, await tenantNameOf(w));
  if (!p) throw new HttpError(404, notFound);
  if (p.paidAt !== null || (p.collectionStatus !== 'due' && p.collectionStatus !== 'overdue'))
    throw new HttpError(409, conflict);
  const ladder = await collectionSettingsOf(w);
  await recordCollectionEvent(w, p.id, 'reminder', { note: 'Sollecito manuale' });
  // The text of the step the ladder has reached today (the first before its day).
  const step = Math.max(0, stepOn(ladder, daysBetween(p.dueDate, romeDay(w.now))));
  await mailReminder(w, p, ladder, createLink, step);
}
