/**
 * The public API's subscription calls (/api/v1, a tenant's API key): a customer's subscriptions
 * (`read` scope) and their cancel (`write` scope), through the state machine like an Admin's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { billingMessages, integrationMessages as m, serverMessages } from '../../../contract/messages';
import { requiredId } from '../../../contract/schemas/common';
import { v1CustomerQuery } from '../../../contract/schemas/integrations';
import { SubscriptionStatus, subscriptionStatusNames } from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import { customerOf } from '../../db/customers';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { tenantOf } from '../../plugins/request-context';
import type { UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { subscriptionOf, subscriptionsOf } from './api-v1.service';
import { cancelUnlessCanceled } from './subscription.service';

export interface ApiV1SubscriptionOptions {
  /** The key's tenant's database (db/tenancy): its customers and subscriptions. */
  connectionFor: (tenantId: number) => Database;
  uow: UnitOfWorkRunner;
  /**
   * The provider's cancel of an Active subscription (PayPal or Stripe), run before the unit of
   * work and outside it, as for an Admin's cancel: if the provider fails nothing changes.
   */
  beforeCancel?: (tenantId: number, subscriptionId: number) => Promise<void>;
}

export function registerApiV1SubscriptionRoutes(
  fastify: FastifyInstance,
  options: ApiV1SubscriptionOptions,
): void {
  const { connectionFor, uow, beforeCancel } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const idParams = z.object({ id: requiredId });
  const v1Tags = ['v1'];
  const customerQuery = v1CustomerQuery;

  app.get(
    '/api/v1/subscriptions',
    {
      config: { access: 'tenantKey', apiKeyScope: 'read' },
      schema: {
        tags: v1Tags,
        security: [{ tenantKey: [] }],
        summary: 'Le sottoscrizioni del cliente, dalla più recente (ambito read)',
        querystring: customerQuery,
        response: {
          200: envelopeOf(
            z.array(
              z.object({
                id: z.number(),
                status: z.string(),
                planId: z.number(),
                planName: z.string(),
                startDate: z.string(),
                nextBillingDate: z.string(),
              }),
            ),
          ),
        },
      },
    },
    async (request) => {
      const db = connectionFor(tenantOf(request));
      const customer = await customerOf(db, request, request.query);
      if (!customer) throw new HttpError(404, serverMessages.notFound);
      return ok(await subscriptionsOf(db, tenantOf(request), customer.id));
    },
  );

  const apiSubscription = z.object({
    id: z.number(),
    status: z.string(),
    planId: z.number(),
    planName: z.string(),
    startDate: z.string(),
    nextBillingDate: z.string(),
  });

  app.post(
    '/api/v1/subscriptions/:id/cancel',
    {
      config: { access: 'tenantKey', apiKeyScope: 'write' },
      schema: {
        tags: v1Tags,
        security: [{ tenantKey: [] }],
        summary: 'Cancella una sottoscrizione attiva, prima presso il fornitore di pagamento (ambito write)',
        description: [
          'Come la cancellazione di un Admin: la sottoscrizione `Active` è cancellata prima presso PayPal o Stripe, poi in Rinnova passa a `Canceled` (con la voce nella cronologia, attore: la chiave API, e il webhook `subscription.canceled`). Se il fornitore non risponde non cambia nulla (502).',
          '',
          'Ripetere la chiamata su una sottoscrizione già cancellata risponde 200 con la sottoscrizione com’è, senza scrivere nulla né chiamare il fornitore. Da un altro stato la macchina a stati rifiuta: 409 con il motivo in italiano. 404 se la sottoscrizione non è del tenant della chiave.',
          '',
          '```sh',
          "curl -X POST -H 'Authorization: Bearer rnv_live_…' 'https://rinnova.example/api/v1/subscriptions/42/cancel'",
          '```',
          '',
          '```js',
          'const res = await fetch(`https://rinnova.example/api/v1/subscriptions/${id}/cancel`, {',
          "  method: 'POST',",
          '  headers: { Authorization: `Bearer ${process.env.RINNOVA_API_KEY}` },',
          '});',
          "const { data, message } = await res.json(); // data.status === 'Canceled'",
          '```',
        ].join('\n'),
        params: idParams,
        response: { 200: envelopeOf(apiSubscription) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const key = request.apiKey;
      if (!key) throw new HttpError(401, m.keyInvalid);
      const { id } = request.params;
      const db = connectionFor(tenantId);
      const current = await subscriptionOf(db, tenantId, id);
      if (!current) throw new HttpError(404, serverMessages.notFound);
      // A replay: already cancelled, nothing to do (no provider call, nothing written).
      if (current.status === subscriptionStatusNames[SubscriptionStatus.Canceled])
        return ok(current, billingMessages.canceled);
      if (beforeCancel) await beforeCancel(tenantId, id);
      await uow.run({ tenantId, actor: { kind: 'apiKey', keyId: key.id } }, (w) =>
        cancelUnlessCanceled(w, id),
      );
      const after = await subscriptionOf(db, tenantId, id);
      if (!after) throw new HttpError(404, serverMessages.notFound);
      return ok(after, billingMessages.canceled);
    },
  );
}
