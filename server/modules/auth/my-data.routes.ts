import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rolesFor } from '../../../contract/access';
import { romeCalendarDay } from '../../../contract/billing-dates';
import { customerAreaMessages } from '../../../contract/messages';
import { myDataFileName, myDataFormats } from '../../../contract/schemas/my-data';
import type { Database } from '../../db/client';
import { callerOf } from '../../plugins/request-context';
import { renderMyDataPdf } from './my-data-pdf';
import { collectMyData } from './my-data.service';

export interface MyDataRoutesOptions {
  /** The control database. */
  db: Database;
  connectionFor: (tenantId: number) => Database;
  clock: () => Date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * 'I miei dati' (issue 28; GDPR art. 15 right of access, art. 20 portability): `GET
 * api/user/me/data?format=json|pdf` downloads everything Rinnova holds about the signed-in person,
 * across every tenant they belong to (each tenant's part from its own database). No id travels
 * and no tenant is needed: the caller's own data only. Not rate-limited, as the other signed-in
 * downloads (report PDF, exports): one read per tenant of the person's own rows.
 */
export function registerMyDataRoutes(
  fastify: FastifyInstance,
  { db, connectionFor, clock }: MyDataRoutesOptions,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/user/me/data',
    {
      config: { access: 'user', roles: rolesFor('myData', 'read') },
      schema: {
        tags: ['user'],
        summary:
          'I miei dati (GDPR art. 15 e 20): scarica tutto ciò che Rinnova conserva sul chiamante, in ogni fornitore di cui è membro, come JSON (contract/schemas/my-data.ts) o PDF; mai password, segreti o dati di altre persone',
        querystring: z.object({
          format: z.enum(myDataFormats, { error: customerAreaMessages.myDataFormatInvalid }).default('json'),
        }),
      },
    },
    async (request, reply) => {
      const now = clock();
      const data = await collectMyData({ db, connectionFor }, callerOf(request).userId, now);
      const d = romeCalendarDay(now);
      const day = `${d.year}-${pad(d.month)}-${pad(d.day)}`;
      const format = request.query.format;
      const body =
        format === 'pdf'
          ? await renderMyDataPdf(data)
          : Buffer.from(`${JSON.stringify(data, null, 2)}\n`, 'utf8');
      return reply
        .header('content-type', format === 'pdf' ? 'application/pdf' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${myDataFileName(day, format)}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );
}
