/**
 * Outbound webhooks: a change that an endpoint subscribed to writes one delivery per endpoint in
 * the SAME unit of work (`emitWebhook`): a rolled-back change leaves none; the unit signals
 * 'webhooks' and the delivery job sends them after commit (webhook-sender.ts).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { type WebhookEventType } from '../../../contract/integrations';
import { subscriptionStatusNames } from '../../../contract/subscription-status';
import {
  bankTransfers,
  payments,
  plans,
  subscriptions,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';

import { WEBHOOK_SIGNAL } from './webhook-transport';

// ---------------------------------------------------------------- emit (inside the unit of work)

/**
 * Writes a delivery of this event for every enabled endpoint of the tenant that wants it, in the
 * unit's transaction; they are sent after commit.
 */
export async function emitWebhook(
  w: UnitOfWork,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  const endpoints = await w.tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.tenantId, w.tenantId),
        eq(webhookEndpoints.isEnabled, true),
        sql`${type} = any(${webhookEndpoints.events})`,
      ),
    );
  if (endpoints.length === 0) return;
  const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
  const body = JSON.stringify({ id: eventId, type, createdAt: w.now.toISOString(), data });
  await w.tx.insert(webhookDeliveries).values(
    endpoints.map((e) => ({
      tenantId: w.tenantId,
      endpointId: e.id,
      eventId,
      eventType: type,
      body,
      status: 'pending',
      nextAttemptAt: w.now,
      createdAt: w.now,
    })),
  );
  w.signal(WEBHOOK_SIGNAL);
}

/** The subscription as events carry it. */
export async function subscriptionEventData(
  w: UnitOfWork,
  subscriptionId: number,
): Promise<Record<string, unknown>> {
  const [row] = await w.tx
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      planId: subscriptions.planId,
      planName: plans.name,
      customerId: subscriptions.userId,
      customerEmail: users.email,
      startDate: subscriptions.startDate,
      nextBillingDate: subscriptions.nextBillingDate,
      amountDueCents: subscriptions.amountDueCents,
      currency: subscriptions.currency,
      pauseFrom: subscriptions.pauseFrom,
      pausedUntil: subscriptions.pausedUntil,
      pauseEntitlements: subscriptions.pauseEntitlements,
    })
    .from(subscriptions)
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, subscriptionId)));
  if (!row) return { subscription: { id: subscriptionId } };
  const { pauseFrom, pausedUntil, pauseEntitlements, ...rest } = row;
  return {
    subscription: {
      ...rest,
      // Issue 30: the pause of collection, or null.
      pause:
        pauseFrom && pausedUntil
          ? {
              from: pauseFrom.toISOString(),
              until: pausedUntil.toISOString(),
              entitlements: pauseEntitlements,
            }
          : null,
      status:
        subscriptionStatusNames[row.status as keyof typeof subscriptionStatusNames] ?? String(row.status),
      startDate: row.startDate.toISOString(),
      nextBillingDate: row.nextBillingDate.toISOString(),
    },
  };
}

export async function emitSubscriptionEvent(w: UnitOfWork, type: WebhookEventType, subscriptionId: number) {
  if (!(await hasSubscribers(w, type))) return;
  await emitWebhook(w, type, await subscriptionEventData(w, subscriptionId));
}

export async function emitPaymentSucceeded(w: UnitOfWork, paymentId: number) {
  if (!(await hasSubscribers(w, 'payment.succeeded'))) return;
  const [p] = await w.tx
    .select({
      id: payments.id,
      subscriptionId: payments.subscriptionId,
      amountDueCents: payments.amountDueCents,
      currency: payments.currency,
      method: payments.method,
      causale: payments.causale,
      periodStart: payments.periodStart,
      periodEnd: payments.periodEnd,
      paidAt: payments.paidAt,
    })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  if (!p) return;
  await emitWebhook(w, 'payment.succeeded', {
    payment: {
      ...p,
      periodStart: p.periodStart.toISOString(),
      periodEnd: p.periodEnd.toISOString(),
      paidAt: p.paidAt?.toISOString() ?? null,
    },
  });
}

export async function emitBankTransferApproved(w: UnitOfWork, bankTransferId: number) {
  if (!(await hasSubscribers(w, 'bank_transfer.approved'))) return;
  const [t] = await w.tx
    .select({
      id: bankTransfers.id,
      paymentId: bankTransfers.paymentId,
      subscriptionId: payments.subscriptionId,
      amountCents: bankTransfers.amountCents,
      currency: bankTransfers.currency,
      approvalDate: bankTransfers.approvalDate,
    })
    .from(bankTransfers)
    .innerJoin(
      payments,
      and(eq(payments.id, bankTransfers.paymentId), eq(payments.tenantId, bankTransfers.tenantId)),
    )
    .where(and(eq(bankTransfers.tenantId, w.tenantId), eq(bankTransfers.id, bankTransferId)));
  if (!t) return;
  await emitWebhook(w, 'bank_transfer.approved', {
    bankTransfer: { ...t, approvalDate: t.approvalDate?.toISOString() ?? null },
  });
}

/** Most tenants have no endpoint: one indexed read and nothing else. */
async function hasSubscribers(w: UnitOfWork, type: WebhookEventType): Promise<boolean> {
  const [row] = await w.tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.tenantId, w.tenantId),
        eq(webhookEndpoints.isEnabled, true),
        sql`${type} = any(${webhookEndpoints.events})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
