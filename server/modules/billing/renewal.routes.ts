import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rolesFor } from '../../../contract/access';
import { renewalMessages, renewalStopInputSchema, type OwnRenewal } from '../../../contract/schemas/renewal';
import { subscriptionStatusIds } from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import { idParamsSchema } from '../../crud/list-query';
import { envelopeOf, ok } from '../../lib/envelope';
import { callerOf, tenantOf } from '../../plugins/request-context';
import type { UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { ownRenewals, resumeOwnRenewal, romeDate, stopOwnRenewal, type RenewalDeps } from './renewal.service';

export interface RenewalRoutesOptions extends RenewalDeps {
  connectionFor: (tenantId: number) => Database;
  uow: UnitOfWorkRunner;
}

const tags = ['user'];
const renewalSchema: z.ZodType<OwnRenewal> = z.object({
  subscriptionId: z.number(),
  status: z.literal(subscriptionStatusIds),
  renewal: z.enum(['on', 'stopped', 'none']),
  endsAt: z.string(),
  stoppedAt: z.string().nullable(),
  reason: z.string().nullable(),
  canResume: z.boolean(),
});

/**
 * 'Disattiva il rinnovo' of the customer area (issue 28): a customer (role User) turns the renewal
 * of their own subscription in the `X-Tenant-Id` tenant off and back on. Another customer's or
 * another tenant's id is the same 404 as an unknown one (renewal.service.ts).
 */
export function registerRenewalRoutes(fastify: FastifyInstance, options: RenewalRoutesOptions) {
  const { connectionFor, uow } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const config = {
    access: 'user',
    roles: rolesFor('customerArea', 'renewal'),
    tenant: 'required',
  } as const;

  app.get(
    '/api/user/me/subscriptions/renewal',
    {
      config,
      schema: {
        tags,
        summary:
          'Il rinnovo di ciascuna delle proprie sottoscrizioni nel fornitore (X-Tenant-Id): on (si rinnova), stopped (disattivato dal cliente: attiva fino a endsAt, canResume prima di allora), none',
        response: { 200: envelopeOf(z.object({ items: z.array(renewalSchema) })) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const items = await ownRenewals(
        { tenantId, tx: connectionFor(tenantId) },
        callerOf(request).userId,
        uow.clock(),
      );
      return ok({ items });
    },
  );

  app.post(
    '/api/user/me/subscriptions/:id/cancelRenewal',
    {
      config,
      schema: {
        tags,
        summary:
          'Disattiva il rinnovo di una propria sottoscrizione Active ({reason, note?}; «other» vuole la nota): il fornitore smette di rinnovare a fine periodo pagato, la sottoscrizione diventa ActiveNoRenewal e resta attiva fino alla prossima fatturazione. Una seconda chiamata non fa nulla; 404 per una sottoscrizione non propria; 409 se non è attiva; 502 se il fornitore fallisce (nulla cambia)',
        params: idParamsSchema,
        body: renewalStopInputSchema,
        response: { 200: envelopeOf(renewalSchema) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const { renewal } = await stopOwnRenewal(
        options,
        { tenantId, tx: connectionFor(tenantId) },
        (work) => request.unitOfWork(work),
        uow.clock(),
        callerOf(request).userId,
        request.params.id,
        request.body,
        (message, error) => request.log.error({ err: error }, message),
      );
      return ok(renewal, renewalMessages.stopped(romeDate(new Date(renewal.endsAt))));
    },
  );

  app.post(
    '/api/user/me/subscriptions/:id/resumeRenewal',
    {
      config,
      schema: {
        tags,
        summary:
          'Riattiva il rinnovo che il cliente aveva disattivato, prima della prossima fatturazione: ActiveNoRenewal → Active (anche presso il fornitore). Una seconda chiamata non fa nulla; 404 per una sottoscrizione non propria; 409 dopo la data o per un abbonamento a bonifico',
        params: idParamsSchema,
        response: { 200: envelopeOf(renewalSchema) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const { renewal } = await resumeOwnRenewal(
        options,
        { tenantId, tx: connectionFor(tenantId) },
        (work) => request.unitOfWork(work),
        uow.clock(),
        callerOf(request).userId,
        request.params.id,
        (message, error) => request.log.error({ err: error }, message),
      );
      return ok(renewal, renewalMessages.resumed);
    },
  );
}
