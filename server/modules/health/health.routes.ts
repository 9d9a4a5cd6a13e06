import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';

const status = z.object({ status: z.enum(['ok', 'down']) });

/**
 * Up or down, for load balancers and probes: no API key, no sign-in, and nothing but the status
 * (no version, clock or database details). 200 `{ status: 'ok' }` when the database answers,
 * otherwise 503 `{ status: 'down' }`.
 */
export function registerHealthRoutes(fastify: FastifyInstance, db: Database): void {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Stato del servizio (senza chiave API): 200 ok, 503 down',
        security: [],
        response: { 200: envelopeOf(status), 503: envelopeOf(status) },
      },
    },
    async (request, reply) => {
      try {
        await db.execute(sql`select 1`);
        return ok({ status: 'ok' as const });
      } catch (error) {
        request.log.error({ err: error }, 'health: database non raggiungibile');
        return reply.code(503).send({ success: false, message: null, data: { status: 'down' as const } });
      }
    },
  );
}
