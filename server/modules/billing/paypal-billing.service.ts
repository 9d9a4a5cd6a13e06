/**
 * What PayPal does to Rinnova's subscriptions: the customer's payment (updatePayment), the Admin's
 * cancel, the sync button and the webhooks. Every provider call happens before and outside the
 * unit of work, so a provider failure changes nothing; every status change goes through
 * `changeStatus`, with the actor that caused it.
 */
import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { periodEndAfter } from '../../../contract/billing-dates';
import { toCents } from '../../../contract/money';
import { messages } from '../../../contract/messages';
import { PaymentTokenStatus } from '../../../contract/schemas/payment';
import {
  SubscriptionStatus,
  transition,
  type SubscriptionEvent,
  type SubscriptionStatusId,
} from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import { paymentTokens, payments, plans, providerWebhookEvents, subscriptions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import {
  ProviderError,
  type ProviderKind,
  type ProviderSubscription,
} from '../../providers/payment-provider';
import type { ProviderRegistry } from '../../providers/registry';
import { machineActorOf, type UnitOfWork, type UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { findSubscription, firstPayment } from './billing.repository';
import { changeStatus } from './subscription.service';
import { causaleOf } from '../../../contract/schemas/payment';
import { findToken, isUsable, paymentMessages, type TokenRow } from './payment-token.service';

export interface PaypalDeps {
  uow: UnitOfWorkRunner;
  providers: ProviderRegistry;
  connectionFor: (tenantId: number) => Database;
  /** The shared database, where a token is found by its hash before its tenant is known. */
  shared: Database;
}

export const tokenInvalid = () => new HttpError(400, messages.payment.tokenInvalid);

/**
 * `PUT api/Payment/updatePayment`: checks the PayPal subscription, then in one unit: token Used,
 * payment paid with the provider's id, subscription Active. Only ACTIVE counts as paid: PayPal
 * has taken the first payment. APPROVED (the buyer agreed, the first charge not yet taken) answers
 * 'pending' and pays nothing: the token keeps the id, and the payment is recorded when PayPal
 * activates the subscription (webhook BILLING.SUBSCRIPTION.ACTIVATED or its first sale), or when
 * the payment page asks again and PayPal answers ACTIVE. The same token and id again answers
 * 'replayed' and changes nothing.
 */
export async function payWithToken(
  deps: PaypalDeps,
  input: { token: string; providerSubscriptionId: string },
): Promise<'paid' | 'replayed' | 'pending'> {
  const row = await findToken(deps.shared, input.token);
  if (!row) throw tokenInvalid();
  if (row.status === PaymentTokenStatus.Used) {
    if (row.providerSubscriptionId === input.providerSubscriptionId) return 'replayed';
    throw tokenInvalid();
  }
  if (!isUsable(row, deps.uow.clock())) throw tokenInvalid();

  const { adapter } = await deps.providers.paypal(row.tenantId);
  let remote: ProviderSubscription;
  try {
    remote = await adapter.getSubscription(input.providerSubscriptionId);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'notFound') throw new HttpError(400, error.message);
    throw error;
  }
  if (remote.status !== 'ACTIVE' && remote.status !== 'APPROVED')
    throw new HttpError(400, paymentMessages.paypalStatusInvalid(remote.status));
  if (remote.planId !== row.providerPlanId) throw new HttpError(400, paymentMessages.paypalOtherPlan);

  const actor = { kind: 'paymentToken' as const, tokenId: row.id };
  if (remote.status === 'APPROVED')
    return deps.uow.run({ tenantId: row.tenantId, actor }, async (w) => {
      await w.tx
        .update(paymentTokens)
        .set({ providerSubscriptionId: input.providerSubscriptionId })
        .where(
          and(
            eq(paymentTokens.tenantId, w.tenantId),
            eq(paymentTokens.id, row.id),
            eq(paymentTokens.status, PaymentTokenStatus.Active),
          ),
        );
      return 'pending' as const;
    });
  return deps.uow.run({ tenantId: row.tenantId, actor }, (w) =>
    recordTokenPayment(w, row, input.providerSubscriptionId, 'paypal'),
  );
}

/**
 * The payment a customer approved at PayPal while the subscription was still APPROVED
 * (updatePayment answered 'pending'), now that PayPal reports it active: recorded as the page
 * would have (the token's late grace applies: the customer paid within the hour). Null when no
 * token waits for `providerId`.
 */
async function recordPendingApproval(
  w: UnitOfWork,
  providerId: string,
): Promise<{ outcome: WebhookOutcome; detail: string | null } | null> {
  const [waiting] = await w.tx
    .select({
      id: paymentTokens.id,
      paymentId: paymentTokens.paymentId,
      subscriptionId: paymentTokens.subscriptionId,
    })
    .from(paymentTokens)
    .where(
      and(
        eq(paymentTokens.tenantId, w.tenantId),
        eq(paymentTokens.providerSubscriptionId, providerId),
        eq(paymentTokens.status, PaymentTokenStatus.Active),
      ),
    )
    .limit(1);
  if (!waiting) return null;
  const result = await recordTokenPayment(w, waiting, providerId, 'paypal', { lateOk: true });
  return { outcome: result === 'paid' ? 'applied' : 'unchanged', detail: `pagamento ${waiting.paymentId}` };
}

const providerLabel = (kind: ProviderKind) => (kind === 'stripe' ? 'Stripe' : 'PayPal');

/**
 * The payment of a token, inside `w` (the token's tenant), once the provider confirmed it: token
 * Used, payment paid with the provider's subscription id, subscription Active, the next billing
 * date moved for a renewal's payment, the invoice issued. The same token with the same id again
 * answers 'replayed' and changes nothing. Every refusal is thrown before the first write.
 * `lateOk`: a token whose hour ran out while the customer was at the provider's checkout (started
 * in time) is still honoured: the customer has paid.
 */
export async function recordTokenPayment(
  w: UnitOfWork,
  row: Pick<TokenRow, 'id' | 'paymentId' | 'subscriptionId'>,
  providerSubscriptionId: string,
  kind: ProviderKind,
  options: { lateOk?: boolean } = {},
): Promise<'paid' | 'replayed'> {
  const label = providerLabel(kind);
  const [locked] = await w.tx
    .select({
      status: paymentTokens.status,
      expiresAt: paymentTokens.expiresAt,
      providerSubscriptionId: paymentTokens.providerSubscriptionId,
    })
    .from(paymentTokens)
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, row.id)))
    .for('update');
  if (!locked) throw tokenInvalid();
  // Two deliveries of the same approval at once: the second finds the token Used.
  if (locked.status === PaymentTokenStatus.Used && locked.providerSubscriptionId === providerSubscriptionId)
    return 'replayed';
  const usable = options.lateOk
    ? locked.status === PaymentTokenStatus.Active
    : isUsable({ status: locked.status as 0 | 1 | 2, expiresAt: locked.expiresAt }, w.now);
  if (!usable) throw tokenInvalid();
  const [taken] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.providerSubscriptionId, providerSubscriptionId),
        ne(payments.subscriptionId, row.subscriptionId),
      ),
    )
    .limit(1);
  if (taken) throw new HttpError(409, kind === 'stripe' ? stripeIdTaken : paymentMessages.paypalIdTaken);
  const sub = await findSubscription(w, row.subscriptionId, { lock: true });
  if (!sub) throw tokenInvalid();
  await changeStatus(w, sub, 'pay', `${label} ${providerSubscriptionId}`);
  const [paid] = await w.tx
    .update(payments)
    .set({ providerSubscriptionId, paidAt: w.now, method: kind })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, row.paymentId)))
    .returning({ periodEnd: payments.periodEnd });
  // A renewal's payment (a reminder's link) covers the next period: the subscription's next
  // billing date moves to its end; the first payment's end is the next billing date already.
  if (paid && paid.periodEnd.getTime() > sub.nextBillingDate.getTime()) {
    await w.tx
      .update(subscriptions)
      .set({ nextBillingDate: paid.periodEnd, updatedAt: w.now })
      .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
  }
  // Its invoice (in this unit), its webhook, …: whoever consumes the event.
  await w.publish('payment.paid', { paymentId: row.paymentId, subscriptionId: row.subscriptionId });
  await w.tx
    .update(paymentTokens)
    .set({ status: PaymentTokenStatus.Used, usedAt: w.now, providerSubscriptionId })
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, row.id)));
  return 'paid';
}

const stripeIdTaken = 'Questa sottoscrizione Stripe è già collegata a un altro pagamento.';

/**
 * `DELETE cancel/{id}`, provider step: an Active subscription whose first payment has a provider
 * subscription id is cancelled at its provider (PayPal or Stripe, by the payment's method) first,
 * outside any transaction. Anything else is left to the unit of work's own 404/409. The provider
 * answering that it is already cancelled counts as done.
 */
export async function cancelAtProvider(
  deps: PaypalDeps,
  tenantId: number,
  subscriptionId: number,
): Promise<void> {
  const scope = { tenantId, tx: deps.connectionFor(tenantId) };
  const sub = await findSubscription(scope, subscriptionId);
  if (!sub || sub.status !== SubscriptionStatus.Active) return;
  const payment = await firstPayment(scope, sub.id);
  const providerId = payment?.providerSubscriptionId;
  if (!providerId) return;
  const adapter = await deps.providers.adapterOf(tenantId, payment.method === 'stripe' ? 'stripe' : 'paypal');
  try {
    await adapter.cancelSubscription(providerId, 'Cancellata dal venditore in Rinnova');
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'unprocessable') {
      const remote = await adapter.getSubscription(providerId);
      if (remote.status === 'CANCELLED' || remote.status === 'EXPIRED') return;
    }
    throw error;
  }
}

/** Where a provider status leads, and by which event of the state machine. */
const PROVIDER_STATUS: Record<string, { to: SubscriptionStatusId; event: SubscriptionEvent }> = {
  ACTIVE: { to: SubscriptionStatus.Active, event: 'providerActivated' },
  SUSPENDED: { to: SubscriptionStatus.NotActive, event: 'providerSuspended' },
  CANCELLED: { to: SubscriptionStatus.Canceled, event: 'providerCanceled' },
  EXPIRED: { to: SubscriptionStatus.Canceled, event: 'providerCanceled' },
};

/**
 * Applies a provider status to a subscription inside `w`: 'applied' when it moved, 'unchanged'
 * when it was already there, 'ignored' when the state machine has no such move for this actor.
 */
export async function applyProviderStatus(
  w: UnitOfWork,
  subscriptionId: number,
  providerStatus: string,
  reason: string,
): Promise<'applied' | 'unchanged' | 'ignored'> {
  const target = PROVIDER_STATUS[providerStatus];
  if (!target) return 'ignored';
  const sub = await findSubscription(w, subscriptionId, { lock: true });
  if (!sub) return 'ignored';
  if (sub.status === target.to) return 'unchanged';
  const actor = machineActorOf(w.actor);
  if (!actor || transition(sub.status, target.event, actor) !== target.to) return 'ignored';
  await changeStatus(w, sub, target.event, reason);
  return 'applied';
}

/** The tenant's subscriptions paid through a provider: id, status and the provider's id (first payment's). */
async function providerSubscriptionsOf(db: Database, tenantId: number, kind: ProviderKind) {
  const first = db
    .selectDistinctOn([payments.subscriptionId], {
      subscriptionId: payments.subscriptionId,
      providerId: payments.providerSubscriptionId,
    })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, tenantId),
        isNotNull(payments.providerSubscriptionId),
        kind === 'stripe' ? eq(payments.method, 'stripe') : sql`${payments.method} is distinct from 'stripe'`,
      ),
    )
    .orderBy(asc(payments.subscriptionId), asc(payments.id))
    .as('first_provider_payment');
  return db
    .select({ id: subscriptions.id, status: subscriptions.status, providerId: first.providerId })
    .from(subscriptions)
    .innerJoin(first, eq(first.subscriptionId, subscriptions.id))
    .where(
      and(
        eq(subscriptions.tenantId, tenantId),
        inArray(subscriptions.status, [SubscriptionStatus.Active, SubscriptionStatus.NotActive]),
      ),
    )
    .orderBy(asc(subscriptions.id));
}

export interface SyncResult {
  /** How many subscriptions changed status. */
  changed: number;
  /** How many PayPal was asked about. */
  checked: number;
  /** Ids PayPal does not know (left as they are). */
  unknown: string[];
}

/**
 * `POST api/subscription/sync-paypal`, and the job's call (issue 10), for one tenant: reads every
 * provider subscription of the tenant at PayPal first (any failure but 'unknown id' stops the sync
 * with nothing changed), then applies ACTIVE → Active, SUSPENDED → NotActive, CANCELLED or
 * EXPIRED → Canceled in one unit of work as the system job 'sync-paypal'.
 */
export async function syncPaypal(
  deps: PaypalDeps,
  tenantId: number,
  options: { by?: string } = {},
): Promise<SyncResult> {
  return syncProvider(deps, tenantId, 'paypal', options);
}

/** The same sync for one provider kind: `POST api/subscription/sync-stripe` and the job use 'stripe'. */
export async function syncProvider(
  deps: PaypalDeps,
  tenantId: number,
  kind: ProviderKind,
  options: { by?: string } = {},
): Promise<SyncResult> {
  const rows = await providerSubscriptionsOf(deps.connectionFor(tenantId), tenantId, kind);
  if (rows.length === 0) return { changed: 0, checked: 0, unknown: [] };
  const adapter = await deps.providers.adapterOf(tenantId, kind);
  const label = providerLabel(kind);
  const remote = new Map<string, string>();
  const unknown: string[] = [];
  // A few at a time: PayPal answers each in a few hundred ms and limits bursts.
  const queue = [...new Set(rows.map((r) => r.providerId!))];
  const workers = Array.from({ length: Math.min(4, queue.length) }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        remote.set(id, (await adapter.getSubscription(id)).status);
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'notFound') unknown.push(id);
        else throw error;
      }
    }
  });
  await Promise.all(workers);
  const changed = await deps.uow.run(
    { tenantId, actor: { kind: 'system', job: kind === 'stripe' ? 'sync-stripe' : 'sync-paypal' } },
    async (w) => {
      let n = 0;
      for (const row of rows) {
        const status = remote.get(row.providerId!);
        if (!status) continue;
        const reason = `${label} ${row.providerId}: ${status}${options.by ? ` (sincronizzazione avviata da ${options.by})` : ''}`;
        if ((await applyProviderStatus(w, row.id, status, reason)) === 'applied') n++;
      }
      return n;
    },
  );
  return { changed, checked: rows.length, unknown: unknown.sort() };
}

// ---- Webhooks

interface WebhookEvent {
  id: string;
  event_type: string;
  create_time?: string;
  resource?: Record<string, unknown>;
}

export function parseWebhookEvent(body: unknown): WebhookEvent | null {
  if (!body || typeof body !== 'object') return null;
  const e = body as Record<string, unknown>;
  if (typeof e.id !== 'string' || !e.id || e.id.length > 200) return null;
  if (typeof e.event_type !== 'string' || !e.event_type) return null;
  return {
    id: e.id,
    event_type: e.event_type,
    ...(typeof e.create_time === 'string' ? { create_time: e.create_time } : {}),
    ...(e.resource && typeof e.resource === 'object'
      ? { resource: e.resource as Record<string, unknown> }
      : {}),
  };
}

const STATUS_EVENTS: Record<string, string> = {
  'BILLING.SUBSCRIPTION.ACTIVATED': 'ACTIVE',
  'BILLING.SUBSCRIPTION.SUSPENDED': 'SUSPENDED',
  'BILLING.SUBSCRIPTION.CANCELLED': 'CANCELLED',
  'BILLING.SUBSCRIPTION.EXPIRED': 'EXPIRED',
};

/** Refunds and reversals: the credit note of the sale's invoice (issue 12); the reason it carries. */
const REFUND_EVENTS: Record<string, string> = {
  'PAYMENT.SALE.REFUNDED': 'pagamento rimborsato',
  'PAYMENT.SALE.REVERSED': 'pagamento stornato o contestato',
};

export type WebhookOutcome =
  'applied' | 'unchanged' | 'ignored' | 'unknownSubscription' | 'unsupported' | 'duplicate';

/** The subscription whose first provider payment carries `providerId`, in the unit's tenant. */
export async function subscriptionOfProviderId(w: UnitOfWork, providerId: string): Promise<number | null> {
  const [row] = await w.tx
    .select({ subscriptionId: payments.subscriptionId })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.providerSubscriptionId, providerId)))
    .orderBy(asc(payments.id))
    .limit(1);
  return row?.subscriptionId ?? null;
}

/**
 * A verified webhook event, once per event id: stored with its outcome in the same unit that
 * applies it, so a second delivery (or two at once) finds it and does nothing.
 */
export async function applyWebhookEvent(
  deps: PaypalDeps,
  tenantId: number,
  event: WebhookEvent,
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  return deps.uow.run(
    { tenantId, actor: { kind: 'provider', provider: 'paypal', eventId: event.id } },
    async (w) => {
      const resource = event.resource ?? {};
      const resourceId = event.event_type.startsWith('PAYMENT.SALE')
        ? typeof resource.billing_agreement_id === 'string'
          ? resource.billing_agreement_id
          : null
        : typeof resource.id === 'string'
          ? resource.id
          : null;
      const [claimed] = await w.tx
        .insert(providerWebhookEvents)
        .values({
          tenantId: w.tenantId,
          provider: 'paypal',
          eventId: event.id,
          eventType: event.event_type.slice(0, 100),
          resourceId: resourceId?.slice(0, 200) ?? null,
          outcome: 'received',
          payload: event,
          receivedAt: w.now,
        })
        .onConflictDoNothing()
        .returning({ id: providerWebhookEvents.id });
      if (!claimed) return { outcome: 'duplicate' as const, detail: null };

      const result = await handleEvent(w, event, resourceId);
      await w.tx
        .update(providerWebhookEvents)
        .set({ outcome: result.outcome, detail: result.detail })
        .where(eq(providerWebhookEvents.id, claimed.id));
      return result;
    },
  );
}

async function handleEvent(
  w: UnitOfWork,
  event: WebhookEvent,
  providerId: string | null,
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const refund = REFUND_EVENTS[event.event_type];
  if (refund) {
    // A refund names its sale (sale_id); a reversal is the sale itself.
    const resource = event.resource ?? {};
    const saleId =
      typeof resource.sale_id === 'string'
        ? resource.sale_id
        : typeof resource.id === 'string'
          ? resource.id
          : null;
    if (!saleId) return { outcome: 'ignored', detail: 'rimborso senza ID della vendita' };
    const total = Number((resource.amount as { total?: unknown } | undefined)?.total);
    const refundedCents = Number.isFinite(total) && total !== 0 ? toCents(Math.abs(total)) : null;
    return refundReported(w, {
      saleId: saleId.slice(0, 200),
      refundedCents,
      what: `${refund} (PayPal)`,
    });
  }
  const status = STATUS_EVENTS[event.event_type];
  if (!status && event.event_type !== 'PAYMENT.SALE.COMPLETED')
    return { outcome: 'unsupported', detail: null };
  if (!providerId) return { outcome: 'ignored', detail: 'evento senza ID della sottoscrizione' };
  let subscriptionId = await subscriptionOfProviderId(w, providerId);
  if (subscriptionId === null && (status === 'ACTIVE' || !status)) {
    // Activated (or its first sale taken) after the payment page was told 'pending'.
    const pending = await recordPendingApproval(w, providerId);
    if (pending && status) return pending;
    if (pending) subscriptionId = await subscriptionOfProviderId(w, providerId);
  }
  if (subscriptionId === null) return { outcome: 'unknownSubscription', detail: providerId };
  if (status) {
    const outcome = await applyProviderStatus(
      w,
      subscriptionId,
      status,
      `PayPal ${providerId}: ${event.event_type}`,
    );
    return { outcome, detail: `sottoscrizione ${subscriptionId}` };
  }
  const resource = event.resource ?? {};
  const charged = (resource.amount as { total?: unknown } | undefined)?.total;
  return recordCharge(w, subscriptionId, providerId, {
    kind: 'paypal',
    chargeId: typeof resource.id === 'string' ? resource.id.slice(0, 200) : null,
    paidAt: parseDate(event.create_time ?? (resource.create_time as string | undefined)),
    note: typeof charged === 'string' ? ` (PayPal ha addebitato ${charged})` : '',
  });
}

/**
 * A refunded or reversed charge, told to whoever consumes it (invoicing: the credit note); the
 * provider event records what was done, or why nothing was.
 */
export async function refundReported(
  w: UnitOfWork,
  refund: { saleId: string; refundedCents: number | null; what: string },
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const [report] = await w.publish('payment.refunded', refund);
  return report
    ? { outcome: report.outcome, detail: report.detail }
    : { outcome: 'ignored', detail: 'nessuna fatturazione attiva' };
}

/**
 * A provider charged a period (PayPal's PAYMENT.SALE.COMPLETED, Stripe's invoice.paid). The first
 * charge pays the payment the customer approved on the payment page (it gets the charge id); each
 * later one is a renewal: a new paid payment for the period from the next billing date, which
 * moves on by the plan's recurrence. One charge id, one payment (unique in the tenant).
 */
export async function recordCharge(
  w: UnitOfWork,
  subscriptionId: number,
  providerId: string,
  charge: { kind: ProviderKind; chargeId: string | null; paidAt: Date | null; note: string },
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const saleId = charge.chargeId;
  if (!saleId) return { outcome: 'ignored', detail: 'vendita senza ID' };
  const sub = await findSubscription(w, subscriptionId, { lock: true });
  if (!sub) return { outcome: 'ignored', detail: null };
  const [already] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.providerPaymentId, saleId)));
  if (already)
    return { outcome: 'unchanged', detail: `vendita ${saleId} già registrata (pagamento ${already.id})` };
  const paidAt = charge.paidAt ?? w.now;

  const list = await w.tx
    .select({ id: payments.id, paidAt: payments.paidAt, saleId: payments.providerPaymentId })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.subscriptionId, sub.id)))
    .orderBy(asc(payments.id));
  // The first charge of the subscription: the payment made on the payment page has no sale yet.
  const firstCharge = list.find((p) => p.paidAt !== null && p.saleId === null);
  if (firstCharge && list.every((p) => p.saleId === null)) {
    await w.tx
      .update(payments)
      .set({ providerPaymentId: saleId })
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, firstCharge.id)));
    return { outcome: 'applied', detail: `primo addebito ${saleId} sul pagamento ${firstCharge.id}` };
  }
  if (sub.status !== SubscriptionStatus.Active) {
    return { outcome: 'ignored', detail: `sottoscrizione ${sub.id} non attiva: rinnovo non registrato` };
  }
  const [plan] = await w.tx
    .select({ recurrence: plans.recurrenceType })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, sub.planId)));
  if (!plan) return { outcome: 'ignored', detail: null };
  // Periods count from the start date (not from the previous end), so 31 Jan stays the 31st/last day.
  const periodStart = sub.nextBillingDate;
  const periodEnd = periodEndAfter(sub.startDate, plan.recurrence, periodStart);
  const id = await nextPaymentId(w);
  await w.tx.insert(payments).values({
    id,
    tenantId: w.tenantId,
    subscriptionId: sub.id,
    amountDueCents: sub.amountDueCents,
    causale: causaleOf(w.tenantId, id),
    periodStart,
    periodEnd,
    method: charge.kind,
    providerSubscriptionId: providerId,
    providerPaymentId: saleId,
    paidAt,
    createdAt: w.now,
  });
  await w.tx
    .update(subscriptions)
    .set({ nextBillingDate: periodEnd, updatedAt: w.now })
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, sub.id)));
  // The renewal's invoice (missing data blocks only the invoice), its webhook, …
  await w.publish('payment.paid', { paymentId: id, subscriptionId: sub.id });
  return { outcome: 'applied', detail: `rinnovo: pagamento ${id}${charge.note}` };
}

export function parseDate(value: string | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

async function nextPaymentId(w: UnitOfWork): Promise<number> {
  const result = await w.tx.execute<{ id: string | number }>(
    sql`select nextval(pg_get_serial_sequence('payments', 'id')) as id`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { id: string | number }[] }).rows) as {
    id: string | number;
  }[];
  return Number(rows[0]?.id);
}
