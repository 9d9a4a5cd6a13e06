/**
 * The monthly report (issue 14), Admin and SuperAdmin, tenant-scoped:
 * - `GET api/report/pdf?month=YYYY-MM` downloads the PDF (default: the current Rome month);
 * - `POST api/report/send { month, email }` enqueues the `report-send` job, which e-mails it.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jobMessages, reportMessages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import type { JobEngine } from '../../jobs/engine';
import { REPORT_JOB } from './report-job';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { tenantOf } from '../../plugins/request-context';
import { ADMINS } from '../../../contract/access';
import { renderReportPdf, reportFileName } from './report-pdf';
import { currentMonth, monthlyReport, REPORT_MONTH } from './report.service';

const admins = { access: 'user', roles: ADMINS, tenant: 'required' } as const;
const tags = ['report'];
const monthField = z.string().trim().regex(REPORT_MONTH, reportMessages.monthInvalid);

export function registerReportRoutes(
  fastify: FastifyInstance,
  options: { connectionFor: (tenantId: number) => Database; clock: () => Date; jobs: JobEngine | null },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const monthOf = (month: string | undefined, now: Date): string => {
    const chosen = month ?? currentMonth(now);
    if (chosen > currentMonth(now))
      throw new HttpError(400, reportMessages.monthFuture, {
        errors: [`month: ${reportMessages.monthFuture}`],
      });
    return chosen;
  };

  app.get(
    '/api/report/pdf',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Il report mensile PDF del tenant (mese AAAA-MM, Europe/Rome; predefinito il mese corrente): indicatori con le definizioni, grafici di 12 mesi, abbonamenti per piano, nuove, perse e in attesa di bonifico',
        querystring: z.object({ month: monthField.optional() }),
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request);
      const now = options.clock();
      const month = monthOf(request.query.month, now);
      const report = await monthlyReport(options.connectionFor(tenantId), tenantId, month, now);
      const pdf = await renderReportPdf(report);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${reportFileName(report.tenantName, month)}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.post(
    '/api/report/send',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Accoda l’invio per email del report mensile PDF (job report-send, tramite la outbox)',
        body: z.object({
          month: monthField.optional(),
          email: z.string().trim().toLowerCase().max(254).pipe(z.email(reportMessages.emailInvalid)),
        }),
        response: { 200: envelopeOf(z.object({ jobId: z.string(), month: z.string() })) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const month = monthOf(request.body.month, options.clock());
      if (!options.jobs) throw new HttpError(503, jobMessages.engineOff);
      const jobId = await options.jobs.enqueue(REPORT_JOB, { tenantId, month, email: request.body.email });
      if (!jobId) throw new HttpError(409, jobMessages.notQueued);
      return ok({ jobId, month }, reportMessages.queued(request.body.email));
    },
  );
}
