/**
 * `report-send`: builds a tenant's monthly PDF report and e-mails it as an attachment through the
 * outbox (sent after commit). Enqueued by `POST api/report/send`. Runs its work once: the outbox row
 * carries the job's id, so a second run of the same job (a retry after a crash between commit and
 * completion) finds it and sends nothing more.
 */
import { and, eq, sql } from 'drizzle-orm';
import { reportMessages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import { outbox } from '../../db/schema';
import { escapeHtml } from '../../lib/html';
import { periodLabel, renderReportPdf, reportFileName } from './report-pdf';
import { monthlyReport, REPORT_MONTH } from './report.service';
import type { UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import type { JobDefinition } from '../../jobs/engine';

export const REPORT_JOB = 'report-send';

export interface ReportJobData {
  tenantId: number;
  month: string;
  email: string;
}

export function reportJob(deps: { db: Database; uow: UnitOfWorkRunner }): JobDefinition {
  const { db, uow } = deps;
  return {
    name: REPORT_JOB,
    label: 'Invio del report mensile PDF',
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    async run(data, ctx) {
      const tenantId = Number(data.tenantId);
      const month = String(data.month ?? '');
      const email = String(data.email ?? '');
      if (!Number.isInteger(tenantId) || tenantId < 1) throw new Error('tenantId non valido');
      if (!REPORT_MONTH.test(month)) throw new Error('mese non valido');
      if (!email.includes('@')) throw new Error('email non valida');
      const key = `${REPORT_JOB}:${ctx.jobId}`;
      const [queued] = await db
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.tenantId, tenantId), sql`${outbox.payload}->>'idempotencyKey' = ${key}`))
        .limit(1);
      if (queued) return { sent: false, alreadyQueued: queued.id };
      const report = await monthlyReport(db, tenantId, month, uow.clock());
      const pdf = await renderReportPdf(report);
      const period = periodLabel(month);
      const filename = reportFileName(report.tenantName, month);
      await uow.run({ tenantId, actor: { kind: 'system', job: REPORT_JOB } }, (w) =>
        w.outbox.email({
          to: email,
          subject: reportMessages.mailSubject(report.tenantName, period),
          text: `Buongiorno,\n\nin allegato il report di ${period} di ${report.tenantName}: indicatori, grafici degli ultimi 12 mesi e sottoscrizioni del mese.\n`,
          html:
            `<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Report ${escapeHtml(period)}</title></head>` +
            `<body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5"><p>Buongiorno,</p>` +
            `<p>in allegato il report di <strong>${escapeHtml(period)}</strong> di ${escapeHtml(report.tenantName)}: indicatori, grafici degli ultimi 12 mesi e sottoscrizioni del mese.</p>` +
            `<p style="color:#64748b;font-size:12px">Rinnova: pagamenti ricorrenti e gestione abbonamenti</p></body></html>`,
          attachments: [{ filename, contentType: 'application/pdf', contentBase64: pdf.toString('base64') }],
          idempotencyKey: key,
        }),
      );
      return { sent: true, bytes: pdf.length };
    },
  };
}
