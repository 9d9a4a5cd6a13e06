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
 * 'Con il prossimo pagamento' is not built yet (400 on `collect`).
 */
import { and, asc, desc, eq, isNotNull, isNull } from 'drizzle-orm';
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
import { oneOffDocument } from '../../db/fiscal-profiles';
import { oneOffCharges, payments, plans } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { EventBus } from '../../unit-of-work/events';
import type { TenantScope, UnitOfWork } from '../../unit-of-work/unit-of-work';
import { findSubscription } from './billing.repository';
import type { ProviderDeps } from './provider-payments';
import { insertPayment, recordHistory } from './subscription.service';

function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, serverMessages.validation, { errors: [`${field}: ${message}`] });
}

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

/** The provider subscription that charges the periods (of the latest paid period payment), if Stripe. */
async function stripeOf(w: UnitOfWork, subscriptionId: number) {
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
  return row?.method === 'stripe' && row.providerSubscriptionId ? row.providerSubscriptionId : null;
}

export async function createOneOffCharge(
  w: UnitOfWork,
  subscriptionId: number,
  body: { description: string; quantity: number; unitPrice: number; collect: OneOffCollect },
): Promise<OneOffCharge> {
  const sub = await findSubscription(w, subscriptionId, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  if (body.collect === 'nextPayment') throw fieldError('collect', oneOffMessages.nextPaymentNotYet);
  if (sub.status !== SubscriptionStatus.Active && sub.status !== SubscriptionStatus.ActiveNoRenewal)
    throw new HttpError(409, oneOffMessages.notLive);
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
  const [charge] = await w.tx
    .insert(oneOffCharges)
    .values({
      tenantId: w.tenantId,
      subscriptionId,
      description: body.description,
      quantity: body.quantity,
      unitPriceCents: body.unitPrice,
      collect: body.collect,
      amountDueCents: document.netToPayCents,
      createdAt: w.now,
    })
    .returning();
  const paymentId = await insertPayment(w, {
    subscriptionId,
    amountDueCents: document.netToPayCents,
    periodStart: w.now,
    periodEnd: w.now,
  });
  const stripeId = await stripeOf(w, subscriptionId);
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
    `«${body.description}» × ${body.quantity}: ${fromCents(document.netToPayCents).toFixed(2).replace('.', ',')} € da incassare subito`,
  );
  await w.publish('oneOffCharge.created', { chargeId: charge!.id, paymentId, subscriptionId });
  return toItem(row!);
}

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
      if (
        !row ||
        row.paidAt ||
        row.method !== 'stripe' ||
        !row.providerSubscriptionId ||
        row.amountDueCents <= 0
      )
        return;
      const { adapter } = await d.providers.stripe(tenantId);
      await adapter.chargeOnce({
        subscriptionId: row.providerSubscriptionId,
        amountCents: row.amountDueCents,
        description: `Addebito una tantum: «${row.description}»`,
        metadata: { rinnovaTenantId: String(tenantId), rinnovaPaymentId: String(payload.paymentId) },
        idempotencyKey: `rinnova-oneoff-${tenantId}-${payload.paymentId}`,
      });
    },
  });
}
