/**
 * Stripe Checkout on a withdrawn payment (issue 30). A payment link's Checkout Session stays open
 * at Stripe for up to 24 hours; when Rinnova withdraws the unpaid payment (a plan change, a pause:
 * `withdrawUnpaidPayments`) the customer must no longer be able to pay it.
 * - Rinnova records each session it opens for a link (`stripe_checkout_sessions`,
 *   `recordCheckoutSession`, after Stripe answered); a session opened while the payment was being
 *   withdrawn is recorded and expired at once.
 * - The withdrawing unit publishes `stripeCheckout.withdrawn` with the payment's open sessions;
 *   after commit each is expired at Stripe (`POST /v1/checkout/sessions/{id}/expire`), once
 *   (`expired_at`); a session Stripe says is no longer open ends the delivery; a failure is the
 *   outbox's to retry.
 * - A session completed in the race (before the expiry reached Stripe): its
 *   `checkout.session.completed` finds no token and no payment. Nothing is recorded as paid and
 *   no invoice is issued; the subscription gets a history row 'withdrawnCheckoutRefunded', and
 *   after commit (`stripeCheckout.paidWithdrawn`) Stripe refunds what it took (keyed by the
 *   session: a retry refunds once; the refund's id on the session's row) and, in subscription
 *   mode, the Stripe subscription the session created is cancelled (so it charges nothing more).
 *   The customer is e-mailed that the payment was refunded (once, with the refund's id).
 * - The same double charge when the payment is paid ANOTHER way while a session is open (the Admin's
 *   transfer, PayPal, another session of the link): `payment.paid` publishes the payment's other
 *   open sessions (not the one that paid it) as `stripeCheckout.withdrawn`, expired after commit;
 *   one completed in the race (`alreadyPaidSessionPaid`) is refunded the same way (reason
 *   'alreadyPaid': history row 'paidCheckoutRefunded', its own e-mail wording). The session that
 *   paid the payment (its return page and webhook both) stays 'unchanged'.
 */
import { and, eq, isNull, ne } from 'drizzle-orm';
import { PaymentTokenStatus } from '../../../contract/schemas/payment';
import {
  payments,
  paymentTokens,
  stripeCheckoutSessions,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../db/schema';
import { escapeHtml } from '../../lib/html';
import { layout, withSignInLink } from '../../mail/templates';
import { ProviderError } from '../../providers/payment-provider';
import type { StripeWebhookEvent } from '../../providers/stripe';
import type { EventBus } from '../../unit-of-work/events';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import type { SubscriptionStatusId } from '../../../contract/subscription-status';
import type { ProviderDeps, WebhookOutcome } from './provider-payments';
import { formatEur, recordHistory } from './subscription.service';

export type PaidCheckoutReason = 'withdrawn' | 'alreadyPaid';

export const withdrawnCheckoutMessages = {
  history: (amount: string | null, sessionId: string, providerSubscriptionId: string | null) =>
    `Pagamento con carta su un link ritirato: rimborsato ${amount ?? 'l’importo addebitato'} (sessione Stripe ${sessionId})` +
    (providerSubscriptionId ? `; sottoscrizione Stripe ${providerSubscriptionId} annullata` : ''),
  mailSubject: (tenant: string) => `${tenant}: pagamento con carta rimborsato`,
  mailBody: (name: string, amount: string, tenant: string, mode: 'subscription' | 'payment'): string[] => [
    `Gentile ${name},`,
    `hai pagato con carta ${amount} da un link di pagamento del tuo abbonamento che ${tenant} aveva nel frattempo ritirato, perché quel pagamento non era più dovuto. ` +
      'L’importo ti è stato rimborsato per intero sulla stessa carta: l’accredito può richiedere alcuni giorni lavorativi.',
    ...(mode === 'subscription'
      ? [
          'Anche l’addebito automatico con carta attivato con quel pagamento è stato annullato: non ti sarà addebitato altro.',
        ]
      : []),
    'Se qualcosa resta dovuto, ti sarà chiesto con un nuovo avviso.',
  ],
  detail: (paymentId: number | null, sessionId: string) =>
    `pagamento ${paymentId ?? '?'} ritirato: sessione ${sessionId} pagata su un link ritirato, rimborso (e annullamento della sottoscrizione Stripe) dopo il commit`,
  cancelNote: 'Pagamento su un link ritirato',
} as const;

/** The same, for a session paid on a payment already paid another way. */
export const alreadyPaidCheckoutMessages = {
  history: (amount: string | null, sessionId: string, providerSubscriptionId: string | null) =>
    `Pagamento con carta su un pagamento già saldato: rimborsato ${amount ?? 'l’importo addebitato'} (sessione Stripe ${sessionId})` +
    (providerSubscriptionId ? `; sottoscrizione Stripe ${providerSubscriptionId} annullata` : ''),
  mailSubject: withdrawnCheckoutMessages.mailSubject,
  mailBody: (name: string, amount: string, _tenant: string, mode: 'subscription' | 'payment'): string[] => [
    `Gentile ${name},`,
    `hai pagato con carta ${amount} da un link di pagamento del tuo abbonamento che era già stato saldato. ` +
      'L’importo ti è stato rimborsato per intero sulla stessa carta: l’accredito può richiedere alcuni giorni lavorativi.',
    ...(mode === 'subscription'
      ? [
          'Anche l’addebito automatico con carta attivato con quel pagamento è stato annullato: non ti sarà addebitato altro.',
        ]
      : []),
  ],
  detail: (paymentId: number | null, sessionId: string) =>
    `pagamento ${paymentId ?? '?'} già pagato: sessione ${sessionId} pagata su un pagamento già saldato, rimborso (e annullamento della sottoscrizione Stripe) dopo il commit`,
  cancelNote: 'Pagamento su un pagamento già saldato',
} as const;

const messagesOf = (reason: PaidCheckoutReason | undefined) =>
  reason === 'alreadyPaid' ? alreadyPaidCheckoutMessages : withdrawnCheckoutMessages;

/**
 * After Stripe created a Checkout Session for a payment link: the session recorded in the link's
 * tenant (once; the same session again writes nothing). If the link is gone meanwhile (its payment
 * withdrawn while Stripe answered), the session is expired after commit like the withdrawn ones.
 */
export async function recordCheckoutSession(
  deps: Pick<ProviderDeps, 'uow'>,
  token: { id: number; tenantId: number; paymentId: number; subscriptionId: number },
  sessionId: string,
  mode: 'subscription' | 'payment',
): Promise<void> {
  await deps.uow.run(
    { tenantId: token.tenantId, actor: { kind: 'paymentToken', tokenId: token.id } },
    async (w) => {
      // The link locked first: a withdrawal deleting it waits for this unit and then sees the
      // session (it reads the sessions after deleting the links); one that deleted it first leaves
      // nothing to lock, and the session is expired here.
      const [still] = await w.tx
        .select({ id: paymentTokens.id })
        .from(paymentTokens)
        .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, token.id)))
        .for('update');
      // Its payment paid another way meanwhile: expired as well.
      const [due] = await w.tx
        .select({ paidAt: payments.paidAt })
        .from(payments)
        .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, token.paymentId)));
      await w.tx
        .insert(stripeCheckoutSessions)
        .values({
          tenantId: w.tenantId,
          sessionId,
          subscriptionId: token.subscriptionId,
          paymentId: token.paymentId,
          tokenId: token.id,
          mode,
          createdAt: w.now,
        })
        .onConflictDoNothing();
      if (!still || due?.paidAt) await w.publish('stripeCheckout.withdrawn', { sessionIds: [sessionId] });
    },
  );
}

/**
 * After commit of a withdrawal: each session expired at Stripe once (`expired_at` set when Stripe
 * answered, or said it is no longer open). A failure throws: the outbox retries the rest.
 */
export async function expireWithdrawnSessions(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor' | 'uow'>,
  tenantId: number,
  sessionIds: readonly string[],
): Promise<void> {
  const db = deps.connectionFor(tenantId);
  for (const sessionId of sessionIds) {
    const [row] = await db
      .select({ id: stripeCheckoutSessions.id, expiredAt: stripeCheckoutSessions.expiredAt })
      .from(stripeCheckoutSessions)
      .where(
        and(eq(stripeCheckoutSessions.tenantId, tenantId), eq(stripeCheckoutSessions.sessionId, sessionId)),
      );
    if (!row || row.expiredAt) continue;
    const { adapter } = await deps.providers.stripe(tenantId);
    await adapter.expireCheckoutSession(sessionId);
    await db
      .update(stripeCheckoutSessions)
      .set({ expiredAt: deps.uow.clock() })
      .where(and(eq(stripeCheckoutSessions.tenantId, tenantId), eq(stripeCheckoutSessions.id, row.id)));
  }
}

/** A Stripe object's non-empty string field, else null (read from a webhook's loose JSON). */
export const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
/** A Stripe reference, expanded (`{ id }`) or not (the id itself). */
export const idOf = (v: unknown): string | null =>
  str(v) ?? (v && typeof v === 'object' ? str((v as { id?: unknown }).id) : null);

/**
 * A paid `checkout.session.completed` of this tenant whose token is gone: when its payment is gone
 * too (withdrawn), nothing is recorded as paid; the refund (and the Stripe subscription's cancel)
 * is published for after commit and the subscription's history says so. Answers undefined when the
 * payment still exists (the caller's usual refusal then).
 */
export async function withdrawnSessionPaid(
  w: UnitOfWork,
  event: StripeWebhookEvent,
  mode: 'subscription' | 'payment',
): Promise<{ outcome: WebhookOutcome; detail: string | null } | undefined> {
  const o = event.object;
  const sessionId = str(o.id);
  if (!sessionId) return undefined;
  const metadata = (o.metadata ?? {}) as Record<string, string>;
  const [recorded] = await w.tx
    .select({
      subscriptionId: stripeCheckoutSessions.subscriptionId,
      paymentId: stripeCheckoutSessions.paymentId,
    })
    .from(stripeCheckoutSessions)
    .where(
      and(eq(stripeCheckoutSessions.tenantId, w.tenantId), eq(stripeCheckoutSessions.sessionId, sessionId)),
    );
  const metaPayment = Number(metadata.rinnovaPaymentId);
  const paymentId =
    recorded?.paymentId ?? (Number.isSafeInteger(metaPayment) && metaPayment > 0 ? metaPayment : null);
  if (paymentId === null) return undefined;
  const [payment] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  if (payment) return undefined;
  return paidSessionRefunded(w, event, mode, {
    sessionId,
    paymentId,
    subscriptionId: recorded?.subscriptionId ?? null,
    reason: 'withdrawn',
  });
}

/**
 * A paid `checkout.session.completed` whose token still exists but whose payment was already paid
 * by something other than this session (the Admin's transfer, PayPal, another session of the link):
 * nothing is recorded twice; refunded after commit like a withdrawn one. Answers undefined when the
 * payment is unpaid or this session is what paid it (the caller records it, or answers 'unchanged').
 */
export async function alreadyPaidSessionPaid(
  w: UnitOfWork,
  event: StripeWebhookEvent,
  mode: 'subscription' | 'payment',
  token: { id: number; paymentId: number; subscriptionId: number },
): Promise<{ outcome: WebhookOutcome; detail: string | null } | undefined> {
  const o = event.object;
  const sessionId = str(o.id);
  if (!sessionId) return undefined;
  // The link first, then the payment (the order of the token's own payment).
  const [link] = await w.tx
    .select({ status: paymentTokens.status, providerId: paymentTokens.providerSubscriptionId })
    .from(paymentTokens)
    .where(and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.id, token.id)))
    .for('update');
  const [payment] = await w.tx
    .select({ paidAt: payments.paidAt })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, token.paymentId)))
    .for('update');
  if (!payment?.paidAt) return undefined;
  // What this session leaves on the link it paid: the Stripe subscription, or (payment mode) itself.
  const ownId = mode === 'subscription' ? idOf(o.subscription) : sessionId;
  if (link?.status === PaymentTokenStatus.Used && ownId !== null && link.providerId === ownId)
    return undefined;
  return paidSessionRefunded(w, event, mode, {
    sessionId,
    paymentId: token.paymentId,
    subscriptionId: token.subscriptionId,
    reason: 'alreadyPaid',
  });
}

/** Nothing recorded as paid: the refund published for after commit and the history row. */
async function paidSessionRefunded(
  w: UnitOfWork,
  event: StripeWebhookEvent,
  mode: 'subscription' | 'payment',
  of: { sessionId: string; paymentId: number; subscriptionId: number | null; reason: PaidCheckoutReason },
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const o = event.object;
  const text = messagesOf(of.reason);
  const providerSubscriptionId = mode === 'subscription' ? idOf(o.subscription) : null;
  await w.publish('stripeCheckout.paidWithdrawn', {
    reason: of.reason,
    sessionId: of.sessionId,
    mode,
    providerSubscriptionId,
    subscriptionId: of.subscriptionId,
    paymentId: of.paymentId,
  });
  if (of.subscriptionId !== null) {
    const [sub] = await w.tx
      .select({ id: subscriptions.id, status: subscriptions.status })
      .from(subscriptions)
      .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, of.subscriptionId)));
    const amount = typeof o.amount_total === 'number' ? formatEur(o.amount_total) : null;
    if (sub)
      await recordHistory(
        w,
        { id: sub.id, status: sub.status as SubscriptionStatusId },
        of.reason === 'alreadyPaid' ? 'paidCheckoutRefunded' : 'withdrawnCheckoutRefunded',
        text.history(amount, of.sessionId, providerSubscriptionId),
      );
  }
  return { outcome: 'applied', detail: text.detail(of.paymentId, of.sessionId) };
}

/**
 * In the unit that paid a payment (`payment.paid`): its other open sessions — not the one that
 * paid it — published as `stripeCheckout.withdrawn`, so they are expired after commit.
 */
async function expireOtherSessions(w: UnitOfWork, paymentId: number, paidBy: string | null): Promise<void> {
  const open = await w.tx
    .select({ sessionId: stripeCheckoutSessions.sessionId })
    .from(stripeCheckoutSessions)
    .where(
      and(
        eq(stripeCheckoutSessions.tenantId, w.tenantId),
        eq(stripeCheckoutSessions.paymentId, paymentId),
        isNull(stripeCheckoutSessions.expiredAt),
        isNull(stripeCheckoutSessions.refundRef),
        ...(paidBy ? [ne(stripeCheckoutSessions.sessionId, paidBy)] : []),
      ),
    )
    .orderBy(stripeCheckoutSessions.id);
  if (open.length > 0)
    await w.publish('stripeCheckout.withdrawn', { sessionIds: open.map((s) => s.sessionId) });
}

/**
 * After commit of a session paid on a withdrawn payment: Stripe refunds what it took (keyed by the
 * session; the refund's id kept on the session's row, so a later retry asks nothing again), then
 * the Stripe subscription the session created is cancelled (already cancelled: done). A failure
 * throws: the outbox retries.
 */
export async function refundWithdrawnCheckout(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor' | 'uow'>,
  tenantId: number,
  payload: {
    sessionId: string;
    mode: 'subscription' | 'payment';
    providerSubscriptionId: string | null;
    reason?: PaidCheckoutReason;
  },
): Promise<void> {
  const db = deps.connectionFor(tenantId);
  const where = and(
    eq(stripeCheckoutSessions.tenantId, tenantId),
    eq(stripeCheckoutSessions.sessionId, payload.sessionId),
  );
  const [row] = await db
    .select({ refundRef: stripeCheckoutSessions.refundRef })
    .from(stripeCheckoutSessions)
    .where(where);
  const { adapter } = await deps.providers.stripe(tenantId);
  if (!row?.refundRef) {
    const refund = await adapter.refundCheckoutSession({
      sessionId: payload.sessionId,
      metadata: { rinnovaTenantId: String(tenantId), rinnovaSessionId: payload.sessionId },
      idempotencyKey: `rinnova-withdrawn-refund-${tenantId}-${payload.sessionId}`,
    });
    if (row)
      await deps.uow.run({ tenantId, actor: { kind: 'system', job: REFUND_JOB } }, (w) =>
        recordRefund(w, payload.sessionId, refund, payload.mode, payload.reason),
      );
  }
  if (payload.mode !== 'subscription' || !payload.providerSubscriptionId) return;
  try {
    await adapter.cancelSubscription(payload.providerSubscriptionId, messagesOf(payload.reason).cancelNote);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // Unknown to Stripe: it charges nothing more.
    if (error.kind === 'notFound') return;
    if (error.kind !== 'unprocessable') throw error;
    const now = await adapter.getSubscription(payload.providerSubscriptionId);
    if (now.status !== 'CANCELLED' && now.status !== 'EXPIRED') throw error;
  }
}

const REFUND_JOB = 'stripe-withdrawn-checkout';

/**
 * The refund on the session's row, once (a conditional update), and the customer's e-mail that the
 * card payment was refunded (in the same unit: written once, sent after commit by the outbox).
 */
async function recordRefund(
  w: UnitOfWork,
  sessionId: string,
  refund: { refundId: string; amountCents: number } | null,
  mode: 'subscription' | 'payment',
  reason: PaidCheckoutReason | undefined,
): Promise<void> {
  const text = messagesOf(reason);
  const [done] = await w.tx
    .update(stripeCheckoutSessions)
    .set({ refundRef: (refund?.refundId ?? 'none').slice(0, 200) })
    .where(
      and(
        eq(stripeCheckoutSessions.tenantId, w.tenantId),
        eq(stripeCheckoutSessions.sessionId, sessionId),
        isNull(stripeCheckoutSessions.refundRef),
      ),
    )
    .returning({ subscriptionId: stripeCheckoutSessions.subscriptionId });
  if (!done || !refund || refund.amountCents <= 0) return;
  const [sub] = await w.tx
    .select({ userId: subscriptions.userId, email: users.email, name: userTenants.name })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .leftJoin(userTenants, and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, w.tenantId)))
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, done.subscriptionId)));
  if (!sub?.email) return;
  const [tenant] = await w.tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, w.tenantId));
  const tenantName = tenant?.name ?? '';
  const subject = text.mailSubject(tenantName);
  const paragraphs = text.mailBody(sub.name ?? sub.email, formatEur(refund.amountCents), tenantName, mode);
  await w.outbox.email(
    withSignInLink(
      {
        to: sub.email,
        subject,
        text: `${paragraphs.join('\n\n')}\n`,
        html: layout(subject, paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')),
      },
      sub.userId,
    ),
  );
}

/** Billing's consumers of withdrawn (or otherwise paid) payments' Checkout Sessions (app start). */
export function subscribeWithdrawnCheckouts(
  events: EventBus,
  deps: () => Pick<ProviderDeps, 'providers' | 'connectionFor' | 'uow'>,
): void {
  events.subscribe('payment.paid', {
    name: 'billing.expirePaidCheckouts',
    phase: 'inTransaction',
    handle: (w, { paymentId, checkoutSessionId }) =>
      expireOtherSessions(w, paymentId, checkoutSessionId ?? null),
  });
  events.subscribe('stripeCheckout.withdrawn', {
    name: 'billing.expireCheckout',
    phase: 'afterCommit',
    handle: ({ tenantId, payload }) => expireWithdrawnSessions(deps(), tenantId, payload.sessionIds),
  });
  events.subscribe('stripeCheckout.paidWithdrawn', {
    name: 'billing.refundWithdrawnCheckout',
    phase: 'afterCommit',
    handle: ({ tenantId, payload }) => refundWithdrawnCheckout(deps(), tenantId, payload),
  });
}
