/**
 * 'Chiavi API' (Admin, SuperAdmin): a tenant's API keys, their request log and rate limits; and the
 * entitlement calls of the public API /api/v1 (its subscription calls are billing's).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_KEY_SCOPES, type ApiRequestLogItem, type Entitlement } from '../../../contract/integrations';
import { integrationMessages as m, serverMessages } from '../../../contract/messages';
import { requiredId } from '../../../contract/schemas/common';
import { apiSettingsSchema, v1CustomerQuery } from '../../../contract/schemas/integrations';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { callerOf, tenantOf } from '../../plugins/request-context';
import { ADMINS, SUPER_ADMINS } from '../../../contract/access';
import { sendExport } from '../../crud/export';
import type { ExportSpec } from '../../crud/export-spec';
import {
  createKey,
  deleteKey,
  getKey,
  listOrTakeBack,
  saveApiSettings,
  listKeys,
  listRequestLog,
  revokeKey,
  rotateKey,
  type LogFilter,
} from './api-keys.service';
import { entitlementsOf } from './entitlements.service';
import { customerOf } from '../../db/customers';
import type { ApiRateLimiter } from './rate-limits';
import type { RequestLogWriter } from './request-log';

export interface IntegrationRoutesOptions {
  /** The control database: the key directory. */
  db: Database;
  /** The tenant's database: its keys, their request log, its limits, its catalogue and subscriptions. */
  connectionFor: (tenantId: number) => Database;
  limiter: ApiRateLimiter;
  requestLog: RequestLogWriter;
  now: () => Date;
}

const admins = { access: 'user', roles: ADMINS, tenant: 'required' } as const;
const tags = ['apikey'];

const keyItem = z.object({
  id: z.number(),
  name: z.string(),
  mode: z.enum(['live', 'test']),
  hint: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
  state: z.enum(['active', 'expired', 'revoked']),
  rotatedFromId: z.number().nullable(),
});
const keyCreated = keyItem.extend({ secret: z.string() });
const logItem = z.object({
  id: z.number(),
  at: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number(),
  durationMs: z.number(),
  ip: z.string().nullable(),
});
const settingsSchema = z.object({ perKeyPerMinute: z.number(), perTenantPerMinute: z.number() });

const createBody = z.object({
  name: z.string().trim().min(1, { message: m.keyNameRequired }).max(100),
  mode: z.enum(['live', 'test']).default('live'),
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1, { message: m.scopesRequired }).max(3),
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
});

const logQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE', 'get', 'post', 'put', 'delete']).optional(),
  status: z.union([z.enum(['success', 'error']), z.coerce.number().int().min(100).max(599)]).optional(),
  path: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

function filterOf(q: z.output<typeof logQuery>): LogFilter {
  return {
    from: q.from ? new Date(q.from) : undefined,
    to: q.to ? new Date(q.to) : undefined,
    method: q.method,
    status: q.status,
    path: q.path,
  };
}

const requestLogExport: ExportSpec<ApiRequestLogItem> = {
  fileName: 'registro',
  columns: [
    { header: 'Data e ora', type: 'datetime', value: (i) => i.at },
    { header: 'Metodo', value: (i) => i.method },
    { header: 'Percorso', value: (i) => i.path },
    { header: 'Stato', type: 'integer', value: (i) => i.status },
    { header: 'Durata (ms)', type: 'integer', value: (i) => i.durationMs },
    { header: 'IP', value: (i) => i.ip },
  ],
};

async function* oneBatch<T>(rows: T[]): AsyncIterable<T[]> {
  yield rows;
}

export function registerApiKeyRoutes(fastify: FastifyInstance, options: IntegrationRoutesOptions): void {
  const { db, connectionFor, limiter, requestLog, now } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const idParams = z.object({ id: requiredId });

  app.get(
    '/api/apikey/list',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Le chiavi API del tenant (mai il segreto), con l’ultimo uso',
        response: { 200: envelopeOf(z.array(keyItem)) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      return ok(await listKeys(connectionFor(tenantId), tenantId, now()));
    },
  );

  app.post(
    '/api/apikey/create',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Crea una chiave API: il segreto (rnv_live_… / rnv_test_…) è nella risposta, solo qui',
        body: createBody,
        response: { 200: envelopeOf(keyCreated) },
      },
    },
    async (request) => {
      const body = request.body;
      // The row in the tenant's database first (committed), then its digest in the directory.
      const created = await request.unitOfWork((w) =>
        createKey(
          w,
          {
            name: body.name,
            mode: body.mode,
            scopes: body.scopes,
            expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
          },
          callerOf(request).userId,
        ),
      );
      await listOrTakeBack(db, tenantOf(request), created.secret, () =>
        request.unitOfWork((w) => deleteKey(w, created.id)),
      );
      return ok(created, m.keyCreated);
    },
  );

  app.get(
    '/api/apikey/settings',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Limiti di chiamate al minuto del tenant (per chiave e per tenant)',
        response: { 200: envelopeOf(settingsSchema) },
      },
    },
    async (request) => ok(await limiter.settings(tenantOf(request))),
  );

  app.put(
    '/api/apikey/settings',
    {
      config: { ...admins, roles: SUPER_ADMINS },
      schema: {
        tags,
        summary:
          'Imposta i limiti del tenant (SuperAdmin): interi, per chiave 1–100.000 e non oltre quello del tenant, per tenant 1–1.000.000',
        body: apiSettingsSchema,
        response: { 200: envelopeOf(settingsSchema) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const values = request.body;
      await request.unitOfWork((w) => saveApiSettings(w, values));
      limiter.invalidate(tenantId);
      return ok(await limiter.settings(tenantId), m.settingsSaved);
    },
  );

  app.get(
    '/api/apikey/:id',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Una chiave API del tenant',
        params: idParams,
        response: { 200: envelopeOf(keyItem) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      return ok(await getKey(connectionFor(tenantId), tenantId, request.params.id, now()));
    },
  );

  app.post(
    '/api/apikey/:id/revoke',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Revoca la chiave: da subito ogni chiamata con essa è 401',
        params: idParams,
        response: { 200: envelopeOf(keyItem) },
      },
    },
    async (request) => {
      const item = await request.unitOfWork((w) => revokeKey(w, request.params.id));
      return ok(item, m.keyRevoked);
    },
  );

  app.post(
    '/api/apikey/:id/rotate',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Ruota la chiave: una nuova chiave (segreto nella risposta) e la vecchia valida ancora graceHours ore (0–168, 24 se assente)',
        params: idParams,
        body: z
          .object({ graceHours: z.number().int().min(0).max(168).default(24) })
          .default({ graceHours: 24 }),
        response: { 200: envelopeOf(z.object({ created: keyCreated, previous: keyItem })) },
      },
    },
    async (request) => {
      const result = await request.unitOfWork((w) =>
        rotateKey(w, request.params.id, request.body.graceHours, callerOf(request).userId),
      );
      // The old key keeps its grace period if the new one cannot be listed (and is taken back).
      await listOrTakeBack(db, tenantOf(request), result.created.secret, () =>
        request.unitOfWork((w) => deleteKey(w, result.created.id)),
      );
      return ok(result, m.keyRotated);
    },
  );

  app.get(
    '/api/apikey/:id/logs',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Registro delle chiamate della chiave (30 giorni), dal più recente; filtri from, to, method, status (success | error | codice), path',
        params: idParams,
        querystring: logQuery,
        response: { 200: envelopeOf(z.object({ items: z.array(logItem), hasMore: z.boolean() })) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      await getKey(connectionFor(tenantId), tenantId, request.params.id, now());
      await requestLog.flush();
      const q = request.query;
      return ok(
        await listRequestLog(connectionFor(tenantId), tenantId, request.params.id, filterOf(q), {
          limit: q.pageSize,
          offset: (q.page - 1) * q.pageSize,
        }),
      );
    },
  );

  app.get(
    '/api/apikey/:id/logs/export',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Il registro filtrato in CSV (al massimo 10.000 righe)',
        params: idParams,
        querystring: logQuery.omit({ page: true, pageSize: true }),
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request);
      await getKey(connectionFor(tenantId), tenantId, request.params.id, now());
      await requestLog.flush();
      const { items } = await listRequestLog(
        connectionFor(tenantId),
        tenantId,
        request.params.id,
        filterOf({ ...request.query, page: 1, pageSize: 50 }),
        {
          limit: 10_000,
          offset: 0,
        },
      );
      // The list exports' own writer (crud/export.ts): Italian CSV, and every text cell a
      // spreadsheet would read as a formula neutralised (a logged path is the caller's text).
      return sendExport(reply, {
        spec: requestLogExport,
        format: 'csv',
        fileName: `chiave-${request.params.id}-registro.csv`,
        batches: () => oneBatch(items),
      });
    },
  );

  // ---- The public API of tenant keys (/api/v1) ----
  const v1Tags = ['v1'];
  const customerQuery = v1CustomerQuery;
  const entitlement = z.object({
    key: z.string(),
    name: z.string(),
    planId: z.number(),
    planName: z.string(),
    subscriptionId: z.number(),
    until: z.string(),
    pastDue: z.boolean(),
    graceEndsOn: z.string().nullable(),
    paused: z.boolean(),
    pausedUntil: z.string().nullable(),
    trial: z.boolean(),
    trialEndsAt: z.string().nullable(),
  });

  app.get(
    '/api/v1/entitlements',
    {
      config: { access: 'tenantKey', apiKeyScope: 'entitlements' },
      schema: {
        tags: v1Tags,
        security: [{ tenantKey: [] }],
        summary: 'Le funzionalità che il cliente può usare ora (ambito entitlements)',
        description: [
          'Dalle sottoscrizioni vive del cliente: Active, o ActiveNoRenewal fino alla prossima data di fatturazione. Ogni voce ha la chiave della funzionalità, il piano e la data fino a cui dura almeno (`until`). 404 se il cliente non è del tenant.',
          '',
          'Autenticazione: `Authorization: Bearer rnv_live_…` (oppure `x-api-key: rnv_live_…`). Ogni risposta porta `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (secondi); oltre il limite 429 con `Retry-After`.',
          '',
          '```sh',
          "curl -H 'Authorization: Bearer rnv_live_…' 'https://rinnova.example/api/v1/entitlements?customerEmail=mario.rossi@example.it'",
          '```',
          '',
          '```js',
          "const res = await fetch('https://rinnova.example/api/v1/entitlements?customerEmail=' + encodeURIComponent(email), {",
          '  headers: { Authorization: `Bearer ${process.env.RINNOVA_API_KEY}` },',
          '});',
          'const { data } = await res.json(); // data.features: [{ key, name, planName, until }]',
          '```',
        ].join('\n'),
        querystring: customerQuery,
        response: {
          200: envelopeOf(
            z.object({
              customer: z.object({ id: z.number(), email: z.string() }),
              features: z.array(entitlement),
            }),
          ),
        },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const customer = await customerOf(connectionFor(tenantId), request, request.query);
      if (!customer) throw new HttpError(404, serverMessages.notFound);
      return ok({
        customer,
        features: await entitlementsOf(connectionFor(tenantId), tenantId, customer.id, now()),
      });
    },
  );

  const checkQuery = customerQuery.extend({ feature: z.string().trim().max(100).optional() });
  /** The check's entitlement query, started beside the key look-up (tenant-key plugin). */
  const prefetched = new WeakMap<FastifyRequest, { tenantId: number; list: Promise<Entitlement[]> }>();
  const entitlementsFor = (tenantId: number, q: z.output<typeof checkQuery>) =>
    entitlementsOf(connectionFor(tenantId), tenantId, q, now());

  app.get(
    '/api/v1/entitlements/check',
    {
      config: {
        access: 'tenantKey',
        apiKeyScope: 'entitlements',
        apiKeyPrefetch: (request, tenantId) => {
          const q = checkQuery.safeParse(request.query);
          if (!q.success || !q.data.feature || (!q.data.customerEmail && q.data.customerId === undefined))
            return;
          const list = entitlementsFor(tenantId, q.data);
          list.catch(() => undefined);
          prefetched.set(request, { tenantId, list });
        },
      },
      schema: {
        tags: v1Tags,
        security: [{ tenantKey: [] }],
        summary: 'Il cliente può usare ora questa funzionalità? allowed true/false (ambito entitlements)',
        description: [
          'Un cliente sconosciuto o una funzionalità che nessuna sua sottoscrizione viva comprende: `allowed: false`.',
          '',
          '```sh',
          "curl -H 'x-api-key: rnv_live_…' 'https://rinnova.example/api/v1/entitlements/check?customerEmail=mario.rossi@example.it&feature=report_avanzati'",
          '```',
          '',
          '```js',
          "const url = new URL('https://rinnova.example/api/v1/entitlements/check');",
          "url.searchParams.set('customerEmail', email);",
          "url.searchParams.set('feature', 'report_avanzati');",
          "const { data } = await (await fetch(url, { headers: { 'x-api-key': process.env.RINNOVA_API_KEY } })).json();",
          'if (data.allowed) showPremium();',
          '```',
        ].join('\n'),
        querystring: checkQuery,
        response: {
          200: envelopeOf(
            z.object({
              allowed: z.boolean(),
              feature: z.string(),
              until: z.string().nullable(),
              planName: z.string().nullable(),
              pastDue: z.boolean(),
              graceEndsOn: z.string().nullable(),
              paused: z.boolean(),
              pausedUntil: z.string().nullable(),
              trial: z.boolean(),
              trialEndsAt: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const feature = request.query.feature?.toLowerCase();
      if (!feature)
        throw new HttpError(400, serverMessages.validation, { errors: [`feature: ${m.featureRequired}`] });
      const q = request.query;
      if (!q.customerEmail && q.customerId === undefined)
        throw new HttpError(400, serverMessages.validation, {
          errors: [`customerEmail: ${m.customerRequired}`],
        });
      // The customer and their entitlements in one query (an unknown customer has none), usually
      // already under way since the key look-up, in the key's own tenant.
      const tenantId = tenantOf(request);
      const early = prefetched.get(request);
      const list = await (early?.tenantId === tenantId ? early.list : entitlementsFor(tenantId, q));
      const hit = list.find((e) => e.key === feature);
      return ok({
        allowed: hit !== undefined,
        feature,
        until: hit?.until ?? null,
        planName: hit?.planName ?? null,
        pastDue: hit?.pastDue ?? false,
        graceEndsOn: hit?.graceEndsOn ?? null,
        paused: hit?.paused ?? false,
        pausedUntil: hit?.pausedUntil ?? null,
        trial: hit?.trial ?? false,
        trialEndsAt: hit?.trialEndsAt ?? null,
      });
    },
  );
}
