import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { at, cents, createdAt, id, updatedAt } from './columns';
import { plans } from './plans';
import { tenantColumn, tenants } from './tenants';
import { userTenants } from './users';

/**
 * Billing. Money is integer euro cents (`*_cents`, bigint read as a JS number: exact far beyond
 * any amount accepted) with its currency; VAT is hundredths of a percent (22 % → 2200). Every
 * child references its parent together with the tenant, `(parent_id, tenant_id)`, so no row can
 * point into another tenant.
 */

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    tenantId: tenantColumn(),
    userId: integer('user_id').notNull(),
    planId: integer('plan_id').notNull(),
    /** contract/subscription-status.ts: 1 Active … 5 Canceled; changed only through the state machine. */
    status: smallint('status').notNull(),
    startDate: at('start_date').notNull(),
    /** start date + the plan's recurrence months (clamped), kept by the server. */
    nextBillingDate: at('next_billing_date').notNull(),
    /** The agreed price: cost before VAT and VAT, fixed at create (or while NotActive). */
    costBeforeVatCents: cents('cost_before_vat_cents').notNull(),
    vatHundredths: integer('vat_hundredths').notNull(),
    amountDueCents: cents('amount_due_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    /**
     * What the list's free-text search looks in: lower-cased customer name, e-mail and plan name.
     * Kept by database triggers (migration 0004) when a subscription, a customer's name or e-mail
     * or a plan's name changes, so search is one trigram-indexed column of one table.
     */
    searchText: text('search_text').notNull().default(''),
    /**
     * A pause of collection (issue 30, 'Sospendi incasso'), or all null: no payment is due for the
     * periods from `pause_from` (the next billing date when it was paused) to `paused_until` (that
     * date + `pause_periods` periods, which became the next billing date). `pause_entitlements`
     * 'keep' | 'suspend': the customer's entitlements within [pause_from, paused_until). Cleared when
     * resumed ('Riprendi ora') or when its periods are over (the subscription-pauses job).
     */
    pauseFrom: at('pause_from'),
    pausedUntil: at('paused_until'),
    pausePeriods: smallint('pause_periods'),
    pauseEntitlements: text('pause_entitlements'),
    /**
     * Issue 30 ('Prove'): the end of the free trial the subscription started with (its first
     * payment is due then), or null for none; kept after the trial as its record.
     */
    trialEndsAt: at('trial_ends_at'),
    /** 'running' | 'converted' (first payment paid) | 'expired' (unpaid at its end); null: no trial. */
    trialState: text('trial_state'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('subscriptions_id_tenant_id_unique').on(t.id, t.tenantId),
    index('subscriptions_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    foreignKey({
      name: 'subscriptions_user_membership_fk',
      columns: [t.userId, t.tenantId],
      foreignColumns: [userTenants.userId, userTenants.tenantId],
    }),
    foreignKey({
      name: 'subscriptions_plan_fk',
      columns: [t.planId, t.tenantId],
      foreignColumns: [plans.id, plans.tenantId],
    }),
    // Newest first, whole tenant or by status / plan / customer (the list's filters).
    index('subscriptions_tenant_id_idx').on(t.tenantId, t.id.desc()),
    index('subscriptions_tenant_status_idx').on(t.tenantId, t.status, t.id.desc()),
    index('subscriptions_tenant_plan_idx').on(t.tenantId, t.planId, t.id.desc()),
    index('subscriptions_tenant_user_idx').on(t.tenantId, t.userId, t.id.desc()),
    // Jobs: subscriptions of a status whose next billing date has passed.
    index('subscriptions_status_next_billing_idx').on(t.status, t.nextBillingDate),
    check('subscriptions_status_check', sql`${t.status} between 1 and 5`),
    check('subscriptions_cost_check', sql`${t.costBeforeVatCents} >= 0 and ${t.amountDueCents} >= 0`),
    check('subscriptions_vat_check', sql`${t.vatHundredths} between 0 and 10000`),
    check('subscriptions_currency_check', sql`${t.currency} = 'EUR'`),
    check(
      'subscriptions_pause_check',
      sql`(${t.pauseFrom} is null and ${t.pausedUntil} is null and ${t.pausePeriods} is null and ${t.pauseEntitlements} is null) or (${t.pauseFrom} is not null and ${t.pausedUntil} > ${t.pauseFrom} and ${t.pausePeriods} between 1 and 12 and ${t.pauseEntitlements} in ('keep', 'suspend'))`,
    ),
    // The subscription-pauses job: pauses whose periods are over.
    index('subscriptions_paused_until_idx')
      .on(t.pausedUntil)
      .where(sql`${t.pausedUntil} is not null`),
    check(
      'subscriptions_trial_check',
      sql`(${t.trialEndsAt} is null and ${t.trialState} is null) or (${t.trialEndsAt} is not null and ${t.trialState} in ('running', 'converted', 'expired'))`,
    ),
    // The trials job and the dashboard: trials of a tenant by state and end.
    index('subscriptions_trial_idx')
      .on(t.tenantId, t.trialState, t.trialEndsAt)
      .where(sql`${t.trialEndsAt} is not null`),
  ],
);

/**
 * Coupons of a tenant (issue 30). The discount is a percentage (hundredths: 10 % → 1000) or an
 * amount (euro cents before VAT), never both. `times_redeemed` is raised by a conditional update
 * (`… where max_redemptions is null or times_redeemed < max_redemptions`), so concurrent Creates
 * never redeem more than the maximum.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: id(),
    tenantId: tenantColumn(),
    /** Upper case, A–Z 0–9 - _. */
    code: text('code').notNull(),
    percentOffHundredths: integer('percent_off_hundredths'),
    amountOffCents: cents('amount_off_cents'),
    /** 'once' | 'repeating' | 'forever'. */
    duration: text('duration').notNull(),
    durationPeriods: smallint('duration_periods'),
    /** The plans it applies to; empty: every plan. */
    planIds: integer('plan_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** Last day it can be redeemed (Europe/Rome, included). */
    expiresAt: date('expires_at', { mode: 'string' }),
    maxRedemptions: integer('max_redemptions'),
    timesRedeemed: integer('times_redeemed').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('coupons_id_tenant_id_unique').on(t.id, t.tenantId),
    // One coupon per code in a tenant, whatever the case: a duplicate is a 409 on `code`.
    uniqueIndex('coupons_tenant_code_unique_idx').on(t.tenantId, sql`lower(${t.code})`),
    index('coupons_code_trgm_idx').using('gin', t.code.op('gin_trgm_ops')),
    check(
      'coupons_discount_check',
      sql`(${t.percentOffHundredths} is null) <> (${t.amountOffCents} is null)
        and (${t.percentOffHundredths} is null or ${t.percentOffHundredths} between 1 and 10000)
        and (${t.amountOffCents} is null or ${t.amountOffCents} > 0)`,
    ),
    check(
      'coupons_duration_check',
      sql`${t.duration} in ('once', 'repeating', 'forever')
        and ((${t.duration} = 'repeating') = (${t.durationPeriods} is not null))
        and (${t.durationPeriods} is null or ${t.durationPeriods} between 1 and 36)`,
    ),
    check(
      'coupons_redemptions_check',
      sql`${t.timesRedeemed} >= 0 and (${t.maxRedemptions} is null or ${t.maxRedemptions} >= 1)`,
    ),
  ],
);

/**
 * A coupon applied to a subscription (one per subscription). The discount is copied from the
 * coupon when redeemed, so a later edit of the coupon changes only later redemptions.
 * `periods_left`: the paid periods still discounted (null: forever); it goes down when a
 * discounted payment is paid, and the subscription's amount due returns to the full price at 0.
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: id(),
    tenantId: tenantColumn(),
    couponId: integer('coupon_id').notNull(),
    subscriptionId: integer('subscription_id').notNull(),
    percentOffHundredths: integer('percent_off_hundredths'),
    amountOffCents: cents('amount_off_cents'),
    periodsLeft: smallint('periods_left'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('coupon_redemptions_id_tenant_id_unique').on(t.id, t.tenantId),
    unique('coupon_redemptions_subscription_unique').on(t.subscriptionId),
    foreignKey({
      name: 'coupon_redemptions_coupon_fk',
      columns: [t.couponId, t.tenantId],
      foreignColumns: [coupons.id, coupons.tenantId],
    }),
    foreignKey({
      name: 'coupon_redemptions_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    index('coupon_redemptions_coupon_idx').on(t.couponId, t.id),
    check('coupon_redemptions_periods_check', sql`${t.periodsLeft} is null or ${t.periodsLeft} >= 0`),
    check(
      'coupon_redemptions_discount_check',
      sql`(${t.percentOffHundredths} is null) <> (${t.amountOffCents} is null)`,
    ),
  ],
);

/** What a subscription period costs and how it was paid. The first one is made with the subscription. */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    tenantId: tenantColumn(),
    subscriptionId: integer('subscription_id').notNull(),
    amountDueCents: cents('amount_due_cents').notNull(),
    /**
     * The amount before VAT (half-up from the amount due and the subscription's VAT at the time),
     * set by a database trigger (migration 0011) whenever the amount is written: what the
     * dashboard's revenue counts, fixed even if the subscription's price changes later.
     */
    netCents: cents('net_cents').notNull().default(0),
    currency: text('currency').notNull().default('EUR'),
    /** Bank-transfer causale that identifies the payment (unique in the tenant). */
    causale: text('causale').notNull(),
    periodStart: at('period_start').notNull(),
    periodEnd: at('period_end').notNull(),
    /** 'bankTransfer' | 'paypal' | 'stripe' once chosen. */
    method: text('method'),
    providerSubscriptionId: text('provider_subscription_id'),
    /** The provider's id of the charge that paid this period (PayPal sale id): one charge, one payment. */
    providerPaymentId: text('provider_payment_id'),
    paidAt: at('paid_at'),
    /**
     * Collection (issue 29), YYYY-MM-DD in Europe/Rome: when the payment is due. Filled by a
     * database trigger (migration 0027) when an insert leaves it out: the Rome day of `paid_at`
     * for a payment written paid, else of `period_start`.
     */
    dueDate: date('due_date', { mode: 'string' })
      .notNull()
      .default(sql`null`),
    /**
     * 'due' (not overdue: not yet due, or paid without ever being overdue), 'overdue' (a provider
     * charge failed, or the due date passed unpaid), 'recovered' (paid after being overdue),
     * 'exhausted' (the ladder ended unpaid). contract/schemas/collection.ts.
     */
    collectionStatus: text('collection_status').notNull().default('due'),
    /**
     * After exhaustion, when the provider subscription (PayPal, Stripe) was stopped at the
     * provider: null while that call is still to be made (the dunning job retries it).
     */
    providerStoppedAt: at('provider_stopped_at'),
    /**
     * The coupon redemption whose discount this period's amount carries (issue 30), or null: the
     * invoice of the payment applies that discount, so its net to pay is the amount asked.
     */
    couponRedemptionId: integer('coupon_redemption_id'),
    /**
     * The plan change whose new days this payment charges (issue 30, `plan_changes`), or null: its
     * invoice is one line of those days, with the change's credit note set off.
     */
    planChangeId: integer('plan_change_id'),
    /**
     * The one-off charge this payment collects on its own ('Addebito una tantum', 'Subito', issue
     * 30, `one_off_charges`), or null: its invoice is the charge's lines.
     */
    oneOffChargeId: integer('one_off_charge_id'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('payments_id_tenant_id_unique').on(t.id, t.tenantId),
    unique('payments_tenant_causale_unique').on(t.tenantId, t.causale),
    unique('payments_tenant_provider_payment_unique').on(t.tenantId, t.providerPaymentId),
    foreignKey({
      name: 'payments_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    foreignKey({
      name: 'payments_coupon_redemption_fk',
      columns: [t.couponRedemptionId, t.tenantId],
      foreignColumns: [couponRedemptions.id, couponRedemptions.tenantId],
    }),
    index('payments_subscription_idx').on(t.subscriptionId, t.id),
    index('payments_tenant_paid_at_idx').on(t.tenantId, t.paidAt),
    index('payments_provider_subscription_idx').on(t.tenantId, t.providerSubscriptionId),
    // The dunning job's pass and 'Incassi in sospeso': unpaid payments still to collect, by due date.
    index('payments_collection_idx')
      .on(t.tenantId, t.dueDate, t.id)
      .where(sql`${t.paidAt} is null and ${t.collectionStatus} in ('due', 'overdue')`),
    // 'Incassi in sospeso' (its count, page and totals): the overdue payments alone, by due date,
    // so a tenant whose unpaid payments are mostly not yet due is not read through them.
    // The amount last: the bucket totals are read from the index alone.
    index('payments_overdue_idx')
      .on(t.tenantId, t.dueDate, t.id, t.amountDueCents)
      .where(sql`${t.paidAt} is null and ${t.collectionStatus} = 'overdue'`),
    check(
      'payments_collection_status_check',
      sql`${t.collectionStatus} in ('due', 'overdue', 'recovered', 'exhausted')`,
    ),
    check('payments_amount_check', sql`${t.amountDueCents} >= 0`),
    check('payments_currency_check', sql`${t.currency} = 'EUR'`),
  ],
);

/** Bank transfers received for a payment; approved once `approval_date` is set (manual approval). */
export const bankTransfers = pgTable(
  'bank_transfers',
  {
    id: id(),
    tenantId: tenantColumn(),
    paymentId: integer('payment_id').notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    approvalDate: at('approval_date'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    foreignKey({
      name: 'bank_transfers_payment_fk',
      columns: [t.paymentId, t.tenantId],
      foreignColumns: [payments.id, payments.tenantId],
    }),
    index('bank_transfers_payment_idx').on(t.paymentId, t.id),
    index('bank_transfers_tenant_idx').on(t.tenantId, t.id.desc()),
    check('bank_transfers_amount_check', sql`${t.amountCents} > 0`),
    check('bank_transfers_currency_check', sql`${t.currency} = 'EUR'`),
  ],
);

/** Append-only history of a subscription's status: every move, who made it, why and when. */
export const subscriptionEvents = pgTable(
  'subscription_events',
  {
    id: id(),
    tenantId: tenantColumn(),
    subscriptionId: integer('subscription_id').notNull(),
    event: text('event').notNull(),
    fromStatus: smallint('from_status'),
    toStatus: smallint('to_status').notNull(),
    /** 'user' | 'paymentToken' | 'provider' | 'system' | 'apiKey', with its id and a display name. */
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    reason: text('reason'),
    at: at('at').notNull(),
  },
  (t) => [
    foreignKey({
      name: 'subscription_events_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    index('subscription_events_subscription_idx').on(t.subscriptionId, t.id),
    index('subscription_events_tenant_at_idx').on(t.tenantId, t.at),
  ],
);

/**
 * Reminders sent for a subscription's period (the renewal-reminders job): one row per
 * subscription, kind and period end, so a job that runs twice sends once.
 */
export const subscriptionReminders = pgTable(
  'subscription_reminders',
  {
    id: id(),
    tenantId: tenantColumn(),
    subscriptionId: integer('subscription_id').notNull(),
    /** 'renewal': 7 days before the next billing date of an ActiveNoRenewal subscription. */
    kind: text('kind').notNull(),
    /** The next billing date the reminder is about (the end of the period). */
    periodEnd: at('period_end').notNull(),
    sentAt: at('sent_at').notNull(),
  },
  (t) => [
    foreignKey({
      name: 'subscription_reminders_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    unique('subscription_reminders_once_unique').on(t.subscriptionId, t.kind, t.periodEnd),
    index('subscription_reminders_tenant_idx').on(t.tenantId, t.sentAt),
  ],
);

/**
 * The history of a payment's collection (issue 29): each reminder (its ladder step, or null for an
 * Admin's 'Sollecita ora'), each provider failure and retry, recovery, exhaustion, who caused it.
 * A ladder step's reminder is claimed by its row (unique per payment and step) in the same unit as
 * the e-mail's outbox row, so a step's e-mail goes out once.
 */
export const collectionEvents = pgTable(
  'collection_events',
  {
    id: id(),
    tenantId: tenantColumn(),
    paymentId: integer('payment_id').notNull(),
    /** contract/schemas/collection.ts collectionEventKinds. */
    kind: text('kind').notNull(),
    step: smallint('step'),
    /** 'system' | 'provider' | 'user', with a display name (the job, the provider, the Admin). */
    actorKind: text('actor_kind').notNull(),
    actorName: text('actor_name'),
    note: text('note'),
    at: at('at').notNull(),
  },
  (t) => [
    foreignKey({
      name: 'collection_events_payment_fk',
      columns: [t.paymentId, t.tenantId],
      foreignColumns: [payments.id, payments.tenantId],
    }),
    index('collection_events_payment_idx').on(t.paymentId, t.id),
    index('collection_events_tenant_kind_at_idx').on(t.tenantId, t.kind, t.at),
    uniqueIndex('collection_events_step_once_idx')
      .on(t.paymentId, t.step)
      .where(sql`${t.kind} = 'reminder' and ${t.step} is not null`),
    check(
      'collection_events_kind_check',
      sql`${t.kind} in ('due', 'failed', 'reminder', 'retry', 'recovered', 'exhausted', 'markedPaid')`,
    ),
    check('collection_events_actor_check', sql`${t.actorKind} in ('system', 'provider', 'user')`),
  ],
);

/** A tenant's ladder ('Solleciti'); no row: DEFAULT_LADDER (contract/schemas/collection.ts). */
export const collectionSettings = pgTable(
  'collection_settings',
  {
    tenantId: integer('tenant_id')
      .primaryKey()
      .references(() => tenants.id),
    steps: smallint('steps').array().notNull(),
    graceDays: smallint('grace_days').notNull(),
    finalDay: smallint('final_day').notNull(),
    /**
     * The ladder's e-mails edited by the tenant (contract CollectionEmails: `steps` by position,
     * `final`; null entries and a null column are Rinnova's default wording).
     */
    emails: jsonb('emails').$type<{
      steps: ({ subject: string; body: string } | null)[];
      final: { subject: string; body: string } | null;
    }>(),
    updatedAt: updatedAt(),
  },
  (t) => [check('collection_settings_days_check', sql`${t.graceDays} <= ${t.finalDay}`)],
);

/**
 * The transactional outbox: what must happen after a unit of work commits (e-mails now; jobs and
 * webhooks later) is written here in the same transaction, then dispatched after commit. A crash
 * between commit and dispatch leaves the row pending, and the next start sends it.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: id(),
    tenantId: integer('tenant_id').references(() => tenants.id),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
    sentAt: at('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    index('outbox_pending_idx')
      .on(t.id)
      .where(sql`${t.sentAt} is null`),
  ],
);

/**
 * Plan changes after the first payment (issue 30, 'Cambia piano'): one row per change, made at once
 * ('applied' when it is written) or scheduled ('scheduled' until its day: the next billing date or
 * a chosen day; the plan-changes job, or the renewal, applies it). The proration is frozen when the
 * change is applied: its figures, the proration payment (the TD01 of the new plan's days, issued
 * when paid) and the partial credit note (TD04) of the unused days. At most one scheduled change per
 * subscription.
 */
export const planChanges = pgTable(
  'plan_changes',
  {
    id: id(),
    tenantId: tenantColumn(),
    subscriptionId: integer('subscription_id').notNull(),
    fromPlanId: integer('from_plan_id').notNull(),
    toPlanId: integer('to_plan_id').notNull(),
    /** 'now' | 'renewal' | 'date', as asked. */
    whenKind: text('when_kind').notNull(),
    /** When the new plan starts: the change's instant, the next billing date, or the day's start. */
    effectiveAt: at('effective_at').notNull(),
    /** 'scheduled' | 'applied' | 'canceled'. */
    status: text('status').notNull(),
    /** The new agreed terms (the new plan's cost and VAT) and the amount of its whole periods. */
    costBeforeVatCents: cents('cost_before_vat_cents').notNull(),
    vatHundredths: integer('vat_hundredths').notNull(),
    amountDueCents: cents('amount_due_cents').notNull(),
    /** The proration, once applied: days, credit and charge before VAT, what is asked, the balance. */
    totalDays: integer('total_days'),
    unusedDays: integer('unused_days'),
    creditCents: cents('credit_cents'),
    chargeCents: cents('charge_cents'),
    /** The credit note's net to pay set off against the charge's (what the payment does not ask). */
    offsetCents: cents('offset_cents'),
    residualCreditCents: cents('residual_credit_cents'),
    /** The payment of the new plan's days (its invoice is issued when it is paid), or null. */
    prorationPaymentId: integer('proration_payment_id'),
    /** The partial credit note (TD04) of the unused days, or null (nothing credited, or waiting). */
    creditNoteId: integer('credit_note_id'),
    /** The payment of the period whose invoice the credit note varies. */
    creditedPaymentId: integer('credited_payment_id'),
    createdAt: createdAt(),
    appliedAt: at('applied_at'),
    /**
     * A PayPal subscription's change (issue 30): PayPal's revise needs the buyer's consent. The
     * PayPal subscription revised, the plan it was revised to (the new plan's, or a running coupon's
     * own plan for the new plan), the `approve` link PayPal answered, what that plan charges next
     * (cents), when PayPal confirmed it (webhook or read-back) and when the customer was mailed.
     */
    paypalSubscriptionId: text('paypal_subscription_id'),
    paypalPlanId: text('paypal_plan_id'),
    paypalApproveUrl: text('paypal_approve_url'),
    paypalAmountCents: cents('paypal_amount_cents'),
    paypalApprovedAt: at('paypal_approved_at'),
    paypalMailedAt: at('paypal_mailed_at'),
  },
  (t) => [
    foreignKey({
      name: 'plan_changes_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    foreignKey({
      name: 'plan_changes_to_plan_fk',
      columns: [t.toPlanId, t.tenantId],
      foreignColumns: [plans.id, plans.tenantId],
    }),
    index('plan_changes_subscription_idx').on(t.subscriptionId, t.id),
    uniqueIndex('plan_changes_one_scheduled_idx')
      .on(t.tenantId, t.subscriptionId)
      .where(sql`status = 'scheduled'`),
    index('plan_changes_due_idx')
      .on(t.effectiveAt)
      .where(sql`status = 'scheduled'`),
    uniqueIndex('plan_changes_payment_idx').on(t.tenantId, t.prorationPaymentId),
    check('plan_changes_status_check', sql`status in ('scheduled', 'applied', 'canceled')`),
  ],
);

/**
 * One-off charges of a subscription ('Addebito una tantum', issue 30): a description, a quantity
 * and a unit price before VAT (cents), at the subscription's VAT treatment (the one document
 * computation decides VAT, natura, cassa, ritenuta and bollo). 'now': collected by a payment of its
 * own (`payment_id`), invoiced (TD01 of its lines) when paid. 'pending' until paid; deleted while
 * pending ('deleted', kept for the history).
 */
export const oneOffCharges = pgTable(
  'one_off_charges',
  {
    id: id(),
    tenantId: tenantColumn(),
    subscriptionId: integer('subscription_id').notNull(),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: cents('unit_price_cents').notNull(),
    /** 'now' (its own payment) | 'nextPayment' (lines of the next period's payment). */
    collect: text('collect').notNull(),
    /** 'pending' | 'paid' | 'deleted'. */
    status: text('status').notNull().default('pending'),
    /**
     * What its payment asks (the document's net to pay), once computed; for a 'nextPayment' charge
     * what it adds to the period's payment (the document with it less the one without), once attached.
     */
    amountDueCents: cents('amount_due_cents'),
    paymentId: integer('payment_id'),
    createdAt: createdAt(),
    paidAt: at('paid_at'),
  },
  (t) => [
    foreignKey({
      name: 'one_off_charges_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    foreignKey({
      name: 'one_off_charges_payment_fk',
      columns: [t.paymentId, t.tenantId],
      foreignColumns: [payments.id, payments.tenantId],
    }),
    index('one_off_charges_subscription_idx').on(t.subscriptionId, t.id),
    // A 'Subito' charge has a payment of its own; 'Con il prossimo pagamento' charges (issue 30)
    // share the next period's payment, several on one.
    uniqueIndex('one_off_charges_payment_idx')
      .on(t.tenantId, t.paymentId)
      .where(sql`${t.collect} = 'now'`),
    index('one_off_charges_next_payment_idx').on(t.tenantId, t.paymentId),
    check('one_off_charges_collect_check', sql`${t.collect} in ('now', 'nextPayment')`),
    check('one_off_charges_status_check', sql`${t.status} in ('pending', 'paid', 'deleted')`),
    check('one_off_charges_quantity_check', sql`${t.quantity} between 1 and 10000`),
    check('one_off_charges_price_check', sql`${t.unitPriceCents} > 0`),
  ],
);

/**
 * The customer's credit on a subscription (issue 30, 'Cambia piano'): a ledger whose sum is the
 * balance. +amount: the residual credit of a plan change made now (`plan_change_id`, the credit note
 * of the unused days exceeding the new days' charge); −amount: what a period's payment set off
 * (`payment_id`, its amount asked reduced by it, in the unit that made the payment). One row per
 * source (replays write nothing). `provider_ref`: the provider's record of a credit (a Stripe
 * customer balance transaction), set after commit.
 */
export const subscriptionCredits = pgTable(
  'subscription_credits',
  {
    id: id(),
    tenantId: tenantColumn(),
    subscriptionId: integer('subscription_id').notNull(),
    amountCents: cents('amount_cents').notNull(),
    planChangeId: integer('plan_change_id'),
    paymentId: integer('payment_id'),
    providerRef: text('provider_ref'),
    /**
     * A use that is a PayPal refund of a plan change's credit (issue 30): the change whose credit it
     * gives back (one refund per change), `refunded_payment_id` the period payment whose sale was
     * refunded, `provider_ref` PayPal's refund id.
     */
    refundOfChangeId: integer('refund_of_change_id'),
    refundedPaymentId: integer('refunded_payment_id'),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({
      name: 'subscription_credits_subscription_fk',
      columns: [t.subscriptionId, t.tenantId],
      foreignColumns: [subscriptions.id, subscriptions.tenantId],
    }),
    foreignKey({
      name: 'subscription_credits_payment_fk',
      columns: [t.paymentId, t.tenantId],
      foreignColumns: [payments.id, payments.tenantId],
    }),
    index('subscription_credits_subscription_idx').on(t.tenantId, t.subscriptionId),
    uniqueIndex('subscription_credits_plan_change_idx')
      .on(t.tenantId, t.planChangeId)
      .where(sql`${t.planChangeId} is not null`),
    uniqueIndex('subscription_credits_payment_idx')
      .on(t.tenantId, t.paymentId)
      .where(sql`${t.paymentId} is not null`),
    // One refund per plan change and sale: a change's credit capped on one sale is refunded on the
    // next ones (subscription-credit.ts `refundRemainderOnSale`).
    uniqueIndex('subscription_credits_refund_sale_idx')
      .on(t.tenantId, t.refundOfChangeId, t.refundedPaymentId)
      .where(sql`${t.refundOfChangeId} is not null`),
    check(
      'subscription_credits_source_check',
      sql`(${t.planChangeId} is not null and ${t.paymentId} is null and ${t.refundOfChangeId} is null and ${t.amountCents} > 0) or (${t.planChangeId} is null and ${t.paymentId} is not null and ${t.refundOfChangeId} is null and ${t.amountCents} < 0) or (${t.planChangeId} is null and ${t.paymentId} is null and ${t.refundOfChangeId} is not null and ${t.refundedPaymentId} is not null and ${t.providerRef} is not null and ${t.amountCents} < 0)`,
    ),
  ],
);
