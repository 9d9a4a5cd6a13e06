import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rolesFor } from '../../../contract/access';
import { customerAreaMessages } from '../../../contract/messages';
import { customerBillingInputSchema, type CustomerBilling } from '../../../contract/schemas/user';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import { callerOf, tenantOf } from '../../plugins/request-context';
import { ownRecord, saveOwnBilling } from './own-billing.service';

export interface OwnBillingRoutesOptions {
  connectionFor: (tenantId: number) => Database;
}

const tags = ['user'];
const ref = z.object({ id: z.number(), name: z.string() });
const customerBillingSchema: z.ZodType<CustomerBilling> = z.object({
  id: z.number(),
  name: z.string().nullable(),
  email: z.string(),
  isCompany: z.boolean(),
  fiscalCode: z.string().nullable(),
  vatCode: z.string().nullable(),
  countryCode: z.string(),
  billingCity: z.string().nullable(),
  sdi: z.string().nullable(),
  pec: z.string().nullable(),
  phone: z.string().nullable(),
  billingAddress: z
    .object({
      street: z.string().nullable(),
      zip: z.string().nullable(),
      regionId: z.number().nullable(),
      region: ref.nullable(),
      provinceId: z.number().nullable(),
      province: ref.extend({ abbreviation: z.string() }).nullable(),
      municipalityId: z.number().nullable(),
      municipality: ref.nullable(),
    })
    .nullable(),
});

/**
 * 'Dati di fatturazione' of the customer area (issue 28): the caller's own record in the
 * `X-Tenant-Id` tenant, read and saved. No id travels: another customer's or tenant's record is
 * unreachable. Saving publishes `customer.billingDataChanged` as user Update does, so the invoices
 * waiting for these data are issued in the same unit, and the answer counts them.
 */
export function registerOwnBillingRoutes(
  fastify: FastifyInstance,
  { connectionFor }: OwnBillingRoutesOptions,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/user/me/billing',
    {
      config: { access: 'user', roles: rolesFor('customerBilling', 'read'), tenant: 'required' },
      schema: {
        tags,
        summary:
          'Dati di fatturazione del chiamante nel fornitore (X-Tenant-Id): il proprio record soltanto; 404 se non ne è membro',
        response: { 200: envelopeOf(customerBillingSchema) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      return ok(await ownRecord(connectionFor(tenantId), tenantId, callerOf(request).userId));
    },
  );

  app.put(
    '/api/user/me/billing',
    {
      config: { access: 'user', roles: rolesFor('customerBilling', 'edit'), tenant: 'required' },
      schema: {
        tags,
        summary:
          'Salva i propri dati di fatturazione (privato o azienda, codice fiscale, Partita IVA, SDI o PEC, indirizzo) e emette subito le fatture in attesa: data.issued quante, data.waiting quante ancora in attesa',
        body: customerBillingInputSchema,
        response: {
          200: envelopeOf(
            z.object({ customer: customerBillingSchema, issued: z.number(), waiting: z.number() }),
          ),
        },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const userId = callerOf(request).userId;
      const input = request.body;
      const counts = await request.unitOfWork((w) => saveOwnBilling(w, userId, input), 'both');
      const customer = await ownRecord(connectionFor(tenantId), tenantId, userId);
      return ok({ customer, ...counts }, customerAreaMessages.billingSaved(counts.issued, counts.waiting));
    },
  );
}
