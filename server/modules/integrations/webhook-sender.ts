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
 * Endpoints, deliveries and attempts live in the tenant's database (its own, or the control
 * database for a tenant still there): `deliverDue` claims in every one of them.
 */

import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Role } from '../../../contract/enums';
import { SIGNATURE_HEADER, type WebhookAttemptItem } from '../../../contract/integrations';
import { serverMessages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import {
  tenants,
  users,
  userTenants,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema';
import { forEveryDatabase } from '../../db/tenancy/every-database';
import { HttpError } from '../../lib/http-error';
import type { Outbound } from '../../lib/outbound';
import type { SecretBox } from '../../lib/secret-box';
import { webhookDisabledMail } from '../../mail/templates';
import type { UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';

import {
  WEBHOOK_JOB,
  GIVE_UP_AFTER_MS,
  retryDelayMs,
  signatureHeader,
  type SendResult,
  postJson,
} from './webhook-transport';

// ---------------------------------------------------------------- sending (the job)

/** How long a claimed delivery is this worker's; how many are claimed at once. */
const LEASE_MS = 5 * 60_000;
const BATCH = 25;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

export interface WebhookSenderOptions {
  /** The control database: the tenants' Admins (the disabled-endpoint e-mail), tenants still there. */
  db: Database;
  /** The tenant's database: its endpoints, deliveries and attempts. */
  connectionFor: (tenantId: number) => Database;
  /** The tenants' own databases, swept for due deliveries too (db/tenancy); absent: control only. */
  tenantDatabases?: () => Promise<Database[]>;
  uow: UnitOfWorkRunner;
  secretBox: SecretBox;
  timeoutMs: number;
  /** The door every delivery goes through. */
  outbound: Outbound;
  log: FastifyBaseLogger;
}

export interface WebhookSender {
  /**
   * Sends every due delivery (claimed with a lease) in every database, or only the given tenant's
   * (after a commit of its unit); answers how many were tried.
   */
  deliverDue(options?: { tenantId?: number }): Promise<{ tried: number; succeeded: number }>;
  /** Sends one delivery now, whatever its state (the 'Reinvia' button); the attempt is logged. */
  resend(tenantId: number, deliveryId: number): Promise<WebhookAttemptItem>;
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
interface Contacts {
  tenantName: string;
  admins: { email: string }[];
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { db, connectionFor, uow, secretBox, timeoutMs, outbound, log } = options;

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
    // Whom to tell if this failure disables the endpoint: read from the control database before
    // the unit (on the embedded database its one session is the unit's while it runs).
    const contacts = succeeded || manual ? null : await adminsOf(delivery.tenantId);
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
          if (contacts && status === 'failed' && ep?.isEnabled) await disableEndpoint(w, endpoint, contacts);
        }
        if (!attempt) throw new Error('attempt insert returned no row');
        return attempt;
      },
    );
  }

  /** The tenant's name and its active Admins' e-mails: the control database's (identities, memberships). */
  async function adminsOf(tenantId: number): Promise<Contacts> {
    const [tenant] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
    const admins = await db
      .select({ email: users.email })
      .from(users)
      .innerJoin(userTenants, and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, tenantId)))
      .where(and(eq(users.roleId, Role.Admin), eq(users.isActive, true), eq(userTenants.isActive, true)));
    return { tenantName: tenant?.name ?? '', admins };
  }

  async function disableEndpoint(w: UnitOfWork, endpoint: EndpointRow, contacts: Contacts) {
    await w.tx
      .update(webhookEndpoints)
      .set({ isEnabled: false, disabledAt: w.now, disabledReason: 'Consegne non riuscite per 24 ore' })
      .where(and(eq(webhookEndpoints.tenantId, w.tenantId), eq(webhookEndpoints.id, endpoint.id)));
    const { tenantName, admins } = contacts;
    for (const admin of admins)
      await w.outbox.email(webhookDisabledMail(admin.email, { tenantName, url: endpoint.url }));
    log.warn(
      { tenantId: w.tenantId, endpointId: endpoint.id },
      'webhook: endpoint disattivato dopo 24 ore di errori',
    );
  }

  /** Claims due deliveries in one database (the control database, or a tenant's own). */
  async function claim(database: Database, now: Date, tenantId?: number): Promise<DeliveryRow[]> {
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const due = database
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
          tenantId === undefined ? undefined : eq(webhookDeliveries.tenantId, tenantId),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
      .limit(BATCH)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    const rows = await database
      .update(webhookDeliveries)
      .set({ leaseUntil })
      .where(inArray(webhookDeliveries.id, due))
      .returning();
    // In the order the events happened.
    return rows.sort(
      (a, b) => (a.nextAttemptAt?.getTime() ?? 0) - (b.nextAttemptAt?.getTime() ?? 0) || a.id - b.id,
    );
  }

  async function endpointOf(database: Database, delivery: DeliveryRow): Promise<EndpointRow | undefined> {
    const [row] = await database
      .select()
      .from(webhookEndpoints)
      .where(
        and(eq(webhookEndpoints.tenantId, delivery.tenantId), eq(webhookEndpoints.id, delivery.endpointId)),
      );
    return row;
  }

  return {
    async deliverDue({ tenantId } = {}) {
      let tried = 0;
      let succeeded = 0;
      /** Claims and sends the due deliveries of one database (of one tenant, when given). */
      const sweep = async (database: Database) => {
        for (;;) {
          const claimed = await claim(database, uow.clock(), tenantId);
          if (claimed.length === 0) break;
          for (const delivery of claimed) {
            const endpoint = await endpointOf(database, delivery);
            if (!endpoint) continue;
            const result = await send(delivery, endpoint, uow.clock());
            const attempt = await record(delivery, endpoint, result, false);
            tried++;
            if (attempt.succeeded) succeeded++;
          }
          if (claimed.length < BATCH) break;
        }
      };
      if (tenantId !== undefined) await sweep(connectionFor(tenantId));
      // Every database holding deliveries: the control database, then the tenants' own, eight at
      // a time; one that cannot be reached waits for the next run, the others are sent.
      else
        await forEveryDatabase(db, sweep, {
          tenantDatabases: options.tenantDatabases,
          onError: (error) =>
            log.warn({ err: error }, 'webhook: consegne di un database non inviate, riprovo'),
        });
      return { tried, succeeded };
    },

    async resend(tenantId, deliveryId) {
      const database = connectionFor(tenantId);
      const [delivery] = await database
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, deliveryId)));
      if (!delivery) throw new HttpError(404, serverMessages.notFound);
      const endpoint = await endpointOf(database, delivery);
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
