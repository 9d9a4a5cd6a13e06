import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serverMessages } from '../../../contract/messages';
import { associateFeaturesSchema } from '../../../contract/schemas/plan';
import type { Database } from '../../db/client';
import { planFeatures, plans } from '../../db/schema';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { tenantOf } from '../../plugins/request-context';
import { idParamsSchema } from '../../crud/list-query';
import { ADMINS } from '../../crud/roles';
import { planIframeCode } from './plan-iframe';
import { featuresOfPlans, planFeatureItem } from './plan.entity';

export interface PlanRoutesOptions {
  db: Database;
  /** Origin of the public widget the embed code points at (PUBLIC_URL). */
  publicUrl: () => string;
}

const planIdSchema = idParamsSchema.shape.id;
const access = { access: 'user', roles: ADMINS, tenant: 'required' } as const;
const tags = ['plan'];

/** The plan calls beyond the generic set: its feature list and its embed code. */
export function registerPlanRoutes(fastify: FastifyInstance, { db, publicUrl }: PlanRoutesOptions): void {
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
      const tenantId = tenantOf(request);
      const { planId } = request.params;
      const list = await db.transaction(async (tx) => {
        // Locking the plan serializes two concurrent replacements of the same list.
        const [plan] = await tx
          .select({ id: plans.id })
          .from(plans)
          .where(and(eq(plans.id, planId), eq(plans.tenantId, tenantId)))
          .for('update');
        if (!plan) throw new HttpError(404, serverMessages.notFound);
        await tx.delete(planFeatures).where(eq(planFeatures.planId, planId));
        if (request.body.length > 0) {
          await tx.insert(planFeatures).values(
            request.body.map((f) => ({
              tenantId,
              planId,
              featureName: f.featureName,
              description: f.description ?? null,
            })),
          );
        }
        return (await featuresOfPlans(tx, [planId])).get(planId) ?? [];
      });
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
      const [plan] = await db
        .select({ id: plans.id, name: plans.name })
        .from(plans)
        .where(and(eq(plans.id, request.query.planId), eq(plans.tenantId, tenantOf(request))));
      if (!plan) throw new HttpError(404, serverMessages.notFound);
      return reply.type('text/plain; charset=utf-8').send(planIframeCode(publicUrl(), plan));
    },
  );
}
