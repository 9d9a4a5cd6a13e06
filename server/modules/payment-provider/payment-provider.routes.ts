import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import { activePublicKeysOf, paypalClientIdOf } from './payment-provider.service';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { perIp } from '../../plugins/rate-limit';
import { idParamsSchema } from '../../crud/list-query';

/**
 * `GET api/paymentprovider/GetPayPalSettingsByTenant/{tenantId}`: public (x-api-key only), for
 * the payment page. Answers only the PayPal client id, which PayPal's browser SDK needs and which
 * is public by design. The tenant's provider named like 'paypal' wins, else its first provider.
 */
export function registerPaymentProviderRoutes(
  fastify: FastifyInstance,
  {
    connectionFor,
    rateLimit,
    sdkBaseUrl,
  }: {
    /** The tenant's database (db/tenancy). */
    connectionFor: (tenantId: number) => Database;
    rateLimit: { windowMs: number; publicLookup: number };
    /** PAYPAL_FAKE: where the payment page loads the fake PayPal SDK from. */
    sdkBaseUrl?: () => string | undefined;
  },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/paymentprovider/GetPayPalSettingsByTenant/:tenantId',
    {
      // Public and unauthenticated: limited per IP so tenant ids can't be swept cheaply.
      config: { access: 'appKey', rateLimit: perIp(rateLimit.publicLookup, rateLimit.windowMs) },
      schema: {
        tags: ['paymentprovider'],
        summary: 'Pubblica: il Client ID PayPal del tenant (mai il secret); 404 se non configurato',
        security: [{ apiKey: [] }],
        params: z.object({ tenantId: idParamsSchema.shape.id }),
        response: { 200: envelopeOf(z.object({ apiKey: z.string(), sdkBaseUrl: z.string().optional() })) },
      },
    },
    async (request) => {
      const provider = await paypalClientIdOf(
        connectionFor(request.params.tenantId),
        request.params.tenantId,
      );
      if (!provider) throw new HttpError(404, messages.payment.paypalNotConfigured);
      const fake = sdkBaseUrl?.();
      return ok({ apiKey: provider.apiKey, ...(fake ? { sdkBaseUrl: fake } : {}) });
    },
  );

  app.get(
    '/api/paymentprovider/GetPublicSettingsByTenant/:tenantId',
    {
      config: { access: 'appKey', rateLimit: perIp(rateLimit.publicLookup, rateLimit.windowMs) },
      schema: {
        tags: ['paymentprovider'],
        summary:
          'Pubblica: le chiavi pubbliche dei fornitori attivi del tenant (Client ID PayPal, chiave pubblicabile Stripe), mai un secret; null per un fornitore assente',
        security: [{ apiKey: [] }],
        params: z.object({ tenantId: idParamsSchema.shape.id }),
        // Only these fields can leave: the schema drops anything else a query might select.
        response: {
          200: envelopeOf(
            z.object({
              paypal: z.object({ apiKey: z.string(), sdkBaseUrl: z.string().optional() }).nullable(),
              stripe: z.object({ publishableKey: z.string() }).nullable(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const rows = await activePublicKeysOf(connectionFor(request.params.tenantId), request.params.tenantId);
      const paypal = rows.find((r) => r.kind === 'paypal');
      const stripe = rows.find((r) => r.kind === 'stripe');
      const fake = sdkBaseUrl?.();
      return ok({
        paypal: paypal ? { apiKey: paypal.apiKey, ...(fake ? { sdkBaseUrl: fake } : {}) } : null,
        stripe: stripe ? { publishableKey: stripe.apiKey } : null,
      });
    },
  );
}
