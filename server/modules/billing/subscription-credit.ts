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
 * - PayPal cannot lower one charge: the credit stays on the ledger (shown on the subscription page).
 * - An extra payment (a one-off 'Subito' charge) made while a credit is left sets it off too
 *   (`setOffExtraPayment`): the credit goes to the subscription's next payment whatever its kind,
 *   as Stripe applies the customer balance to any invoice it finalizes.
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { creditSetOffFor, setOffCredit } from '../../db/credits';
import { payments, subscriptionCredits } from '../../db/schema';
import type { EventBus } from '../../unit-of-work/events';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
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
 */
export async function creditAtStripe(
  deps: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  planChangeId: number,
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
  const [billing] = await db
    .select({ method: payments.method, providerSubscriptionId: payments.providerSubscriptionId })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, tenantId),
        eq(payments.subscriptionId, credit.subscriptionId),
        isNotNull(payments.paidAt),
        isNull(payments.planChangeId),
        isNull(payments.oneOffChargeId),
      ),
    )
    .orderBy(sql`${payments.periodStart} desc`, sql`${payments.id} desc`)
    .limit(1);
  if (!billing || billing.method !== 'stripe' || !billing.providerSubscriptionId) return;
  const { adapter } = await deps.providers.stripe(tenantId);
  const ref = await adapter.creditCustomerBalance({
    subscriptionId: billing.providerSubscriptionId,
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

/** Billing's own after-commit consumer of a plan change (app start). */
export function subscribeResidualCredits(
  events: EventBus,
  deps: () => Pick<ProviderDeps, 'providers' | 'connectionFor'>,
): void {
  events.subscribe('subscription.planChanged', {
    name: 'billing.residualCredit',
    phase: 'afterCommit',
    handle: ({ tenantId, payload }) => creditAtStripe(deps(), tenantId, payload.planChangeId),
  });
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
