/** `GET api/dashboard/summary` (api-contract 'Calls beyond the product spec'): Admin and SuperAdmin, tenant-scoped. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardSummarySchema } from '../../../contract/schemas/dashboard';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import { tenantOf } from '../../plugins/request-context';
import { ADMINS } from '../../../contract/access';
import { dashboardSummary } from './dashboard.service';

export function registerDashboardRoutes(
  fastify: FastifyInstance,
  options: { connectionFor: (tenantId: number) => Database; clock: () => Date },
): void {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/api/dashboard/summary',
    {
      config: { access: 'user', roles: ADMINS, tenant: 'required' },
      schema: {
        tags: ['dashboard'],
        summary:
          'Indicatori e grafici della dashboard, calcolati dai dati del tenant per i 12 mesi (Europe/Rome) che finiscono con il mese corrente. ' +
          'Importi in centesimi di euro, IVA esclusa. Attive = stato Active o ActiveNoRenewal. ' +
          'MRR = Σ delle sottoscrizioni attive di (costo IVA esclusa ÷ mesi di ricorrenza del piano), arrotondato al centesimo sul totale. ' +
          'Fatturato del mese = pagamenti incassati nel mese, IVA esclusa. Nuove = passaggi a uno stato attivo nel mese; churn = uscite da uno stato attivo nel mese. ' +
          'Attive a fine mese (per il mese corrente: adesso). Churn rate = churn del mese corrente ÷ (attive + quel churn) × 100, una cifra decimale. ' +
          'Variazione mensile = (attive ora − attive a fine mese precedente) ÷ attive a fine mese precedente × 100, due decimali (null senza attive il mese prima). ' +
          'Nuovi clienti = clienti la cui prima attivazione (di qualunque loro sottoscrizione) è in questo mese.',
        response: { 200: envelopeOf(dashboardSummarySchema) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      return ok(await dashboardSummary({ tenantId, tx: options.connectionFor(tenantId) }, options.clock()));
    },
  );
}
