import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serverMessages } from '../../../contract/messages';
import { associateFeaturesSchema } from '../../../contract/schemas/plan';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import { tenantOf } from '../../plugins/request-context';
import { idParamsSchema } from '../../crud/list-query';
import { ADMINS } from '../../../contract/access';
import { planIframeCode } from './plan-iframe';
import { planFeatureItem } from './plan.entity';
import { planOfTenant, replacePlanFeatures } from './plan.service';

export interface PlanRoutesOptions {
  /** The tenant's database (db/tenancy). */
  connectionFor: (tenantId: number) => Database;
  /** Origin of the public widget the embed code points at (PUBLIC_URL). */
  publicUrl: () => string;
}

const planIdSchema = idParamsSchema.shape.id;
const access = { access: 'user', roles: ADMINS, tenant: 'required' } as const;
const tags = ['plan'];

/** The plan calls beyond the generic set: its feature list and its embed code. */
export function registerPlanRoutes(
  fastify: FastifyInstance,
  { connectionFor, publicUrl }: PlanRoutesOptions,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/plan/associateFeatures/:planId',
    {
      config: access,
      schema: {
        tags,
        summary: 'Sostituisce le funzionalità del piano con la lista inviata ([] le rimuove tutte)',
        params: z.object({ planId: planIdSchema }),
        body: associateFeaturesSchema,
        response: { 200: envelopeOf(z.array(planFeatureItem)) },
      },
    },
    async (request) => {
      const list = await request.unitOfWork((w) =>
        replacePlanFeatures(w, request.params.planId, request.body),
      );
      return ok(list, serverMessages.ok);
    },
  );

  app.get(
    '/api/plan/iframe',
    {
      config: access,
      schema: {
        tags,
        summary: `Codice di incorporamento (text/plain) del widget pubblico del piano`,
        querystring: z.object({ planId: planIdSchema }),
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request);
      const plan = await planOfTenant(connectionFor(tenantId), tenantId, request.query.planId);
      return reply.type('text/plain; charset=utf-8').send(planIframeCode(publicUrl(), plan));
    },
  );
}
