/**
 * Collection of payments, the Admin's calls (issue 29; contract/schemas/collection.ts,
 * contract/api-paths.ts `collection`): the ladder ('Solleciti'), 'Incassi in sospeso' and its
 * export, 'Sollecita ora', 'Segna come pagato', a payment's collection history. Tenant-scoped:
 * another tenant's payment id is the same 404 as an unknown one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rolesFor } from '../../../contract/access';
import { toCents } from '../../../contract/money';
import { serverMessages } from '../../../contract/messages';
import {
  ageBuckets,
  collectionEventKinds,
  collectionStatusIds,
  collectionPreviewSchema,
  collectionSettingsSchema,
  markPaidSchema,
  type AgeBucketKey,
  type OverduePayment,
} from '../../../contract/schemas/collection';
import { parseBillingDateTime } from '../../../contract/billing-dates';
import type { Database } from '../../db/client';
import { exportFileName, exportQuerySchema, offsetBatches, sendExport } from '../../crud/export';
import type { ExportSpec } from '../../crud/export-spec';
import { idParamsSchema, listQuerySchema } from '../../crud/list-query';
import { tenantNameOf } from '../../crud/tenant-name';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { tenantOf } from '../../plugins/request-context';
import type { TenantScope, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { previewCollectionEmail } from './collection-preview';
import {
  collectionMessages,
  collectionOfPayment,
  collectionSettingsOf,
  markPaid,
  overdueList,
  saveLadder,
} from './collection.service';
import { remindNow, type DunningDeps } from './dunning';
import type { PaymentHooks } from './payment-hooks';
import { confirmBankTransfer } from './subscription.service';

export interface CollectionRoutesOptions {
  connectionFor: (tenantId: number) => Database;
  uow: UnitOfWorkRunner;
  createLink?: PaymentHooks['createRenewalPaymentLink'] | undefined;
  /** The app's public address: the preview's sample payment and sign-in links. */
  publicUrl?: (() => string) | undefined;
}

const tags = ['collection'];
const emailOut = z.object({ subject: z.string(), body: z.string() });
const ladderOut = z.object({
  steps: z.array(z.number()),
  graceDays: z.number(),
  finalDay: z.number(),
  emails: z.object({ steps: z.array(emailOut.nullable()), final: emailOut.nullable() }),
});
const previewOut = z.object({ subject: z.string(), text: z.string(), html: z.string() });
const bucketKeys = ageBuckets.map((b) => b.key) as [AgeBucketKey, ...AgeBucketKey[]];
const overdueItem = z.object({
  paymentId: z.number(),
  subscriptionId: z.number(),
  customer: z.object({ id: z.number(), name: z.string().nullable(), email: z.string() }),
  plan: z.object({ id: z.number(), name: z.string() }),
  amountDue: z.number(),
  method: z.enum(['bankTransfer', 'paypal', 'stripe']).nullable(),
  dueDate: z.string(),
  daysOverdue: z.number(),
  bucket: z.enum(bucketKeys),
  step: z.number().nullable(),
  lastReminderAt: z.string().nullable(),
  graceEndsOn: z.string(),
});
const overdueListOut = z.object({
  items: z.array(overdueItem),
  totalCount: z.number(),
  buckets: z.array(z.object({ key: z.enum(bucketKeys), count: z.number(), amount: z.number() })),
  total: z.object({ count: z.number(), amount: z.number() }),
});
const paymentCollectionOut = z.object({
  dueDate: z.string(),
  collectionStatus: z.enum(collectionStatusIds),
  events: z.array(
    z.object({
      id: z.number(),
      kind: z.enum(collectionEventKinds),
      step: z.number().nullable(),
      actor: z.object({ kind: z.enum(['system', 'provider', 'user']), name: z.string().nullable() }),
      note: z.string().nullable(),
      at: z.string(),
    }),
  ),
});
const paymentParams = z.object({ paymentId: idParamsSchema.shape.id });

const overdueExport: ExportSpec<OverduePayment> = {
  fileName: 'incassi-in-sospeso',
  columns: [
    { header: 'Pagamento', type: 'integer', value: (r) => r.paymentId },
    { header: 'Cliente', type: 'text', value: (r) => r.customer.name ?? '' },
    { header: 'Email', type: 'text', value: (r) => r.customer.email },
    { header: 'Piano', type: 'text', value: (r) => r.plan.name },
    { header: 'Importo (€)', type: 'money', value: (r) => r.amountDue },
    { header: 'Scadenza', type: 'text', value: (r) => r.dueDate },
    { header: 'Giorni di ritardo', type: 'integer', value: (r) => r.daysOverdue },
    {
      header: 'Fascia',
      type: 'text',
      value: (r) => ageBuckets.find((b) => b.key === r.bucket)?.label ?? r.bucket,
    },
    {
      header: 'Sollecito raggiunto',
      type: 'text',
      value: (r) => (r.step === null ? '' : String(r.step + 1)),
    },
    { header: 'Ultimo sollecito', type: 'datetime', value: (r) => r.lastReminderAt },
    { header: 'Fine tolleranza', type: 'text', value: (r) => r.graceEndsOn },
  ],
};

/** `filters[bucket]` (one of the age buckets; anything else → 400 with the field). */
function bucketFilter(filters: Record<string, string | string[]> | undefined): AgeBucketKey | undefined {
  const errors: string[] = [];
  let bucket: AgeBucketKey | undefined;
  for (const [key, raw] of Object.entries(filters ?? {})) {
    const value = (Array.isArray(raw) ? raw.at(-1) : raw)?.trim() ?? '';
    if (key.toLowerCase() !== 'bucket') errors.push(`filters.${key}: filtro non supportato`);
    else if (value === '') continue;
    else if ((bucketKeys as string[]).includes(value)) bucket = value as AgeBucketKey;
    else errors.push(`filters.bucket: fascia non valida (${bucketKeys.join(', ')})`);
  }
  if (errors.length > 0) throw new HttpError(400, serverMessages.validation, { errors });
  return bucket;
}

export function registerCollectionRoutes(fastify: FastifyInstance, options: CollectionRoutesOptions): void {
  const { connectionFor, uow, createLink } = options;
  const publicUrl = options.publicUrl ?? (() => 'http://localhost');
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const config = (action: 'read' | 'list' | 'edit' | 'remind' | 'markPaid') =>
    ({ access: 'user', roles: rolesFor('collection', action), tenant: 'required' }) as const;
  const scopeOf = (request: FastifyRequest): TenantScope => {
    const tenantId = tenantOf(request);
    return { tenantId, tx: connectionFor(tenantId) };
  };
  const deps: Pick<DunningDeps, 'createLink'> = { createLink };

  app.get(
    '/api/collection/settings',
    {
      config: config('read'),
      schema: {
        tags,
        summary:
          'I solleciti del tenant (giorni dopo la scadenza, tolleranza, azione finale) e le loro e-mail (null: il testo predefinito)',
        response: { 200: envelopeOf(ladderOut) },
      },
    },
    async (request) => ok(await collectionSettingsOf(scopeOf(request))),
  );

  app.put(
    '/api/collection/settings',
    {
      config: config('edit'),
      schema: {
        tags,
        summary:
          'Salva i solleciti del tenant e, se indicate, le loro e-mail (senza `emails` i testi restano; errori per campo in italiano)',
        body: collectionSettingsSchema,
        response: { 200: envelopeOf(ladderOut) },
      },
    },
    async (request) => {
      await request.unitOfWork((w) => saveLadder(w, request.body));
      return ok(await collectionSettingsOf(scopeOf(request)), collectionMessages.ladderSaved);
    },
  );

  app.post(
    '/api/collection/settings/preview',
    {
      config: config('edit'),
      schema: {
        tags,
        summary:
          'Anteprima di un’e-mail dei solleciti (step 0… o final; bonifico o carta) come la riceve il cliente, su un pagamento di esempio: oggetto, testo e HTML',
        body: collectionPreviewSchema,
        response: { 200: envelopeOf(previewOut) },
      },
    },
    async (request) =>
      ok(await previewCollectionEmail(scopeOf(request), request.body, uow.clock(), publicUrl())),
  );

  app.get(
    '/api/collection/overdue',
    {
      config: config('list'),
      schema: {
        tags,
        summary:
          'Incassi in sospeso: i pagamenti in ritardo, dalla scadenza più vecchia (filters[bucket]=0-7|8-30|31-60|60+, searchTerm), con i totali per fascia',
        querystring: listQuerySchema,
        response: { 200: envelopeOf(overdueListOut) },
      },
    },
    async (request) => {
      const q = request.query;
      const bucket = bucketFilter(q.filters);
      return ok(
        await overdueList(
          scopeOf(request),
          { page: q.page, pageSize: q.pageSize, bucket, searchTerm: q.searchTerm || undefined },
          uow.clock(),
        ),
      );
    },
  );

  app.get(
    '/api/collection/overdue/export',
    {
      config: config('list'),
      schema: {
        tags,
        summary: 'Incassi in sospeso come CSV o XLSX (stessi filtri della lista)',
        querystring: exportQuerySchema.extend({
          filters: listQuerySchema.shape.filters,
          searchTerm: listQuerySchema.shape.searchTerm,
        }),
      },
    },
    async (request, reply) => {
      const q = request.query;
      const bucket = bucketFilter(q.filters);
      const scope = scopeOf(request);
      const now = uow.clock();
      const fileName = exportFileName(
        overdueExport.fileName,
        await tenantNameOf(scope.tx as Database, scope.tenantId),
        now,
        q.format,
      );
      const batches = (size: number) =>
        offsetBatches<OverduePayment>(
          async (limit, offset) =>
            (
              await overdueList(
                scope,
                {
                  page: Math.floor(offset / limit) + 1,
                  pageSize: limit,
                  bucket,
                  searchTerm: q.searchTerm || undefined,
                },
                now,
              )
            ).items,
          size,
        );
      return sendExport(reply, { spec: overdueExport, format: q.format, fileName, batches });
    },
  );

  app.get(
    '/api/collection/payment/:paymentId',
    {
      config: config('read'),
      schema: {
        tags,
        summary: 'Scadenza, stato dell’incasso e cronologia dei solleciti di un pagamento',
        params: paymentParams,
        response: { 200: envelopeOf(paymentCollectionOut) },
      },
    },
    async (request) => {
      const found = await collectionOfPayment(scopeOf(request), request.params.paymentId);
      if (!found) throw new HttpError(404, serverMessages.notFound);
      return ok(found);
    },
  );

  app.post(
    '/api/collection/remind/:paymentId',
    {
      config: config('remind'),
      schema: {
        tags,
        summary:
          'Sollecita ora: l’e-mail di sollecito subito (link di pagamento nuovo o istruzioni del bonifico, con il link di accesso); 409 se pagato o esaurito',
        params: paymentParams,
        response: { 200: envelopeOf(paymentCollectionOut) },
      },
    },
    async (request) => {
      await request.unitOfWork((w) =>
        remindNow(
          w,
          request.params.paymentId,
          deps.createLink,
          collectionMessages.notCollectable,
          serverMessages.notFound,
        ),
      );
      const found = await collectionOfPayment(scopeOf(request), request.params.paymentId);
      return ok(found!, collectionMessages.reminded);
    },
  );

  app.post(
    '/api/collection/markPaid/:paymentId',
    {
      config: config('markPaid'),
      schema: {
        tags,
        summary:
          'Segna come pagato: registra il bonifico approvato e incassa il pagamento (fattura emessa una volta); 409 se già pagato',
        params: paymentParams,
        body: markPaidSchema,
        response: { 200: envelopeOf(paymentCollectionOut) },
      },
    },
    async (request) => {
      const b = request.body;
      const approvalDate = parseBillingDateTime(b.approvalDate);
      if (!approvalDate)
        throw new HttpError(400, serverMessages.validation, { errors: ['approvalDate: Data non valida'] });
      await request.unitOfWork((w) =>
        markPaid(
          w,
          request.params.paymentId,
          { amountCents: toCents(b.amount), approvalDate, note: b.note },
          (unit, subscriptionId) => confirmBankTransfer(unit, subscriptionId),
        ),
      );
      const found = await collectionOfPayment(scopeOf(request), request.params.paymentId);
      return ok(found!, collectionMessages.markedPaid);
    },
  );
}
