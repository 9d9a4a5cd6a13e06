/**
 * The background-jobs page's calls (api-contract 'Background jobs'), SuperAdmin only: the job
 * engine's counters, its recent jobs and a retry of a failed one. The engine is global (its
 * queues serve every tenant), so these calls need no X-Tenant-Id; each job's `args` say which
 * tenant it ran for.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SUPER_ADMINS } from '../../../contract/access';
import { jobMessages } from '../../../contract/messages';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import type { JobEngine, RecentJob } from '../../jobs/engine';
import { exportFileName, keysetBatches, sendExport, EXPORT_FORMATS } from '../../crud/export';
import type { ExportSpec } from '../../crud/export-spec';

const STATE_LABELS: Record<RecentJob['state'], string> = {
  enqueued: 'In coda',
  scheduled: 'Programmato',
  processing: 'In esecuzione',
  retrying: 'Nuovo tentativo',
  succeeded: 'Riuscito',
  failed: 'Fallito',
  cancelled: 'Annullato',
};

const superAdmin = { access: 'user', roles: SUPER_ADMINS, tenant: 'optional' } as const;
const tags = ['hangfire'];

const statsSchema = z.object({
  enqueued: z.number(),
  scheduled: z.number(),
  processing: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  retrying: z.number(),
  cancelled: z.number(),
  recurring: z.number(),
  queues: z.number(),
});
const recentSchema = z.object({
  id: z.string(),
  key: z.string(),
  /** The job's Italian name (its definition's label); the key when it has none. */
  label: z.string(),
  args: z.record(z.string(), z.unknown()),
  enqueuedAt: z.string(),
  state: z.enum(['enqueued', 'scheduled', 'processing', 'retrying', 'succeeded', 'failed', 'cancelled']),
  error: z.string().nullable(),
  retryCount: z.number(),
  retryLimit: z.number(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  startAfter: z.string(),
});
const recurringSchema = z.object({
  key: z.string(),
  label: z.string(),
  cron: z.string(),
  timeZone: z.string(),
});

export function registerHangfireRoutes(
  fastify: FastifyInstance,
  engine: JobEngine | null,
  clock: () => Date = () => new Date(),
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const running = (): JobEngine => {
    if (!engine) throw new HttpError(503, jobMessages.engineOff);
    return engine;
  };

  app.get(
    '/api/hangfire/stats',
    {
      config: superAdmin,
      schema: {
        tags,
        summary:
          'Contatori del motore dei job (pg-boss): in coda, programmati, in esecuzione, riusciti, falliti, in attesa di nuovo tentativo, ricorrenti',
        response: { 200: envelopeOf(statsSchema) },
      },
    },
    async () => ok(await running().stats()),
  );

  const labels = new Map((engine?.definitions ?? []).map((d) => [d.name, d.label]));
  const labelOf = (key: string) => labels.get(key) ?? key;

  app.get(
    '/api/hangfire/recent',
    {
      config: superAdmin,
      schema: {
        tags,
        summary:
          'Job recenti, dal più recente: key (nome interno del job), label (nome italiano), args, enqueuedAt, stato ed errore dell’ultimo tentativo',
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: envelopeOf(z.array(recentSchema)) },
      },
    },
    async (request) =>
      ok((await running().recent(request.query.limit)).map((j) => ({ ...j, label: labelOf(j.key) }))),
  );
  /** The 'Job recenti' table's columns (src/features/hangfire). */
  const jobExport: ExportSpec<RecentJob> = {
    fileName: 'job',
    columns: [
      { header: 'Job', value: (j) => labelOf(j.key) },
      { header: 'Chiave', value: (j) => j.key },
      { header: 'Argomenti', value: (j) => JSON.stringify(j.args) },
      { header: 'Accodato il', type: 'datetime', value: (j) => j.enqueuedAt },
      { header: 'Stato', value: (j) => STATE_LABELS[j.state] },
      { header: 'Tentativi', type: 'integer', value: (j) => j.retryCount },
      { header: 'Completato il', type: 'datetime', value: (j) => j.completedAt },
      { header: 'Errore', value: (j) => j.error },
    ],
  };
  app.get(
    '/api/hangfire/export',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'I job (dal più recente, compreso l’archivio) come CSV o XLSX',
        querystring: z.object({ format: z.enum(EXPORT_FORMATS).default('csv') }),
      },
    },
    async (request, reply) => {
      const jobs = running();
      const { format } = request.query;
      return sendExport(reply, {
        spec: jobExport,
        format,
        fileName: exportFileName(jobExport.fileName, null, clock(), format),
        batches: (size) => keysetBatches((after, limit) => jobs.recent(limit, 0, after?.id), size),
      });
    },
  );

  app.get(
    '/api/hangfire/recurring',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'I job ricorrenti registrati, con la loro pianificazione cron (Europe/Rome)',
        response: { 200: envelopeOf(z.array(recurringSchema)) },
      },
    },
    async () =>
      ok(
        running()
          .definitions.filter((d) => d.cron)
          .map((d) => ({ key: d.name, label: d.label, cron: d.cron as string, timeZone: 'Europe/Rome' })),
      ),
  );

  app.post(
    '/api/hangfire/trigger/:key',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Accoda subito un job ricorrente (per tutti i tenant), oltre alla sua pianificazione',
        params: z.object({ key: z.string().max(100) }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (request) => {
      const engine = running();
      const def = engine.definitions.find((d) => d.name === request.params.key && d.cron);
      if (!def) throw new HttpError(404, jobMessages.notFound);
      const id = await engine.enqueue(def.name, {});
      if (!id) throw new HttpError(409, jobMessages.notQueued);
      return ok({ id }, jobMessages.triggered);
    },
  );

  app.post(
    '/api/hangfire/retry/:id',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Rimette in coda un job fallito (404 se sconosciuto, 409 se non è fallito)',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (request) => {
      const outcome = await running().retry(request.params.id);
      if (outcome === 'notFound') throw new HttpError(404, jobMessages.notFound);
      if (outcome === 'notFailed') throw new HttpError(409, jobMessages.notFailed);
      return ok({ id: request.params.id }, jobMessages.retried);
    },
  );
}
