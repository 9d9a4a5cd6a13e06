/**
 * The customer's credit on a subscription (issue 30, 'Cambia piano'; docs/fiscal-rules.md
 * 'Credito residuo'): a downgrade made before the period's end can credit (TD04 of the unused days)
 * more than the new days cost; the difference is the customer's and is set off against the
 * subscription's next period payments until used up (art. 1241 c.c., compensation).
 *
 * - The ledger (`subscription_credits`): +amount from a plan change (`recordResidualCredit`, in the
 *   change's unit), −amount used by a period payment (`setOffCredit`, in the unit that makes the
 *   payment). One row per source: a replay writes nothing. The balance is the sum.
 * - The amount a period payment asks is its document's net to pay less min(balance, net); its
 *   invoice stays the whole period's TD01, with `ImportoPagamento` reduced by the set-off and a
 *   `Causale` citing the credit note (`setOffCausali`).
 * - Stripe: after commit, a customer balance transaction of −credit (`creditAtStripe`, keyed by the
 *   plan change) makes Stripe's next invoice ask less; the renewal's `invoice.paid` sets off what
 *   Stripe did not charge (`setOffCredit` with `charged`).
 * - PayPal cannot lower one charge: after commit the credit is given back as a partial refund of the
 *   subscription's last completed sale (`refundAtPayPal`, keyed by the plan change), up to what that
 *   sale still allows; the refund is the ledger's use, the rest stays on the ledger (shown on the
 *   subscription page). Its PAYMENT.SALE.REFUNDED issues no second credit note (`ownCreditRefund`).
 * - An extra payment (a one-off 'Subito' charge) made while a credit is left sets it off too
 *   (`setOffExtraPayment`): the credit goes to the subscription's next payment whatever its kind,
 *   as Stripe applies the customer balance to any invoice it finalizes.
 */
import { and, asc, desc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { SubscriptionStatus, type SubscriptionStatusId } from '../../../contract/subscription-status';
import { creditBalance, creditSetOffFor, creditUsedBy, periodBilling, setOffCredit } from '../../db/credits';
import { payments, subscriptionCredits, subscriptions } from '../../db/schema';
import { ProviderError } from '../../providers/payment-provider';
import { isPayPalAdapter } from '../../providers/paypal';
import type { EventBus } from '../../unit-of-work/events';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import type { ProviderDeps } from './provider-payments';
import type { SubscriptionRow } from './billing.repository';
import { recordHistory } from './subscription.service';
export {
  creditBalance,
  creditSetOffFor,
  creditUsedBy,
  recordResidualCredit,
  setOffCausali,
  setOffCredit,
  setsOffInRinnova,
} from '../../db/credits';

/**
 * After commit: a Stripe subscription's residual credit goes onto the Stripe customer's invoice
 * balance (one balance transaction, keyed by the plan change: an outbox retry credits once), so
 * Stripe's next invoice asks less; its id is kept on the ledger row. A failure is the outbox's to
 * retry; nothing in Rinnova changes. Not for other methods (PayPal cannot lower one charge).
 * `stripeSubscriptionId`: the Stripe subscription whose customer takes it (else the latest paid
 * period payment's, when Stripe's).
 */
export async function creditAtStripe(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  planChangeId: number,
  stripeSubscriptionId?: string,
): Promise<void> {
  const db = deps.connectionFor(tenantId);
  const [credit] = await db
    .select({
      id: subscriptionCredits.id,
      subscriptionId: subscriptionCredits.subscriptionId,
      amountCents: subscriptionCredits.amountCents,
      providerRef: subscriptionCredits.providerRef,
    })
    .from(subscriptionCredits)
    .where(
      and(eq(subscriptionCredits.tenantId, tenantId), eq(subscriptionCredits.planChangeId, planChangeId)),
    );
  if (!credit || credit.providerRef) return;
  let target = stripeSubscriptionId ?? null;
  if (!target) {
    const billing = await periodBilling({ tenantId, tx: db }, credit.subscriptionId);
    if (!billing || billing.method !== 'stripe' || !billing.providerSubscriptionId) return;
    target = billing.providerSubscriptionId;
  }
  const { adapter } = await deps.providers.stripe(tenantId);
  const ref = await adapter.creditCustomerBalance({
    subscriptionId: target,
    amountCents: credit.amountCents,
    description: 'Credito residuo del cambio di piano',
    metadata: { rinnovaTenantId: String(tenantId), rinnovaPlanChangeId: String(planChangeId) },
    idempotencyKey: `rinnova-credit-${tenantId}-${planChangeId}`,
  });
  await db
    .update(subscriptionCredits)
    .set({ providerRef: ref })
    .where(and(eq(subscriptionCredits.tenantId, tenantId), eq(subscriptionCredits.id, credit.id)));
}

/**
 * Before Stripe charges a one-off amount of a subscription (a proration, a 'Subito' charge) or
 * gives back a credit Rinnova used: every credit of the subscription not yet on the Stripe
 * customer's balance is put there now (the same keyed call as the outbox's `creditAtStripe`, so
 * the two together credit once). A failure throws: the caller's outbox row is retried and Stripe
 * charges nothing meanwhile, so Stripe never charges more than the payment asks because the
 * credit was late.
 */
export async function ensureCreditsAtStripe(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  subscriptionId: number,
  stripeSubscriptionId: string,
): Promise<void> {
  const pending = await deps
    .connectionFor(tenantId)
    .select({ planChangeId: subscriptionCredits.planChangeId })
    .from(subscriptionCredits)
    .where(
      and(
        eq(subscriptionCredits.tenantId, tenantId),
        eq(subscriptionCredits.subscriptionId, subscriptionId),
        isNotNull(subscriptionCredits.planChangeId),
        isNull(subscriptionCredits.providerRef),
        gt(subscriptionCredits.amountCents, 0),
      ),
    )
    .orderBy(asc(subscriptionCredits.id));
  for (const row of pending) await creditAtStripe(deps, tenantId, row.planChangeId!, stripeSubscriptionId);
}

/**
 * After commit, `subscription.creditSetOff`: Rinnova set off a Stripe subscription's credit on a
 * payment Stripe does not charge (a renewal link's, a transfer's), so the Stripe customer's
 * balance gives back what was used (keyed by the payment: once), after making sure the credit is
 * there at all (`ensureCreditsAtStripe`): Stripe's balance then holds exactly the ledger's.
 */
export async function giveBackAtStripe(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  payload: { subscriptionId: number; paymentId: number; providerSubscriptionId: string; usedCents?: number },
): Promise<void> {
  // The use as set off (a coupon may shrink it later: `returnUnusedAtStripe` gives that back).
  const used =
    payload.usedCents ??
    (await creditUsedBy({ tenantId, tx: deps.connectionFor(tenantId) }, payload.paymentId));
  if (used <= 0) return;
  await ensureCreditsAtStripe(deps, tenantId, payload.subscriptionId, payload.providerSubscriptionId);
  const { adapter } = await deps.providers.stripe(tenantId);
  await adapter.creditCustomerBalance({
    subscriptionId: payload.providerSubscriptionId,
    amountCents: -used,
    description: 'Credito residuo usato da un pagamento in Rinnova',
    metadata: { rinnovaTenantId: String(tenantId), rinnovaPaymentId: String(payload.paymentId) },
    idempotencyKey: `rinnova-credit-used-${tenantId}-${payload.paymentId}`,
  });
}

/**
 * After commit, `subscription.creditUnused`: a coupon shrank a set-off Stripe's balance had given
 * back (`giveBackAtStripe`, which debits the use as set off), so the cents no longer used go back
 * onto the Stripe customer's balance (keyed by payment and cents: once). Stripe's balance then
 * holds the ledger's again, whichever of the two runs first.
 */
export async function returnUnusedAtStripe(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  payload: { subscriptionId: number; paymentId: number; providerSubscriptionId: string; cents: number },
): Promise<void> {
  if (payload.cents <= 0) return;
  const { adapter } = await deps.providers.stripe(tenantId);
  await adapter.creditCustomerBalance({
    subscriptionId: payload.providerSubscriptionId,
    amountCents: payload.cents,
    description: 'Credito residuo non più usato dal pagamento scontato da un coupon',
    metadata: { rinnovaTenantId: String(tenantId), rinnovaPaymentId: String(payload.paymentId) },
    idempotencyKey: `rinnova-credit-unused-${tenantId}-${payload.paymentId}-${payload.cents}`,
  });
}

/**
 * After commit, a PayPal subscription's residual credit (PayPal cannot lower one charge): a partial
 * refund of the subscription's last completed sale (`POST /v1/payments/sale/{id}/refund`,
 * PayPal-Request-Id `rinnova-credit-refund-{tenant}-{change}`: an outbox retry refunds once) of
 * min(credit, balance, what the sale still allows: its amount less Rinnova's refunds of it); the
 * rest stays on the ledger and is refunded on the next sales PayPal charges
 * (`refundRemainderOnSale`). Recorded as the ledger's use (−amount, `refund_of_change_id`, the
 * sale's payment, PayPal's refund id in `provider_ref`) only when PayPal answers COMPLETED or
 * PENDING; a failure throws and changes nothing (the outbox retries); PayPal refusing this sale's
 * refund (a refund made by hand at PayPal left less than Rinnova counts, or the sale is too old)
 * records nothing and ends: the credit waits for the next sale. No credit note: the change's TD04
 * already documents the credit, the refund settles it.
 */
export async function refundAtPayPal(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  planChangeId: number,
): Promise<void> {
  const db = deps.connectionFor(tenantId);
  const [credit] = await db
    .select({
      subscriptionId: subscriptionCredits.subscriptionId,
      amountCents: subscriptionCredits.amountCents,
    })
    .from(subscriptionCredits)
    .where(
      and(eq(subscriptionCredits.tenantId, tenantId), eq(subscriptionCredits.planChangeId, planChangeId)),
    );
  if (!credit) return;
  const [done] = await db
    .select({ id: subscriptionCredits.id })
    .from(subscriptionCredits)
    .where(
      and(eq(subscriptionCredits.tenantId, tenantId), eq(subscriptionCredits.refundOfChangeId, planChangeId)),
    );
  if (done) return;
  // The subscription's last completed PayPal sale (a period payment PayPal charged).
  const [sale] = await db
    .select({ paymentId: payments.id })
    .from(payments)
    .where(and(paypalSaleOf(tenantId), eq(payments.subscriptionId, credit.subscriptionId)))
    .orderBy(desc(payments.periodStart), desc(payments.id))
    .limit(1);
  if (!sale) return;
  await refundOnSale(deps, tenantId, credit.subscriptionId, sale.paymentId, [
    { planChangeId, leftCents: credit.amountCents, key: `rinnova-credit-refund-${tenantId}-${planChangeId}` },
  ]);
}

/** A period payment PayPal charged (a completed sale), not a proration's or a one-off's. */
const paypalSaleOf = (tenantId: number) =>
  and(
    eq(payments.tenantId, tenantId),
    eq(payments.method, 'paypal'),
    isNotNull(payments.paidAt),
    isNotNull(payments.providerPaymentId),
    isNull(payments.planChangeId),
    isNull(payments.oneOffChargeId),
  );

/** PayPal's answers that refuse a sale's refund for good (v1 sale refund errors): not retried. */
const REFUSED = new Set([
  'REFUND_EXCEEDED_TRANSACTION_AMOUNT',
  'TRANSACTION_REFUSED',
  'TRANSACTION_ALREADY_REFUNDED',
  'FULL_REFUND_NOT_ALLOWED_AFTER_PARTIAL_REFUND',
  'REFUND_TIME_LIMIT_EXCEEDED',
]);

/**
 * Refunds on sale `paymentId` what each plan change still owes (`owed`, oldest first), capped by
 * the ledger's balance and what the sale still allows, one refund per change and sale (its key).
 */
async function refundOnSale(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  subscriptionId: number,
  paymentId: number,
  owed: { planChangeId: number; leftCents: number; key: string }[],
): Promise<void> {
  const db = deps.connectionFor(tenantId);
  const [sale] = await db
    .select({ saleId: payments.providerPaymentId, amountCents: payments.amountDueCents })
    .from(payments)
    .where(and(paypalSaleOf(tenantId), eq(payments.id, paymentId)));
  if (!sale?.saleId) return;
  const [refunded] = await db
    .select({ sum: sql<string | number | null>`coalesce(sum(-${subscriptionCredits.amountCents}), 0)` })
    .from(subscriptionCredits)
    .where(
      and(eq(subscriptionCredits.tenantId, tenantId), eq(subscriptionCredits.refundedPaymentId, paymentId)),
    );
  let saleLeft = sale.amountCents - Number(refunded?.sum ?? 0);
  let balance = await creditBalance({ tenantId, tx: db }, subscriptionId);
  for (const change of owed) {
    const amountCents = Math.min(change.leftCents, balance, saleLeft);
    if (amountCents <= 0) return;
    const { adapter } = await deps.providers.paypal(tenantId);
    if (!isPayPalAdapter(adapter)) return;
    let refund: { id: string; status: string };
    try {
      refund = await adapter.refundSale(sale.saleId, { amountCents, idempotencyKey: change.key });
    } catch (error) {
      if (error instanceof ProviderError && error.providerCode !== null && REFUSED.has(error.providerCode))
        return;
      throw error;
    }
    if (refund.status !== 'COMPLETED' && refund.status !== 'PENDING') throw new ProviderError('invalid');
    await db
      .insert(subscriptionCredits)
      .values({
        tenantId,
        subscriptionId,
        amountCents: -amountCents,
        refundOfChangeId: change.planChangeId,
        refundedPaymentId: paymentId,
        providerRef: refund.id.slice(0, 200),
      })
      .onConflictDoNothing();
    saleLeft -= amountCents;
    balance -= amountCents;
  }
}

/**
 * After commit of a sale PayPal charged (`payment.paid` of a PayPal period payment): what a plan
 * change's refund could not give back (capped by an earlier sale, or refused by PayPal) is refunded
 * on this sale, change by change, oldest first, each keyed
 * `rinnova-credit-refund-{tenant}-{change}-sale-{payment}` (a replay refunds once).
 */
export async function refundRemainderOnSale(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  payload: { paymentId: number; subscriptionId: number },
): Promise<void> {
  const db = deps.connectionFor(tenantId);
  if ((await creditBalance({ tenantId, tx: db }, payload.subscriptionId)) <= 0) return;
  const [sale] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(paypalSaleOf(tenantId), eq(payments.id, payload.paymentId)));
  if (!sale) return;
  const changes = await db
    .select({
      planChangeId: subscriptionCredits.planChangeId,
      creditCents: subscriptionCredits.amountCents,
      refundedCents: sql<string | number>`coalesce((select sum(-r.amount_cents) from subscription_credits r
        where r.tenant_id = ${subscriptionCredits.tenantId} and r.refund_of_change_id = ${subscriptionCredits.planChangeId}), 0)`,
      onThisSale: sql<boolean>`exists (select 1 from subscription_credits r
        where r.tenant_id = ${subscriptionCredits.tenantId} and r.refund_of_change_id = ${subscriptionCredits.planChangeId}
        and r.refunded_payment_id = ${payload.paymentId})`,
    })
    .from(subscriptionCredits)
    .where(
      and(
        eq(subscriptionCredits.tenantId, tenantId),
        eq(subscriptionCredits.subscriptionId, payload.subscriptionId),
        isNotNull(subscriptionCredits.planChangeId),
      ),
    )
    .orderBy(asc(subscriptionCredits.id));
  const owed = changes
    .filter((c) => !c.onThisSale && c.planChangeId !== null)
    .map((c) => ({
      planChangeId: c.planChangeId!,
      leftCents: c.creditCents - Number(c.refundedCents),
      key: `rinnova-credit-refund-${tenantId}-${c.planChangeId}-sale-${payload.paymentId}`,
    }))
    .filter((c) => c.leftCents > 0);
  if (owed.length === 0) return;
  await refundOnSale(deps, tenantId, payload.subscriptionId, sale.id, owed);
}

/**
 * After commit of a plan change: its residual credit goes where the subscription is charged —
 * PayPal's (`refundAtPayPal`), else Stripe's customer balance (`creditAtStripe`, which does nothing
 * for a subscription paid by transfer: Rinnova sets it off itself).
 */
export async function settleResidualCredit(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  planChangeId: number,
): Promise<void> {
  const db = deps.connectionFor(tenantId);
  const [credit] = await db
    .select({ subscriptionId: subscriptionCredits.subscriptionId })
    .from(subscriptionCredits)
    .where(
      and(eq(subscriptionCredits.tenantId, tenantId), eq(subscriptionCredits.planChangeId, planChangeId)),
    );
  if (!credit) return;
  const billing = await periodBilling({ tenantId, tx: db }, credit.subscriptionId);
  if (billing?.method === 'paypal') return refundAtPayPal(deps, tenantId, planChangeId);
  return creditAtStripe(deps, tenantId, planChangeId);
}

/**
 * A PAYMENT.SALE.REFUNDED of a refund Rinnova made of a plan change's credit (its refund id on the
 * ledger): answers the outcome to record, so the webhook issues no second credit note (the change's
 * TD04 documents the credit, art. 26 DPR 633/72) and moves no status; undefined for any other refund.
 */
export async function ownCreditRefund(
  scope: TenantScope,
  refundId: string | null,
): Promise<{ outcome: 'unchanged'; detail: string } | undefined> {
  if (!refundId) return undefined;
  const [row] = await scope.tx
    .select({
      changeId: subscriptionCredits.refundOfChangeId,
      subscriptionId: subscriptionCredits.subscriptionId,
    })
    .from(subscriptionCredits)
    .where(
      and(
        eq(subscriptionCredits.tenantId, scope.tenantId),
        eq(subscriptionCredits.providerRef, refundId),
        isNotNull(subscriptionCredits.refundOfChangeId),
      ),
    );
  if (!row) return undefined;
  return {
    outcome: 'unchanged',
    detail: `rimborso ${refundId} del credito residuo del cambio di piano ${row.changeId} (sottoscrizione ${row.subscriptionId}): nota di credito già emessa col cambio`,
  };
}

/** Billing's own after-commit consumer of a plan change (app start). */
export function subscribeResidualCredits(
  events: EventBus,
  deps: () => Pick<ProviderDeps, 'providers' | 'connectionFor'>,
): void {
  events.subscribe('subscription.planChanged', {
    name: 'billing.residualCredit',
    phase: 'afterCommit',
    handle: ({ tenantId, payload }) => settleResidualCredit(deps(), tenantId, payload.planChangeId),
  });
  events.subscribe('payment.paid', {
    name: 'billing.residualCreditOnSale',
    phase: 'afterCommit',
    handle: ({ tenantId, payload }) => refundRemainderOnSale(deps(), tenantId, payload),
  });
  events.subscribe('subscription.creditSetOff', {
    name: 'billing.creditGiveBack',
    phase: 'afterCommit',
    handle: ({ tenantId, payload }) => giveBackAtStripe(deps(), tenantId, payload),
  });
  events.subscribe('subscription.creditUnused', {
    name: 'billing.creditUnusedBack',
    phase: 'afterCommit',
    handle: ({ tenantId, payload }) => returnUnusedAtStripe(deps(), tenantId, payload),
  });
}

/**
 * A period's payment just made for the subscription's next period by Rinnova (`ensureRenewalPayment`:
 * the renewal reminder's or renewal link's, a transfer's, 'Passa al bonifico'), in its unit: the
 * residual credit is set off (`setOffCredit`) unless the provider itself charges that period — an
 * Active Stripe subscription (Stripe renews it and its customer balance takes the credit) — or
 * PayPal charges the periods (its credit stays on the ledger). A Stripe subscription that will not
 * renew at Stripe (ActiveNoRenewal: its customer turned renewal off, or 'Passa al bonifico') gets
 * its credit set off here, and after commit Stripe's balance gives it back
 * (`subscription.creditSetOff`). Wholly covered, the payment is paid by the credit now
 * (`settleByCredit`). Answers the cents used and whether the credit paid it.
 */
export async function setOffRenewal(
  w: UnitOfWork,
  subscriptionId: number,
  paymentId: number,
): Promise<{ used: number; paid: boolean }> {
  const billing = await periodBilling(w, subscriptionId);
  if (billing?.method === 'paypal') return { used: 0, paid: false };
  const [sub] = await w.tx
    .select({ status: subscriptions.status })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, subscriptionId)));
  if (!sub) return { used: 0, paid: false };
  const atStripe = billing?.method === 'stripe' ? billing.providerSubscriptionId : null;
  if (billing?.method === 'stripe' && sub.status === SubscriptionStatus.Active)
    return { used: 0, paid: false };
  const used = await setOffCredit(w, subscriptionId, paymentId);
  if (used === 0) return { used, paid: false };
  if (atStripe)
    await w.publish('subscription.creditSetOff', {
      subscriptionId,
      paymentId,
      providerSubscriptionId: atStripe,
      usedCents: used,
    });
  const paid = await settleByCredit(
    w,
    { id: subscriptionId, status: sub.status as SubscriptionStatusId },
    paymentId,
  );
  return { used, paid };
}

/**
 * A set-off shrunk by `cents` in the caller's unit (a coupon applied after it; `capCreditUse`): when
 * Rinnova had set it off on a Stripe subscription it does not renew (`setOffRenewal` then told
 * Stripe's balance to give the use back), the cents go back onto that balance after commit.
 */
export async function creditUnused(
  w: UnitOfWork,
  subscriptionId: number,
  paymentId: number,
  cents: number,
): Promise<void> {
  if (cents <= 0) return;
  const billing = await periodBilling(w, subscriptionId);
  if (billing?.method !== 'stripe' || !billing.providerSubscriptionId) return;
  await w.publish('subscription.creditUnused', {
    subscriptionId,
    paymentId,
    providerSubscriptionId: billing.providerSubscriptionId,
    cents,
  });
}

/**
 * A period's payment the credit wholly covers (amount 0, a use on the ledger) is paid by the credit
 * now, wherever it was made: `paid_at` now, method 'bankTransfer' unless it has one (nothing is
 * collected), the next billing date moved to the period's end as a transfer paid early does, a
 * history row 'creditSettled' with no status move (no state-machine event: nothing moves), and
 * `payment.paid` (its invoice: ImportoPagamento 0,00, the set-off in Causale). Answers whether it
 * paid it.
 */
export async function settleByCredit(
  w: UnitOfWork,
  sub: Pick<SubscriptionRow, 'id' | 'status'>,
  paymentId: number,
): Promise<boolean> {
  const [p] = await w.tx
    .select({
      amountDueCents: payments.amountDueCents,
      paidAt: payments.paidAt,
      method: payments.method,
      periodEnd: payments.periodEnd,
    })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  if (!p || p.paidAt !== null || p.amountDueCents > 0 || (await creditUsedBy(w, paymentId)) === 0)
    return false;
  await w.tx
    .update(payments)
    .set({ paidAt: w.now, method: p.method ?? 'bankTransfer' })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  await w.tx
    .update(subscriptions)
    .set({ nextBillingDate: p.periodEnd, updatedAt: w.now })
    .where(
      and(
        eq(subscriptions.tenantId, w.tenantId),
        eq(subscriptions.id, sub.id),
        lt(subscriptions.nextBillingDate, p.periodEnd),
      ),
    );
  await recordHistory(w, sub, 'creditSettled', null);
  await w.publish('payment.paid', { paymentId, subscriptionId: sub.id });
  return true;
}

/**
 * An extra payment just made on a subscription (a one-off 'Subito' charge; issue 30) in the unit
 * that made it: min(balance, amount) is set off (`setOffCredit`), so it asks the reduced amount —
 * for a Stripe subscription exactly what Stripe charges once it applies the customer balance to the
 * one-off invoice (the invoice item is the whole amount: see `stripeChargeCents`). Wholly covered,
 * it is paid by the credit now, as the renewal-by-transfer job pays a period (`paid_at` now, a
 * history row 'creditSettled' with no status move, `payment.paid` issues its invoice); no Stripe
 * invoice is made (the balance taken is debited at Stripe after commit instead). Not for a
 * subscription PayPal charges (its credit stays on the ledger). Answers the cents used and whether
 * the credit paid it.
 */
export async function setOffExtraPayment(
  w: UnitOfWork,
  sub: Pick<SubscriptionRow, 'id' | 'status'>,
  paymentId: number,
): Promise<{ used: number; paid: boolean }> {
  if (!(await creditSetOffFor(w, sub.id))) return { used: 0, paid: false };
  const used = await setOffCredit(w, sub.id, paymentId);
  if (used === 0) return { used, paid: false };
  const [p] = await w.tx
    .select({ amountDueCents: payments.amountDueCents, method: payments.method })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  if (!p || p.amountDueCents > 0) return { used, paid: false };
  await w.tx
    .update(payments)
    .set({ paidAt: w.now, method: p.method ?? 'bankTransfer' })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  await recordHistory(w, sub, 'creditSettled', null);
  await w.publish('payment.paid', { paymentId, subscriptionId: sub.id });
  return { used, paid: true };
}
