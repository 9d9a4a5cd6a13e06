/**
 * Outbound webhooks. A change that an endpoint subscribed to writes one delivery per endpoint in
 * the SAME unit of work (`emitWebhook`): a rolled-back change leaves none. After commit the unit
 * signals 'webhooks' and the job engine runs `deliverDue`, which claims due deliveries (a lease,
 * so two workers never send one at once), POSTs the body signed with the endpoint's secret
 * (`Rinnova-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${body}`)>`), and logs
 * the attempt. A failure is retried after 1, 4, 16, 64, 256 minutes and then every 8 hours, for
 * 24 hours from the event; then the delivery fails and the endpoint is disabled, its Admins told
 * by e-mail (outbox). Every POST goes through the outbound door (lib/outbound): in production a
 * target on a private, loopback or link-local address, in any spelling, is refused when the URL is
 * saved and again on the socket's real remote address at each delivery; redirects are not followed.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Role } from '../../../contract/enums';
import {
  SIGNATURE_HEADER,
  type WebhookAttemptItem,
  type WebhookDeliveryItem,
  type WebhookEndpointCreated,
  type WebhookEndpointItem,
  type WebhookEventType,
} from '../../../contract/integrations';
import { integrationMessages as m, serverMessages } from '../../../contract/messages';
import { subscriptionStatusNames } from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import {
  bankTransfers,
  payments,
  plans,
  subscriptions,
  tenants,
  users,
  userTenants,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { hostRefusal, isOutboundRefused, type Outbound } from '../../lib/outbound';
import type { SecretBox } from '../../lib/secret-box';
import { webhookDisabledMail } from '../../mail/templates';
import type { UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';

export const WEBHOOK_SIGNAL = 'webhooks';
export const WEBHOOK_JOB = 'webhook-deliveries';
const HOUR = 3_600_000;
export const GIVE_UP_AFTER_MS = 24 * HOUR;
const LEASE_MS = 5 * 60_000;
const BATCH = 25;

/** Delay before the next try after `attempts` failed tries: 1, 4, 16, 64, 256 minutes, then 8 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 4 ** Math.max(0, attempts - 1), 8 * HOUR);
}

/** The signature header's value for a body sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

// ---------------------------------------------------------------- the URL (checked again at connect time)

/**
 * 400 field errors for an endpoint URL: http(s), no credentials; with the outbound guard on
 * (production) https and no host that names this machine or a private network in any spelling
 * (the host as the URL parser reads it: `[::ffff:a9fe:a9fe]`, `0x7f000001` → 127.0.0.1). A name
 * is checked again on every delivery, on the socket's real remote address (lib/outbound).
 */
export function checkEndpointUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fieldError('url', m.urlInvalid);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
    throw fieldError('url', m.urlInvalid);
  if (!allowPrivate) {
    if (url.protocol !== 'https:') throw fieldError('url', m.urlHttpsRequired);
    if (hostRefusal(url.hostname) !== null) throw fieldError('url', m.urlPrivate);
  }
  return url;
}

function fieldError(field: string, message: string) {
  return new HttpError(400, serverMessages.validation, { errors: [`${field}: ${message}`] });
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One POST through the outbound door with a timeout; never throws. Redirects are not followed
 * (a 3xx is a failure); the answer's body is read up to 64 KiB and dropped.
 */
export async function postJson(
  outbound: Outbound,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const target = new URL(url);
    // Refused at once when the literal says so: no connection is tried.
    if (outbound.guard && hostRefusal(target.hostname) !== null) return done(null, m.urlPrivate);
  } catch {
    return done(null, m.urlInvalid);
  }
  try {
    const res = await outbound.request(url, {
      method: 'POST',
      headers,
      body,
      timeoutMs,
      maxResponseBytes: 65_536,
    });
    return done(res.status, null);
  } catch (error) {
    if (isOutboundRefused(error)) return done(null, m.urlPrivate);
    return done(null, (error as Error).message.slice(0, 300));
  }
}

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
    })
    .from(subscriptions)
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, subscriptionId)));
  if (!row) return { subscription: { id: subscriptionId } };
  return {
    subscription: {
      ...row,
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

// ---------------------------------------------------------------- endpoints (the /webhook screen)

type EndpointRow = typeof webhookEndpoints.$inferSelect;

function endpointItem(row: EndpointRow): WebhookEndpointItem {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    secretHint: `whsec_…${row.secretLastFour}`,
    isEnabled: row.isEnabled,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    consecutiveFailures: row.consecutiveFailures,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface EndpointInput {
  url: string;
  description?: string | null;
  events: WebhookEventType[];
}

export async function listEndpoints(db: Database, tenantId: number): Promise<WebhookEndpointItem[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.tenantId, tenantId))
    .orderBy(asc(webhookEndpoints.id));
  return rows.map(endpointItem);
}

export async function getEndpoint(db: Database, tenantId: number, id: number): Promise<WebhookEndpointItem> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)));
  if (!row) throw new HttpError(404, serverMessages.notFound);
  return endpointItem(row);
}

export async function createEndpoint(
  w: UnitOfWork,
  input: EndpointInput,
  deps: { secretBox: SecretBox; allowPrivate: boolean },
): Promise<WebhookEndpointCreated> {
  const url = checkEndpointUrl(input.url, deps.allowPrivate);
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  // The row's id first: the secret is sealed to it (lib/secret-box.ts).
  const result = await w.tx.execute<{ id: string | number }>(
    sql`select nextval(pg_get_serial_sequence('webhook_endpoints', 'id')) as id`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { id: string | number }[] }).rows) as {
    id: string | number;
  }[];
  const next = { id: Number(rows[0]?.id) };
  if (!Number.isSafeInteger(next.id)) throw new Error('webhook endpoint id not allocated');
  const [row] = await w.tx
    .insert(webhookEndpoints)
    .values({
      id: next.id,
      tenantId: w.tenantId,
      url: url.toString(),
      description: input.description ?? null,
      events: [...new Set(input.events)],
      secretEncrypted: deps.secretBox.seal(secret, 'webhook_endpoints.secret_encrypted', next.id),
      secretLastFour: secret.slice(-4),
      createdAt: w.now,
      updatedAt: w.now,
    })
    .returning();
  if (!row) throw new Error('webhook endpoint insert returned no row');
  return { ...endpointItem(row), secret };
}

export async function updateEndpoint(
  w: UnitOfWork,
  id: number,
  input: EndpointInput & { isEnabled?: boolean },
  deps: { allowPrivate: boolean },
): Promise<WebhookEndpointItem> {
  const url = checkEndpointUrl(input.url, deps.allowPrivate);
  const enable = input.isEnabled;
  const [row] = await w.tx
    .update(webhookEndpoints)
    .set({
      url: url.toString(),
      description: input.description ?? null,
      events: [...new Set(input.events)],
      updatedAt: w.now,
      ...(enable === true
        ? { isEnabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0 }
        : {}),
      ...(enable === false
        ? { isEnabled: false, disabledAt: w.now, disabledReason: 'Disattivato a mano' }
        : {}),
    })
    .where(and(eq(webhookEndpoints.tenantId, w.tenantId), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw new HttpError(404, serverMessages.notFound);
  return endpointItem(row);
}

export async function deleteEndpoint(w: UnitOfWork, id: number): Promise<void> {
  const rows = await w.tx
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, w.tenantId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw new HttpError(404, serverMessages.notFound);
}

export async function listDeliveries(
  db: Database,
  tenantId: number,
  endpointId: number,
  limit: number,
): Promise<WebhookDeliveryItem[]> {
  await getEndpoint(db, tenantId, endpointId);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.endpointId, endpointId)))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          and(
            eq(webhookAttempts.tenantId, tenantId),
            inArray(
              webhookAttempts.deliveryId,
              rows.map((r) => r.id),
            ),
          ),
        )
        .orderBy(asc(webhookAttempts.id))
    : [];
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpointId,
    eventId: r.eventId,
    eventType: r.eventType,
    status: r.status as WebhookDeliveryItem['status'],
    attempts: r.attempts,
    nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
    lastStatusCode: r.lastStatusCode,
    createdAt: r.createdAt.toISOString(),
    attemptList: attempts
      .filter((a) => a.deliveryId === r.id)
      .map((a): WebhookAttemptItem => ({
        id: a.id,
        at: a.at.toISOString(),
        statusCode: a.statusCode,
        error: a.error,
        durationMs: a.durationMs,
        succeeded: a.succeeded,
        manual: a.manual,
      })),
  }));
}

// ---------------------------------------------------------------- sending (the job)

export interface WebhookSenderOptions {
  db: Database;
  uow: UnitOfWorkRunner;
  secretBox: SecretBox;
  timeoutMs: number;
  /** The door every delivery goes through. */
  outbound: Outbound;
  log: FastifyBaseLogger;
}

export interface WebhookSender {
  /** Sends every due delivery (claimed with a lease); answers how many were tried. */
  deliverDue(): Promise<{ tried: number; succeeded: number }>;
  /** Sends one delivery now, whatever its state (the 'Reinvia' button); the attempt is logged. */
  resend(tenantId: number, deliveryId: number): Promise<WebhookAttemptItem>;
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { db, uow, secretBox, timeoutMs, outbound, log } = options;

  async function send(delivery: DeliveryRow, endpoint: EndpointRow, now: Date): Promise<SendResult> {
    const secret = secretBox.open(
      endpoint.secretEncrypted,
      'webhook_endpoints.secret_encrypted',
      endpoint.id,
    );
    if (!secret)
      return {
        statusCode: null,
        error: 'segreto di firma illeggibile (chiave di cifratura cambiata)',
        durationMs: 0,
      };
    const timestamp = Math.floor(now.getTime() / 1000);
    return postJson(
      outbound,
      endpoint.url,
      delivery.body,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'Rinnova-Webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, delivery.body),
        'Rinnova-Event': delivery.eventType,
        'Rinnova-Delivery': delivery.eventId,
      },
      timeoutMs,
    );
  }

  /** Records an attempt and moves the delivery on; the endpoint is disabled after 24 hours of failures. */
  async function record(delivery: DeliveryRow, endpoint: EndpointRow, result: SendResult, manual: boolean) {
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    return uow.run(
      { tenantId: delivery.tenantId, actor: { kind: 'system', job: WEBHOOK_JOB } },
      async (w) => {
        const [attempt] = await w.tx
          .insert(webhookAttempts)
          .values({
            tenantId: w.tenantId,
            deliveryId: delivery.id,
            at: w.now,
            statusCode: result.statusCode,
            error: result.error ?? (succeeded ? null : `HTTP ${result.statusCode ?? '—'}`),
            durationMs: result.durationMs,
            succeeded,
            manual,
          })
          .returning();
        const attempts = delivery.attempts + 1;
        let status: DeliveryRow['status'] = 'succeeded';
        let next: Date | null = null;
        if (!succeeded) {
          next = new Date(w.now.getTime() + retryDelayMs(attempts));
          const giveUp = next.getTime() > delivery.createdAt.getTime() + GIVE_UP_AFTER_MS;
          // A manual re-send of a finished delivery does not reopen its schedule.
          status = manual && delivery.status !== 'pending' ? delivery.status : giveUp ? 'failed' : 'pending';
          if (status !== 'pending') next = null;
        }
        await w.tx
          .update(webhookDeliveries)
          .set({
            status,
            attempts,
            nextAttemptAt: next,
            leaseUntil: null,
            lastAttemptAt: w.now,
            lastStatusCode: result.statusCode,
          })
          .where(and(eq(webhookDeliveries.tenantId, w.tenantId), eq(webhookDeliveries.id, delivery.id)));
        if (succeeded) {
          await w.tx
            .update(webhookEndpoints)
            .set({ consecutiveFailures: 0 })
            .where(and(eq(webhookEndpoints.tenantId, w.tenantId), eq(webhookEndpoints.id, endpoint.id)));
        } else {
          const [ep] = await w.tx
            .update(webhookEndpoints)
            .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
            .where(and(eq(webhookEndpoints.tenantId, w.tenantId), eq(webhookEndpoints.id, endpoint.id)))
            .returning({ isEnabled: webhookEndpoints.isEnabled });
          if (!manual && status === 'failed' && ep?.isEnabled) await disableEndpoint(w, endpoint);
        }
        if (!attempt) throw new Error('attempt insert returned no row');
        return attempt;
      },
    );
  }

  async function disableEndpoint(w: UnitOfWork, endpoint: EndpointRow) {
    await w.tx
      .update(webhookEndpoints)
      .set({ isEnabled: false, disabledAt: w.now, disabledReason: 'Consegne non riuscite per 24 ore' })
      .where(and(eq(webhookEndpoints.tenantId, w.tenantId), eq(webhookEndpoints.id, endpoint.id)));
    const [tenant] = await w.tx
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, w.tenantId));
    const admins = await w.tx
      .select({ email: users.email })
      .from(users)
      .innerJoin(userTenants, and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, w.tenantId)))
      .where(and(eq(users.roleId, Role.Admin), eq(users.isActive, true), eq(userTenants.isActive, true)));
    for (const admin of admins)
      await w.outbox.email(
        webhookDisabledMail(admin.email, { tenantName: tenant?.name ?? '', url: endpoint.url }),
      );
    log.warn(
      { tenantId: w.tenantId, endpointId: endpoint.id },
      'webhook: endpoint disattivato dopo 24 ore di errori',
    );
  }

  async function claim(now: Date): Promise<DeliveryRow[]> {
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const due = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(
        webhookEndpoints,
        and(
          eq(webhookEndpoints.id, webhookDeliveries.endpointId),
          eq(webhookEndpoints.tenantId, webhookDeliveries.tenantId),
        ),
      )
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now)),
          eq(webhookEndpoints.isEnabled, true),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
      .limit(BATCH)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    const rows = await db
      .update(webhookDeliveries)
      .set({ leaseUntil })
      .where(inArray(webhookDeliveries.id, due))
      .returning();
    // In the order the events happened.
    return rows.sort(
      (a, b) => (a.nextAttemptAt?.getTime() ?? 0) - (b.nextAttemptAt?.getTime() ?? 0) || a.id - b.id,
    );
  }

  async function endpointOf(delivery: DeliveryRow): Promise<EndpointRow | undefined> {
    const [row] = await db
      .select()
      .from(webhookEndpoints)
      .where(
        and(eq(webhookEndpoints.tenantId, delivery.tenantId), eq(webhookEndpoints.id, delivery.endpointId)),
      );
    return row;
  }

  return {
    async deliverDue() {
      let tried = 0;
      let succeeded = 0;
      for (;;) {
        const claimed = await claim(uow.clock());
        if (claimed.length === 0) break;
        for (const delivery of claimed) {
          const endpoint = await endpointOf(delivery);
          if (!endpoint) continue;
          const result = await send(delivery, endpoint, uow.clock());
          const attempt = await record(delivery, endpoint, result, false);
          tried++;
          if (attempt.succeeded) succeeded++;
        }
        if (claimed.length < BATCH) break;
      }
      return { tried, succeeded };
    },

    async resend(tenantId, deliveryId) {
      const [delivery] = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, deliveryId)));
      if (!delivery) throw new HttpError(404, serverMessages.notFound);
      const endpoint = await endpointOf(delivery);
      if (!endpoint) throw new HttpError(404, serverMessages.notFound);
      const result = await send(delivery, endpoint, uow.clock());
      const attempt = await record(delivery, endpoint, result, true);
      // A pending delivery that a manual re-send delivered is done too.
      return {
        id: attempt.id,
        at: attempt.at.toISOString(),
        statusCode: attempt.statusCode,
        error: attempt.error,
        durationMs: attempt.durationMs,
        succeeded: attempt.succeeded,
        manual: true,
      };
    },
  };
}
