/**
 * Invoice calls: `GET api/invoice/getAll`, `GetById/{id}`, `xml/{id}`, `pdf/{id}`, `zip?month=`
 * (tenant-scoped; a User reaches only their own invoices, the month's ZIP is for Admins), plus
 * `issues` (paid payments without an invoice, and why, by customer), `retry/{paymentId}`,
 * `retryCustomer/{userId}`, `creditNote/{id}` and `stampDuty?year=` (Admin, SuperAdmin).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import yazl from 'yazl';
import { Role } from '../../../contract/enums';
import { invoiceMessages, pecMessages, receiptMessages, serverMessages } from '../../../contract/messages';
import type { Invoice, StampDutySummary } from '../../../contract/schemas/invoice';
import type { JobEngine } from '../../jobs/engine';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { callerOf, tenantOf } from '../../plugins/request-context';
import type { UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import type { TenantScope } from '../../unit-of-work/unit-of-work';
import { exportFileName, exportQuerySchema, keysetBatches, sendExport } from '../../crud/export';
import { bindExport } from '../../crud/list-binding';
import { invoiceList } from '../../../contract/lists/invoice';
import { idParamsSchema, listQuerySchema } from '../../crud/list-query';
import { tenantNameOf } from '../../crud/tenant-name';
import { ADMINS } from '../../../contract/access';
import type { InvoiceDocument } from './fatturapa';
import { renderInvoicePdf } from './invoice-pdf';
import {
  countInvoices,
  invoiceFiles,
  invoiceFilter,
  loadInvoice,
  invoiceExportBatch,
  pageOfInvoices,
  invoiceItemSchema,
  invoiceSendSchema,
  stampDutyCounts,
} from './invoice.repository';
import { invoiceIssuesOf, invoiceIssuesSchema } from './invoice-issues';
import { applySdiReceipt } from './sdi-receipt';
import { checkSendable, PEC_JOBS, pecSettingsOf, sendsOf, type PecDeps } from './invoice-pec';
import { issueCreditNote, issueInvoiceForPayment, retryBlockedPayments } from './invoice.service';
import { stampDutySummary, stampDutyTaxCodes } from '../../../contract/invoice/stamp-duty';
import { romeCalendarDay } from '../../../contract/billing-dates';

export interface InvoiceRoutesOptions {
  connectionFor: (tenantId: number) => Database;
  uow: UnitOfWorkRunner;
  /** Sending by PEC: its settings' secret box and the job engine (null: JOBS=off). */
  pec: PecDeps;
  jobs: JobEngine | null;
}

const anyone = { access: 'user', tenant: 'required' } as const;
const admins = { access: 'user', roles: ADMINS, tenant: 'required' } as const;
const tags = ['invoice'];

/** A file download; the name is ASCII already (numbers and the FatturaPA file name). */
function download(reply: FastifyReply, type: string, fileName: string, body: Buffer | string) {
  return reply
    .header('content-type', type)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(body);
}

/** The invoice list's columns (contract/lists/invoice), each read off the row's key. */
const invoiceExport = bindExport<z.output<typeof invoiceItemSchema>, typeof invoiceList>(invoiceList);

export function registerInvoiceRoutes(
  fastify: FastifyInstance,
  { connectionFor, uow, pec, jobs }: InvoiceRoutesOptions,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readScope = (request: FastifyRequest): TenantScope => {
    const tenantId = tenantOf(request);
    return { tenantId, tx: connectionFor(tenantId) };
  };
  /** A User (role 3) reaches only their own invoices. */
  const ownOnly = (request: FastifyRequest): number | undefined => {
    const auth = callerOf(request);
    return auth.roleId === Role.User ? auth.userId : undefined;
  };
  const readOne = async (request: FastifyRequest, id: number) => {
    const found = await loadInvoice(readScope(request), id, ownOnly(request));
    if (!found) throw new HttpError(404, serverMessages.notFound);
    return found;
  };
  const itemEnvelope = envelopeOf(invoiceItemSchema);

  app.get(
    '/api/invoice/getAll',
    {
      config: anyone,
      schema: {
        tags,
        summary:
          'Fatture e note di credito del tenant, dalla più recente; filtri from e to (AAAA-MM-GG), month (AAAA-MM), userId, documentType; searchTerm su numero e cliente',
        querystring: listQuerySchema,
        response: {
          200: envelopeOf(z.object({ items: z.array(invoiceItemSchema), totalCount: z.number() })),
        },
      },
    },
    async (request) => {
      const scope = readScope(request);
      const filter = invoiceFilter(request.query);
      const own = ownOnly(request);
      if (own !== undefined) {
        if (filter.userId !== undefined && filter.userId !== own) return ok({ items: [], totalCount: 0 });
        filter.userId = own;
      }
      const { page, pageSize } = request.query;
      const [items, totalCount] = await Promise.all([
        pageOfInvoices(scope, filter, pageSize, (page - 1) * pageSize),
        countInvoices(scope, filter),
      ]);
      return ok({ items, totalCount });
    },
  );

  app.get(
    '/api/invoice/export',
    {
      config: anyone,
      schema: {
        tags,
        summary:
          'La lista delle fatture (tutte le pagine, stessi filtri e searchTerm di getAll) come CSV o XLSX',
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const scope = readScope(request);
      const { format, ...query } = request.query;
      const filter = invoiceFilter({ ...query, page: 1, pageSize: 1 });
      const own = ownOnly(request);
      const none = own !== undefined && filter.userId !== undefined && filter.userId !== own;
      if (own !== undefined) filter.userId = own;
      const fileName = exportFileName(
        invoiceExport.fileName,
        await tenantNameOf(scope.tx as Database, scope.tenantId),
        uow.clock(),
        format,
      );
      const batches = (size: number) =>
        none
          ? (async function* () {})()
          : keysetBatches<Invoice>((after, limit) => invoiceExportBatch(scope, filter, after, limit), size);
      return sendExport(reply, { spec: invoiceExport, format, fileName, batches });
    },
  );

  app.get(
    '/api/invoice/GetById/:id',
    { config: anyone, schema: { tags, params: idParamsSchema, response: { 200: itemEnvelope } } },
    async (request) => ok((await readOne(request, request.params.id)).item),
  );

  app.get(
    '/api/invoice/xml/:id',
    {
      config: anyone,
      schema: { tags, summary: 'Il file FatturaPA (XML) della fattura', params: idParamsSchema },
    },
    async (request, reply) => {
      const { item, xml } = await readOne(request, request.params.id);
      return download(reply, 'application/xml; charset=utf-8', item.fileName, xml);
    },
  );

  app.get(
    '/api/invoice/pdf/:id',
    {
      config: anyone,
      schema: { tags, summary: 'La copia di cortesia (PDF) della fattura', params: idParamsSchema },
    },
    async (request, reply) => {
      const { item, document } = await readOne(request, request.params.id);
      const pdf = await renderInvoicePdf(document as InvoiceDocument);
      const kind = item.documentType === 'TD04' ? 'Nota_di_credito' : 'Fattura';
      return download(reply, 'application/pdf', `${kind}_${item.number.replace('/', '-')}.pdf`, pdf);
    },
  );

  app.get(
    '/api/invoice/zip',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'I file XML delle fatture e note di credito di un mese (month=AAAA-MM), in uno ZIP per il commercialista',
        querystring: z.object({ month: z.string().optional() }),
      },
    },
    async (request, reply) => {
      const month = request.query.month?.trim() ?? '';
      const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
      if (!m)
        throw new HttpError(400, serverMessages.validation, {
          errors: [`month: ${invoiceMessages.monthInvalid}`],
        });
      const files = await invoiceFiles(readScope(request), month);
      const zip = new yazl.ZipFile();
      for (const f of files) {
        zip.addBuffer(Buffer.from(f.xml, 'utf8'), f.fileName, { mtime: f.createdAt });
      }
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
      return download(reply, 'application/zip', `fatture_${month}.zip`, Buffer.concat(chunks));
    },
  );

  app.get(
    '/api/invoice/issues',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Pagamenti pagati senza fattura, con il motivo: items uno per pagamento (i 200 più recenti); customers per cliente con i dati mancanti (chiavi del modulo utente) e gli altri motivi; seller i dati di fatturazione mancanti del tenant',
        response: { 200: envelopeOf(invoiceIssuesSchema) },
      },
    },
    async (request) => ok(await invoiceIssuesOf(readScope(request))),
  );

  app.post(
    '/api/invoice/retryCustomer/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Emette le fatture di tutti i pagamenti in attesa del cliente (id del cliente), dal più vecchio: 409 con i dati ancora mancanti se nessuna è emessa',
        params: idParamsSchema,
        response: {
          200: envelopeOf(
            z.object({
              issued: z.array(z.object({ paymentId: z.number(), invoiceId: z.number(), number: z.string() })),
              waiting: z.number(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const outcome = await request.unitOfWork((w) => retryBlockedPayments(w, { userId: request.params.id }));
      const waiting = outcome.blocked.length;
      if (outcome.issued.length === 0 && waiting > 0)
        throw new HttpError(409, invoiceMessages.stillBlockedMany, {
          errors: [...new Set(outcome.blocked.flatMap((b) => b.messages))],
        });
      const numbers = outcome.issued.map((i) => i.number);
      return ok(
        { issued: outcome.issued, waiting },
        numbers.length === 0 ? invoiceMessages.nothingWaiting : invoiceMessages.retried(numbers, waiting),
      );
    },
  );

  app.get(
    '/api/invoice/stampDuty',
    {
      config: admins,
      schema: {
        tags,
        summary: `Imposta di bollo delle fatture elettroniche per trimestre (year=AAAA, default l’anno in corso): numero di fatture e note di credito con DatiBollo, totale a 2,00 € l’una, codice tributo F24 (${stampDutyTaxCodes.join(', ')}), scadenza`,
        querystring: z.object({ year: z.string().optional() }),
        response: {
          200: envelopeOf(
            z.object({
              year: z.number(),
              total: z.number(),
              quarters: z.array(
                z.object({
                  quarter: z.number(),
                  taxCode: z.string(),
                  invoices: z.number(),
                  creditNotes: z.number(),
                  count: z.number(),
                  total: z.number(),
                  deadline: z.string(),
                  deferredTo: z.string().nullable(),
                }),
              ),
            }) satisfies z.ZodType<StampDutySummary>,
          ),
        },
      },
    },
    async (request) => {
      const raw = request.query.year?.trim() || String(romeCalendarDay(uow.clock()).year);
      const year = Number(raw);
      // The codici tributo 2521–2524 exist since the e-invoices of 2019.
      if (!/^\d{4}$/.test(raw) || year < 2019 || year > 2100)
        throw new HttpError(400, serverMessages.validation, {
          errors: [`year: ${invoiceMessages.yearInvalid}`],
        });
      return ok(stampDutySummary(year, await stampDutyCounts(readScope(request), year)));
    },
  );

  app.post(
    '/api/invoice/retry/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Emette la fattura di un pagamento pagato (id del pagamento) rimasto senza: 409 con i dati ancora mancanti',
        params: idParamsSchema,
        response: { 200: itemEnvelope },
      },
    },
    async (request) => {
      const outcome = await request.unitOfWork((w) => issueInvoiceForPayment(w, request.params.id));
      if (outcome.kind === 'blocked')
        throw new HttpError(409, invoiceMessages.stillBlocked, { errors: outcome.messages });
      const { item } = await readOne(request, outcome.invoiceId);
      return ok(item, invoiceMessages.issued(outcome.number));
    },
  );

  app.post(
    '/api/invoice/creditNote/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Nota di credito (TD04) che storna per intero la fattura, per un pagamento rimborsato o contestato',
        params: idParamsSchema,
        body: z.object({
          reason: z
            .string({ error: invoiceMessages.reasonRequired })
            .trim()
            .min(1, invoiceMessages.reasonRequired)
            .max(180),
        }),
        response: { 200: itemEnvelope },
      },
    },
    async (request) => {
      const note = await request.unitOfWork((w) =>
        issueCreditNote(w, request.params.id, request.body.reason),
      );
      const { item } = await readOne(request, note.id);
      return ok(item, invoiceMessages.creditNoteIssued(note.number));
    },
  );

  app.get(
    '/api/invoice/pecStatus',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Se il tenant invia le fatture allo SdI con la propria PEC (impostazioni in Lista Tenants → Invio PEC), o cosa manca',
        response: {
          200: envelopeOf(
            z.object({
              configured: z.boolean(),
              missing: z.array(z.string()),
              sender: z.string().nullable(),
              sdiPec: z.string(),
              autoSend: z.boolean(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const found = await pecSettingsOf(connectionFor(tenantId), pec.box, tenantId);
      return ok({
        configured: found.settings !== null,
        missing: found.missing,
        sender: found.settings?.from ?? null,
        sdiPec: found.sdiPec,
        autoSend: found.autoSend,
      });
    },
  );

  app.post(
    '/api/invoice/send/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Invia la fattura allo SdI con la PEC del tenant (un messaggio, il file XML allegato), da un job dopo la risposta; 409 senza impostazioni PEC o se già inviata',
        params: idParamsSchema,
        response: { 200: itemEnvelope },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      await checkSendable(pec, tenantId, request.params.id);
      if (!jobs) throw new HttpError(503, pecMessages.jobsOff);
      // No transaction is open here: the job is enqueued, the message goes out from it.
      await jobs.enqueue(PEC_JOBS.send, { tenantId, invoiceId: request.params.id });
      const { item } = await readOne(request, request.params.id);
      return ok(item, pecMessages.queued(item.number));
    },
  );

  app.get(
    '/api/invoice/sends/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Gli invii della fattura allo SdI via PEC, dal più recente (ora, destinatario, Message-ID, esito, errore)',
        params: idParamsSchema,
        response: {
          200: envelopeOf(z.object({ items: z.array(invoiceSendSchema), totalCount: z.number() })),
        },
      },
    },
    async (request) => {
      await readOne(request, request.params.id);
      const tenantId = tenantOf(request);
      const items = await sendsOf(connectionFor(tenantId), tenantId, request.params.id);
      return ok({ items, totalCount: items.length });
    },
  );

  app.post(
    '/api/invoice/sdiReceipt',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Registra una ricevuta dello SdI (consegna → Consegnata, scarto → Scartata con gli errori, mancata consegna: stato invariato); la fattura è quella del NomeFile',
        body: z.object({
          xml: z
            .string({ error: receiptMessages.xmlRequired })
            .min(1, receiptMessages.xmlRequired)
            .max(200_000),
        }),
        response: { 200: itemEnvelope },
      },
    },
    async (request) => {
      const outcome = await request.unitOfWork((w) => applySdiReceipt(w, request.body.xml));
      const { item } = await readOne(request, outcome.invoiceId);
      return ok(item, outcome.message);
    },
  );
}
