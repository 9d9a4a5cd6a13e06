/**
 * PayPal's side of billing: the customer's payment on the payment page (updatePayment) and the
 * reading of PayPal's webhook events (into the provider inbox). What any provider does to a
 * subscription is provider-payments.ts; the sync is provider-sync.ts; Stripe is stripe-billing.
 */
import { and, eq } from 'drizzle-orm';
import { toCents } from '../../../contract/money';
import { PaymentTokenStatus } from '../../../contract/schemas/payment';
import { paymentTokens } from '../../db/schema';
import { receiveProviderEvent } from './provider-inbox';
import { providerChargeFailed } from './collection.service';
import { HttpError } from '../../lib/http-error';
import { ProviderError, type ProviderSubscription } from '../../providers/payment-provider';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findToken, isUsable, paymentMessages } from './payment-token.service';
import { lastResumeAt } from './renewal.service';
import { confirmPayPalCoupon } from './paypal-coupon-revise';
import { confirmPayPalPlanChange } from './paypal-plan-change';
import { ownCreditRefund } from './subscription-credit';

import {
  type ProviderDeps,
  tokenInvalid,
  recordTokenPayment,
  applyProviderStatus,
  type WebhookOutcome,
  subscriptionOfProviderId,
  refundReported,
  recordCharge,
  parseDate,
} from './provider-payments';

/** PayPal's sale amount ('47.58') in integer cents, or null when absent or not a two-decimal figure. */
function saleCents(total: unknown): number | null {
  if (typeof total !== 'string' && typeof total !== 'number') return null;
  try {
    return toCents(total);
  } catch {
    return null;
  }
}

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
  deps: ProviderDeps,
  input: { token: string; providerSubscriptionId: string },
): Promise<'paid' | 'replayed' | 'pending'> {
  const row = await findToken(deps.home.ofToken(input.token), input.token);
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
  // The plan the link asks, as PayPal made it: an approval carrying an inline plan (another price
  // typed in the browser) is refused like another plan.
  if (remote.planId !== row.providerPlanId || remote.planOverridden === true)
    throw new HttpError(400, paymentMessages.paypalOtherPlan);

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

/**
 * A verified webhook event, once per event id: stored with its outcome in the same unit that
 * applies it, so a second delivery (or two at once) finds it and does nothing.
 */
export async function applyWebhookEvent(
  deps: ProviderDeps,
  tenantId: number,
  event: WebhookEvent,
): Promise<{ outcome: WebhookOutcome; detail: string | null }> {
  const resource = event.resource ?? {};
  const resourceId = event.event_type.startsWith('PAYMENT.SALE')
    ? typeof resource.billing_agreement_id === 'string'
      ? resource.billing_agreement_id
      : null
    : typeof resource.id === 'string'
      ? resource.id
      : null;
  return receiveProviderEvent(
    deps.uow,
    tenantId,
    {
      provider: 'paypal',
      id: event.id,
      type: event.event_type,
      resourceId,
      payload: event,
      actor: { kind: 'provider', provider: 'paypal', eventId: event.id },
    },
    (w) => handleEvent(w, event, resourceId),
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
    // A refund Rinnova made of a plan change's credit (issue 30): already documented, nothing more.
    if (event.event_type === 'PAYMENT.SALE.REFUNDED') {
      const own = await ownCreditRefund(
        w,
        typeof resource.id === 'string' ? resource.id.slice(0, 200) : null,
      );
      if (own) return own;
    }
    const total = Number((resource.amount as { total?: unknown } | undefined)?.total);
    const refundedCents = Number.isFinite(total) && total !== 0 ? toCents(Math.abs(total)) : null;
    return refundReported(w, {
      saleId: saleId.slice(0, 200),
      refundedCents,
      what: `${refund} (PayPal)`,
    });
  }
  if (event.event_type === 'BILLING.SUBSCRIPTION.PAYMENT.FAILED') {
    // PayPal could not charge the period (issue 29): the period's payment is overdue, the
    // subscription stays Active through the tenant's grace while PayPal retries.
    if (!providerId) return { outcome: 'ignored', detail: 'evento senza ID della sottoscrizione' };
    const failedFor = await subscriptionOfProviderId(w, providerId);
    if (failedFor === null) return { outcome: 'unknownSubscription', detail: providerId };
    const failures = (event.resource?.billing_info as { failed_payments_count?: unknown } | undefined)
      ?.failed_payments_count;
    return providerChargeFailed(w, failedFor, providerId, {
      kind: 'paypal',
      note: `PayPal: addebito non riuscito${typeof failures === 'number' ? ` (tentativo ${failures})` : ''}`,
    });
  }
  if (event.event_type === 'BILLING.SUBSCRIPTION.UPDATED') {
    // The buyer approved a revise (issue 30): a coupon waiting on the plan PayPal now bills is
    // redeemed once (paypal-coupon-revise.ts); any other update changes nothing.
    const planId = event.resource?.plan_id;
    if (!providerId || typeof planId !== 'string')
      return { outcome: 'ignored', detail: 'evento senza sottoscrizione o piano' };
    if (event.resource?.plan_overridden === true)
      return { outcome: 'ignored', detail: 'piano personalizzato: nessun coupon' };
    // A plan change's revise (issue 30) approved: marked once (paypal-plan-change.ts).
    const coupon = await confirmPayPalCoupon(w, providerId, planId.slice(0, 200));
    if (coupon.outcome !== 'unchanged') return coupon;
    const change = await confirmPayPalPlanChange(w, providerId, planId.slice(0, 200));
    return change.outcome === 'applied' ? change : coupon;
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
    // 'Disattiva il rinnovo' suspends at PayPal and 'Riattiva' re-activates: a SUSPENDED event
    // created before the customer's last resume is stale (PayPal delivers late and retries).
    if (status === 'SUSPENDED') {
      const created = parseDate(event.create_time);
      const resumed = await lastResumeAt(w, subscriptionId);
      if (created && resumed && created.getTime() <= resumed.getTime())
        return { outcome: 'ignored', detail: 'sospensione precedente alla riattivazione del rinnovo' };
    }
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
    amountPaid: saleCents(charged),
  });
}
