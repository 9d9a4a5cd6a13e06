/**
 * One-off charges ('Addebito una tantum', issue 30). Collected 'Subito': in the request's unit the
 * charge row, its payment (unpaid, due today, `payments.one_off_charge_id`; amount = the net to pay
 * of its document, computed by the one computation `oneOffDocument` at the subscription's VAT
 * treatment, so forfettario natura N2.2, cassa, ritenuta and bollo follow the tenant's regime), a
 * history row 'oneOffCharge' and `oneOffCharge.created`. A Stripe subscription's payment is then
 * charged at Stripe after commit (one invoice item and invoice keyed by the payment, like a plan
 * change's proration; its `invoice.paid` records the payment once); any other waits for the
 * customer or the Admin's 'Segna come pagato'. When paid (`payment.paid`) the charge is 'paid' and
 * the invoice module issues one TD01 with the charge's lines (`issueInvoiceForPayment`).
 * 'Con il prossimo pagamento': the charge's lines join the next period's payment (attachNextCharges).
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne } from 'drizzle-orm';
import { PaymentTokenStatus } from '../../../contract/schemas/payment';
import { discountOfPayment } from '../../db/coupons';
import { isNatura } from '../../../contract/invoice/fatturapa';
import { serverMessages } from '../../../contract/messages';
import { fromCents } from '../../../contract/money';
import {
  oneOffMessages,
  type OneOffCharge,
  type OneOffCollect,
  type OneOffStatus,
} from '../../../contract/schemas/one-off-charge';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { oneOffDocument, subscriptionDocument, type ExtraLine } from '../../db/fiscal-profiles';
import { oneOffCharges, paymentTokens, payments, plans } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { EventBus } from '../../unit-of-work/events';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription } from './billing.repository';
import type { ProviderDeps } from './provider-payments';
import { creditUsedBy, ensureCreditsAtStripe, setOffExtraPayment } from './subscription-credit';
import { insertPayment, recordHistory } from './subscription.service';

type Row = typeof oneOffCharges.$inferSelect;
function toItem(r: Row): OneOffCharge {
  return {
    id: r.id,
    subscriptionId: r.subscriptionId,
    description: r.description,
    quantity: r.quantity,
    unitPrice: fromCents(r.unitPriceCents),
    collect: r.collect as OneOffCollect,
    status: r.status as OneOffStatus,
    amountDue: r.amountDueCents === null ? null : fromCents(r.amountDueCents),
    paymentId: r.paymentId,
    createdAt: r.createdAt.toISOString(),
    paidAt: r.paidAt?.toISOString() ?? null,
  };
}

/** The subscription's charges, newest first (404 for another tenant's subscription). */
export async function listOneOffCharges(scope: TenantScope, subscriptionId: number): Promise<OneOffCharge[]> {
  if (!(await findSubscription(scope, subscriptionId))) throw new HttpError(404, serverMessages.notFound);
  const rows = await scope.tx
    .select()
    .from(oneOffCharges)
    .where(and(eq(oneOffCharges.tenantId, scope.tenantId), eq(oneOffCharges.subscriptionId, subscriptionId)))
    .orderBy(desc(oneOffCharges.id));
  return rows.map(toItem);
}

/** How the periods are charged: the latest paid period payment's method and provider id. */
async function periodBilling(w: TenantScope, subscriptionId: number) {
  const [row] = await w.tx
    .select({ method: payments.method, providerSubscriptionId: payments.providerSubscriptionId })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNotNull(payments.paidAt),
        isNull(payments.planChangeId),
        isNull(payments.oneOffChargeId),
      ),
    )
    .orderBy(desc(payments.periodStart), desc(payments.id))
    .limit(1);
  return row ?? null;
}

type SubTerms = { userId: number; planId: number; costBeforeVatCents: number; vatHundredths: number };

/**
 * What lines of one-off charges add to a period's document (cents): the one computation of the
 * period's line (the subscription's agreed cost and VAT, the payment's coupon) with them, less the
 * same without them. Cassa, ritenuta and bollo are those of the whole document.
 */
export async function extrasDelta(
  w: TenantScope,
  sub: SubTerms,
  couponRedemptionId: number | null,
  extras: readonly ExtraLine[],
): Promise<number> {
  if (extras.length === 0) return 0;
  const [plan] = await w.tx
    .select({ name: plans.name, natura: plans.natura })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, sub.planId)));
  const charge = {
    description: plan?.name ?? '',
    costCents: sub.costBeforeVatCents,
    vat: sub.vatHundredths,
    natura: sub.vatHundredths === 0 && isNatura(plan?.natura) ? plan.natura : null,
    discount: await discountOfPayment(w, couponRedemptionId),
  };
  const without = await subscriptionDocument(w.tx, w.tenantId, sub.userId, charge);
  const withExtras = await subscriptionDocument(w.tx, w.tenantId, sub.userId, { ...charge, extras });
  return withExtras.netToPayCents - without.netToPayCents;
}

/** The 'nextPayment' charges on a period's payment (not deleted), oldest first, as document lines. */
export async function extrasOfPayment(w: TenantScope, paymentId: number) {
  return w.tx
    .select({
      id: oneOffCharges.id,
      description: oneOffCharges.description,
      quantity: oneOffCharges.quantity,
      unitPriceCents: oneOffCharges.unitPriceCents,
    })
    .from(oneOffCharges)
    .where(
      and(
        eq(oneOffCharges.tenantId, w.tenantId),
        eq(oneOffCharges.paymentId, paymentId),
        eq(oneOffCharges.collect, 'nextPayment'),
        ne(oneOffCharges.status, 'deleted'),
      ),
    )
    .orderBy(asc(oneOffCharges.id));
}

/**
 * Changes which 'nextPayment' charges an unpaid period payment carries (`change` writes the rows):
 * its amount moves by what the charges add to the document after, less before; each charge's
 * `amount_due_cents` becomes what it alone adds; the payment's active links are retired (they ask
 * the old amount).
 */
async function repriceWith(w: UnitOfWork, paymentId: number, change: () => Promise<void>): Promise<void> {
  const [p] = await w.tx
    .select({
      amountDueCents: payments.amountDueCents,
      couponRedemptionId: payments.couponRedemptionId,
      subscriptionId: payments.subscriptionId,
    })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)))
    .for('update');
  if (!p) return;
  const sub = await findSubscription(w, p.subscriptionId);
  if (!sub) return;
  const terms: SubTerms = {
    userId: sub.userId,
    planId: sub.planId,
    costBeforeVatCents: sub.costBeforeVatCents,
    vatHundredths: sub.vatHundredths,
  };
  const before = await extrasDelta(w, terms, p.couponRedemptionId, await extrasOfPayment(w, paymentId));
  await change();
  const extras = await extrasOfPayment(w, paymentId);
  const after = await extrasDelta(w, terms, p.couponRedemptionId, extras);
  for (const e of extras)
    await w.tx
      .update(oneOffCharges)
      .set({ amountDueCents: await extrasDelta(w, terms, p.couponRedemptionId, [e]) })
      .where(and(eq(oneOffCharges.tenantId, w.tenantId), eq(oneOffCharges.id, e.id)));
  if (after === before) return;
  await w.tx
    .update(payments)
    .set({ amountDueCents: p.amountDueCents - before + after })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  await w.tx
    .update(paymentTokens)
    .set({ status: PaymentTokenStatus.Expired })
    .where(
      and(
        eq(paymentTokens.tenantId, w.tenantId),
        eq(paymentTokens.paymentId, paymentId),
        eq(paymentTokens.status, PaymentTokenStatus.Active),
      ),
    );
}

/**
 * A period's payment just made (a bank-transfer renewal, a provider's renewal charge) takes the
 * subscription's pending 'Con il prossimo pagamento' charges: their lines join the period's on its
 * one invoice and its amount becomes the document's net to pay with them. Called in the unit that
 * made the payment, before it is paid.
 */
export async function attachNextCharges(w: UnitOfWork, subscriptionId: number, paymentId: number) {
  const waiting = await w.tx
    .select({ id: oneOffCharges.id })
    .from(oneOffCharges)
    .where(
      and(
        eq(oneOffCharges.tenantId, w.tenantId),
        eq(oneOffCharges.subscriptionId, subscriptionId),
        eq(oneOffCharges.collect, 'nextPayment'),
        eq(oneOffCharges.status, 'pending'),
        isNull(oneOffCharges.paymentId),
      ),
    )
    .for('update');
  if (waiting.length === 0) return;
  await repriceWith(w, paymentId, async () => {
    await w.tx
      .update(oneOffCharges)
      .set({ paymentId })
      .where(
        and(
          eq(oneOffCharges.tenantId, w.tenantId),
          inArray(
            oneOffCharges.id,
            waiting.map((c) => c.id),
          ),
        ),
      );
  });
}

/** The unpaid payment of the period starting at the next billing date, already made (a renewal's), if any. */
async function nextPeriodPayment(w: UnitOfWork, subscriptionId: number, nextBillingDate: Date) {
  const [row] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, w.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        eq(payments.periodStart, nextBillingDate),
        isNull(payments.paidAt),
        isNull(payments.planChangeId),
        isNull(payments.oneOffChargeId),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(1);
  return row ?? null;
}

export async function createOneOffCharge(
  w: UnitOfWork,
  subscriptionId: number,
  body: { description: string; quantity: number; unitPrice: number; collect: OneOffCollect },
): Promise<OneOffCharge> {
  const sub = await findSubscription(w, subscriptionId, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  if (sub.status !== SubscriptionStatus.Active && sub.status !== SubscriptionStatus.ActiveNoRenewal)
    throw new HttpError(409, oneOffMessages.notLive);
  const billing = await periodBilling(w, subscriptionId);
  // PayPal cannot add an amount to a subscription's charge: collected at once, with its own link.
  const collect: OneOffCollect =
    body.collect === 'nextPayment' && billing?.method === 'paypal' ? 'now' : body.collect;
  const [plan] = await w.tx
    .select({ natura: plans.natura })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, sub.planId)));
  const document = await oneOffDocument(w.tx, w.tenantId, sub.userId, {
    description: body.description,
    quantity: body.quantity,
    unitPriceCents: body.unitPrice,
    vat: sub.vatHundredths,
    natura: sub.vatHundredths === 0 && isNatura(plan?.natura) ? plan.natura : null,
  });
  const terms: SubTerms = {
    userId: sub.userId,
    planId: sub.planId,
    costBeforeVatCents: sub.costBeforeVatCents,
    vatHundredths: sub.vatHundredths,
  };
  const line = { description: body.description, quantity: body.quantity, unitPriceCents: body.unitPrice };
  const [charge] = await w.tx
    .insert(oneOffCharges)
    .values({
      tenantId: w.tenantId,
      subscriptionId,
      description: body.description,
      quantity: body.quantity,
      unitPriceCents: body.unitPrice,
      collect,
      amountDueCents: collect === 'now' ? document.netToPayCents : await extrasDelta(w, terms, null, [line]),
      createdAt: w.now,
    })
    .returning();
  if (collect === 'nextPayment') {
    // A renewal payment already made (a bank transfer's, 7 days before) takes it now; else the
    // next one made does (`attachNextCharges`). Stripe adds it to the subscription's next invoice
    // after commit.
    // Not a Stripe subscription's (its overdue period payment is Stripe's own invoice, retried
    // without the item): its charges wait for the renewal's invoice.paid.
    const next =
      billing?.method === 'stripe' ? null : await nextPeriodPayment(w, subscriptionId, sub.nextBillingDate);
    if (next) await attachNextCharges(w, subscriptionId, next.id);
    const [row] = await w.tx
      .select()
      .from(oneOffCharges)
      .where(and(eq(oneOffCharges.tenantId, w.tenantId), eq(oneOffCharges.id, charge!.id)));
    await recordHistory(
      w,
      sub,
      'oneOffCharge',
      `«${body.description}» × ${body.quantity}: ${eur(row!.amountDueCents ?? 0)} € da incassare con il prossimo pagamento`,
    );
    await w.publish('oneOffCharge.created', { chargeId: charge!.id, paymentId: null, subscriptionId });
    return toItem(row!);
  }
  const paymentId = await insertPayment(w, {
    subscriptionId,
    amountDueCents: document.netToPayCents,
    periodStart: w.now,
    periodEnd: w.now,
  });
  const stripeId = billing?.method === 'stripe' ? billing.providerSubscriptionId : null;
  await w.tx
    .update(payments)
    .set({
      oneOffChargeId: charge!.id,
      ...(stripeId ? { method: 'stripe', providerSubscriptionId: stripeId } : {}),
    })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  const [row] = await w.tx
    .update(oneOffCharges)
    .set({ paymentId })
    .where(and(eq(oneOffCharges.tenantId, w.tenantId), eq(oneOffCharges.id, charge!.id)))
    .returning();
  await recordHistory(
    w,
    sub,
    'oneOffCharge',
    `«${body.description}» × ${body.quantity}: ${eur(document.netToPayCents)} € da incassare subito${
      collect !== body.collect ? ' (PayPal non aggiunge importi al rinnovo: ha il suo pagamento)' : ''
    }`,
  );
  // A plan change's residual credit left (issue 30) is set off on this payment too (Stripe would
  // take the customer balance off the one-off invoice anyway); wholly covered, paid by the credit.
  const credit = await setOffExtraPayment(w, sub, paymentId);
  await w.publish('oneOffCharge.created', { chargeId: charge!.id, paymentId, subscriptionId });
  if (credit.used === 0) return toItem(row!);
  const [after] = await w.tx
    .select()
    .from(oneOffCharges)
    .where(and(eq(oneOffCharges.tenantId, w.tenantId), eq(oneOffCharges.id, charge!.id)));
  return toItem(after!);
}

const eur = (cents: number) => fromCents(cents).toFixed(2).replace('.', ',');

/** Deletes a pending charge: it is marked 'deleted' and its unpaid payment removed. */
export async function deleteOneOffCharge(
  w: UnitOfWork,
  subscriptionId: number,
  chargeId: number,
): Promise<void> {
  const sub = await findSubscription(w, subscriptionId, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  const [charge] = await w.tx
    .select()
    .from(oneOffCharges)
    .where(
      and(
        eq(oneOffCharges.tenantId, w.tenantId),
        eq(oneOffCharges.subscriptionId, subscriptionId),
        eq(oneOffCharges.id, chargeId),
      ),
    )
    .for('update');
  if (!charge) throw new HttpError(404, serverMessages.notFound);
  if (charge.status !== 'pending') throw new HttpError(409, oneOffMessages.notPending);
  if (charge.collect === 'nextPayment') {
    // Until its period's payment is made: off the payment (its amount without the charge's lines).
    if (charge.paymentId !== null) {
      const [p] = await w.tx
        .select({ paidAt: payments.paidAt })
        .from(payments)
        .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, charge.paymentId)))
        .for('update');
      if (p?.paidAt) throw new HttpError(409, oneOffMessages.notPending);
      await repriceWith(w, charge.paymentId, async () => {
        await w.tx
          .update(oneOffCharges)
          .set({ status: 'deleted', paymentId: null })
          .where(and(eq(oneOffCharges.tenantId, w.tenantId), eq(oneOffCharges.id, chargeId)));
      });
    } else
      await w.tx
        .update(oneOffCharges)
        .set({ status: 'deleted' })
        .where(and(eq(oneOffCharges.tenantId, w.tenantId), eq(oneOffCharges.id, chargeId)));
    await recordHistory(w, sub, 'oneOffChargeDeleted', `«${charge.description}»`);
    return;
  }
  if (charge.paymentId !== null) {
    const [p] = await w.tx
      .select({ paidAt: payments.paidAt })
      .from(payments)
      .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, charge.paymentId)))
      .for('update');
    if (p?.paidAt) throw new HttpError(409, oneOffMessages.notPending);
  }
  await w.tx
    .update(oneOffCharges)
    .set({ status: 'deleted', paymentId: null })
    .where(and(eq(oneOffCharges.tenantId, w.tenantId), eq(oneOffCharges.id, chargeId)));
  if (charge.paymentId !== null)
    await w.tx
      .delete(payments)
      .where(
        and(eq(payments.tenantId, w.tenantId), eq(payments.id, charge.paymentId), isNull(payments.paidAt)),
      );
  await recordHistory(w, sub, 'oneOffChargeDeleted', `«${charge.description}»`);
}

/** Billing's consumers: the charge paid with its payment; a Stripe subscription charged after commit. */
export function subscribeOneOffCharges(
  events: EventBus,
  deps: () => Pick<ProviderDeps, 'providers' | 'connectionFor'>,
): void {
  events.subscribe('payment.paid', {
    name: 'oneOffCharge.paid',
    phase: 'inTransaction',
    handle: async (w, { paymentId }) => {
      const done = await w.tx
        .update(oneOffCharges)
        .set({ status: 'paid', paidAt: w.now })
        .where(
          and(
            eq(oneOffCharges.tenantId, w.tenantId),
            eq(oneOffCharges.paymentId, paymentId),
            eq(oneOffCharges.status, 'pending'),
          ),
        )
        .returning({ id: oneOffCharges.id });
      if (done.length > 0)
        return { outcome: 'applied' as const, detail: `addebito una tantum ${done[0]!.id} pagato` };
    },
  });
  events.subscribe('oneOffCharge.created', {
    name: 'billing.oneOffStripeCharge',
    phase: 'afterCommit',
    handle: async ({ tenantId, payload }) => {
      const d = deps();
      if (payload.paymentId === null) return addToStripeRenewal(d, tenantId, payload.chargeId);
      const [row] = await d
        .connectionFor(tenantId)
        .select({
          amountDueCents: payments.amountDueCents,
          paidAt: payments.paidAt,
          method: payments.method,
          providerSubscriptionId: payments.providerSubscriptionId,
          description: oneOffCharges.description,
        })
        .from(payments)
        .innerJoin(
          oneOffCharges,
          and(eq(oneOffCharges.tenantId, payments.tenantId), eq(oneOffCharges.paymentId, payments.id)),
        )
        .where(and(eq(payments.tenantId, tenantId), eq(payments.id, payload.paymentId)))
        .orderBy(asc(payments.id));
      if (!row || row.method !== 'stripe' || !row.providerSubscriptionId) return;
      // The residual credit this payment set off (issue 30) is on the Stripe customer's balance.
      const used = await creditUsedBy({ tenantId, tx: d.connectionFor(tenantId) }, payload.paymentId);
      if (row.paidAt) {
        // Paid by the credit in Rinnova (no Stripe invoice): Stripe's balance gives back what was
        // used, so it does not take it again from the next invoice (keyed by the payment: once).
        if (used === 0 || row.amountDueCents > 0) return;
        // The credit itself reaches Stripe first (its own outbox row may still be retrying).
        await ensureCreditsAtStripe(d, tenantId, payload.subscriptionId, row.providerSubscriptionId);
        const { adapter } = await d.providers.stripe(tenantId);
        await adapter.creditCustomerBalance({
          subscriptionId: row.providerSubscriptionId,
          amountCents: -used,
          description: `Credito residuo usato: addebito una tantum «${row.description}»`,
          metadata: { rinnovaTenantId: String(tenantId), rinnovaPaymentId: String(payload.paymentId) },
          idempotencyKey: `rinnova-credit-used-${tenantId}-${payload.paymentId}`,
        });
        return;
      }
      if (row.amountDueCents <= 0) return;
      // The item is the whole amount: Stripe takes the balance off the invoice, so it charges
      // exactly what the payment asks (its invoice.paid is recorded for that amount only). So the
      // credit must be on Stripe's balance before the charge: a plan change's credit whose own
      // outbox row has not reached Stripe yet is put there now (the same keyed call); if that
      // fails this row fails too and is retried, and Stripe charges nothing meanwhile.
      await ensureCreditsAtStripe(d, tenantId, payload.subscriptionId, row.providerSubscriptionId);
      const { adapter } = await d.providers.stripe(tenantId);
      await adapter.chargeOnce({
        subscriptionId: row.providerSubscriptionId,
        amountCents: row.amountDueCents + used,
        description: `Addebito una tantum: «${row.description}»`,
        metadata: { rinnovaTenantId: String(tenantId), rinnovaPaymentId: String(payload.paymentId) },
        idempotencyKey: `rinnova-oneoff-${tenantId}-${payload.paymentId}`,
      });
    },
  });
}

/**
 * A 'Con il prossimo pagamento' charge of a Stripe subscription (after commit): an invoice item on
 * the subscription (`subscription` set, so Stripe puts it on that subscription's next invoice, the
 * renewal) of what the charge adds to the period's document, keyed by the charge (an outbox retry
 * adds it once). The renewal's `invoice.paid` then records the period's payment with the charge's
 * lines (`attachNextCharges` in `recordCharge`). Nothing for a charge paid, deleted or attached.
 */
async function addToStripeRenewal(
  d: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  chargeId: number,
): Promise<void> {
  const db = d.connectionFor(tenantId);
  const [charge] = await db
    .select()
    .from(oneOffCharges)
    .where(and(eq(oneOffCharges.tenantId, tenantId), eq(oneOffCharges.id, chargeId)));
  if (!charge || charge.status !== 'pending' || charge.paymentId !== null || !charge.amountDueCents) return;
  const billing = await periodBilling({ tenantId, tx: db }, charge.subscriptionId);
  if (billing?.method !== 'stripe' || !billing.providerSubscriptionId) return;
  const { adapter } = await d.providers.stripe(tenantId);
  await adapter.addToNextInvoice({
    subscriptionId: billing.providerSubscriptionId,
    amountCents: charge.amountDueCents,
    description: `Addebito una tantum: «${charge.description}» × ${charge.quantity}`,
    metadata: { rinnovaTenantId: String(tenantId), rinnovaChargeId: String(chargeId) },
    idempotencyKey: `rinnova-oneoff-next-${tenantId}-${chargeId}`,
  });
}

/**
 * Before deleting a pending 'Con il prossimo pagamento' charge of a Stripe subscription, outside the
 * unit: its invoice item still pending at Stripe is deleted (found by `metadata.rinnovaChargeId`),
 * so the renewal does not charge it. A Stripe failure throws (502) and nothing changes in Rinnova;
 * no item (not made yet, or gone) is nothing to do. Anything else is left to the unit's 404/409.
 */
export async function removeNextChargeAtStripe(
  d: Pick<ProviderDeps, 'providers' | 'connectionFor'>,
  tenantId: number,
  subscriptionId: number,
  chargeId: number,
): Promise<void> {
  const db = d.connectionFor(tenantId);
  const [charge] = await db
    .select()
    .from(oneOffCharges)
    .where(
      and(
        eq(oneOffCharges.tenantId, tenantId),
        eq(oneOffCharges.subscriptionId, subscriptionId),
        eq(oneOffCharges.id, chargeId),
      ),
    );
  if (!charge || charge.collect !== 'nextPayment' || charge.status !== 'pending' || charge.paymentId !== null)
    return;
  const billing = await periodBilling({ tenantId, tx: db }, subscriptionId);
  if (billing?.method !== 'stripe' || !billing.providerSubscriptionId) return;
  const { adapter } = await d.providers.stripe(tenantId);
  await adapter.removeFromNextInvoice(billing.providerSubscriptionId, { rinnovaChargeId: String(chargeId) });
}
