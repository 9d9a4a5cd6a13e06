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
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { payments, subscriptionCredits } from '../../db/schema';
import type { EventBus } from '../../unit-of-work/events';
import type { ProviderDeps } from './provider-payments';
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
