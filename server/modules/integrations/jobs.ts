/**
 * The integrations' jobs (issue 15): outbound webhook deliveries (enqueued after the commit of a
 * unit that wrote some, and every minute for the retries that are due) and the 30-day purge of
 * the API request log, in the control database and every tenant's own database.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { JobDefinition } from '../../jobs/engine';
import { purgeRequestLog } from './request-log';
import { WEBHOOK_JOB } from './webhook-transport';
import { type WebhookSender } from './webhook-sender';

export const INTEGRATION_JOB_NAMES = {
  webhookDeliveries: WEBHOOK_JOB,
  requestLogPurge: 'api-request-log-purge',
} as const;

export function integrationJobs(deps: {
  db: Database;
  sender: WebhookSender;
  now: () => Date;
  /** The tenants' own databases, purged too (db/tenancy); absent: the control database only. */
  tenantDatabases?: () => Promise<Database[]>;
  log?: FastifyBaseLogger;
}): JobDefinition[] {
  return [
    {
      name: INTEGRATION_JOB_NAMES.webhookDeliveries,
      label: 'Consegna dei webhook in uscita (e nuovi tentativi)',
      cron: '* * * * *',
      retryLimit: 2,
      retryDelaySeconds: 30,
      retryBackoff: true,
      // After a commit: the tenant's database only; every minute (no tenant): every database.
      run: (data) =>
        deps.sender.deliverDue(typeof data.tenantId === 'number' ? { tenantId: data.tenantId } : {}),
    },
    {
      name: INTEGRATION_JOB_NAMES.requestLogPurge,
      label: 'Pulizia del registro delle chiamate API (30 giorni)',
      cron: '20 3 * * *',
      retryLimit: 3,
      retryDelaySeconds: 60,
      retryBackoff: true,
      run: async () => ({
        removed: await purgeRequestLog(deps.db, deps.now(), {
          ...(deps.tenantDatabases ? { tenantDatabases: deps.tenantDatabases } : {}),
          ...(deps.log ? { log: deps.log } : {}),
        }),
      }),
    },
  ];
}
