import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';

/** Liveness and database reachability. Needs the API key like every /api call, no sign-in. */
export function registerHealthRoutes(fastify: FastifyInstance, db: Database): void {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        security: [{ apiKey: [] }],
        response: {
          200: envelopeOf(z.object({ status: z.literal('ok'), database: z.literal('ok'), time: z.string() })),
        },
      },
    },
    async () => {
      await db.execute(sql`select 1`);
      return ok({ status: 'ok' as const, database: 'ok' as const, time: new Date().toISOString() });
    },
  );
}
