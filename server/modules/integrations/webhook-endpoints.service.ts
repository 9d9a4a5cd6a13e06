/** Outbound webhooks: the tenant's endpoints and their deliveries (the /webhook screen). */
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  type WebhookAttemptItem,
  type WebhookDeliveryItem,
  type WebhookEndpointCreated,
  type WebhookEndpointItem,
  type WebhookEventType,
} from '../../../contract/integrations';
import { serverMessages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { SecretBox } from '../../lib/secret-box';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';

import { checkEndpointUrl } from './webhook-transport';

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
