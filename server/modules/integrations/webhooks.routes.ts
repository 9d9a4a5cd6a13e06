/** '/webhook' (Admin): the tenant's webhook endpoints, their deliveries with each attempt, re-send. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../../../contract/integrations';
import { integrationMessages as m } from '../../../contract/messages';
import { requiredId } from '../../../contract/schemas/common';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import type { SecretBox } from '../../lib/secret-box';
import { tenantOf } from '../../plugins/request-context';
import { ADMINS } from '../../../contract/access';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  updateEndpoint,
} from './webhook-endpoints.service';
import { type WebhookSender } from './webhook-sender';

export interface WebhookRoutesOptions {
  /** The tenant's database: its endpoints, deliveries and attempts. */
  connectionFor: (tenantId: number) => Database;
  secretBox: SecretBox;
  sender: WebhookSender;
  allowPrivate: boolean;
}

const admins = { access: 'user', roles: ADMINS, tenant: 'required' } as const;
const tags = ['webhook'];

const endpointItem = z.object({
  id: z.number(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  secretHint: z.string(),
  isEnabled: z.boolean(),
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable(),
  consecutiveFailures: z.number(),
  createdAt: z.string(),
});
const attemptItem = z.object({
  id: z.number(),
  at: z.string(),
  statusCode: z.number().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
  succeeded: z.boolean(),
  manual: z.boolean(),
});
const deliveryItem = z.object({
  id: z.number(),
  endpointId: z.number(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().nullable(),
  createdAt: z.string(),
  attemptList: z.array(attemptItem),
});
const endpointBody = z.object({
  url: z.string().trim().min(1, { message: m.urlInvalid }).max(2000),
  description: z.string().trim().max(200).nullable().optional(),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, { message: m.eventsRequired }).max(WEBHOOK_EVENTS.length),
  isEnabled: z.boolean().optional(),
});

const SIGNING_DOC = [
  'Ogni consegna è un POST JSON `{ id, type, createdAt, data }` con le intestazioni `Rinnova-Event`, `Rinnova-Delivery` (id dell’evento: usalo per ignorare i doppioni) e',
  '`Rinnova-Signature: t=<secondi unix>,v1=<hex>`, dove v1 = HMAC-SHA256 con il segreto dell’endpoint di `${t}.${corpo grezzo}`.',
  'Verifica (Node.js):',
  '```js',
  "const [t, v1] = header.split(',').map((p) => p.split('=')[1]);",
  "const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');",
  "const valid = crypto.timingSafeEqual(Buffer.from(v1, 'hex'), Buffer.from(expected, 'hex')) && Math.abs(Date.now() / 1000 - Number(t)) < 300;",
  '```',
  'Una risposta 2xx entro 5 secondi conta come consegnata; altrimenti nuovi tentativi dopo 1, 4, 16, 64, 256 minuti e poi ogni 8 ore, per 24 ore. Dopo 24 ore di errori l’endpoint viene disattivato e gli Admin avvisati per e-mail.',
].join('\n');

export function registerWebhookRoutes(fastify: FastifyInstance, options: WebhookRoutesOptions): void {
  const { connectionFor, secretBox, sender, allowPrivate } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const idParams = z.object({ id: requiredId });

  app.get(
    '/api/webhook/list',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Gli endpoint webhook del tenant',
        description: SIGNING_DOC,
        response: { 200: envelopeOf(z.array(endpointItem)) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      return ok(await listEndpoints(connectionFor(tenantId), tenantId));
    },
  );

  app.post(
    '/api/webhook/create',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Crea un endpoint: il segreto di firma (whsec_…) è nella risposta, solo qui',
        description: SIGNING_DOC,
        body: endpointBody,
        response: { 200: envelopeOf(endpointItem.extend({ secret: z.string() })) },
      },
    },
    async (request) => {
      const created = await request.unitOfWork((w) =>
        createEndpoint(w, request.body, { secretBox, allowPrivate }),
      );
      return ok(created, m.endpointCreated);
    },
  );

  app.get(
    '/api/webhook/:id',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Un endpoint webhook',
        params: idParams,
        response: { 200: envelopeOf(endpointItem) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      return ok(await getEndpoint(connectionFor(tenantId), tenantId, request.params.id));
    },
  );

  app.put(
    '/api/webhook/:id',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Modifica URL ed eventi; isEnabled true riattiva un endpoint disattivato',
        params: idParams,
        body: endpointBody,
        response: { 200: envelopeOf(endpointItem) },
      },
    },
    async (request) => {
      const item = await request.unitOfWork((w) =>
        updateEndpoint(w, request.params.id, request.body, { allowPrivate }),
      );
      return ok(item, m.endpointSaved);
    },
  );

  app.delete(
    '/api/webhook/:id',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Elimina l’endpoint e le sue consegne',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await request.unitOfWork((w) => deleteEndpoint(w, request.params.id));
      return ok(null, m.endpointDeleted);
    },
  );

  app.get(
    '/api/webhook/:id/deliveries',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Le consegne dell’endpoint, dalla più recente, con ogni tentativo',
        params: idParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: envelopeOf(z.array(deliveryItem)) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      return ok(
        await listDeliveries(connectionFor(tenantId), tenantId, request.params.id, request.query.limit),
      );
    },
  );

  app.post(
    '/api/webhook/deliveries/:id/resend',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Reinvia ora una consegna (il tentativo è registrato come manuale)',
        params: idParams,
        response: { 200: envelopeOf(attemptItem) },
      },
    },
    async (request) => {
      const attempt = await sender.resend(tenantOf(request), request.params.id);
      return ok(attempt, attempt.succeeded ? m.deliveryResent : m.deliveryResendFailed);
    },
  );
}
