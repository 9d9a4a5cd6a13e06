/**
 * The calls of getting paid: payment links (Admin), the public payment page's token check and
 * payment, PayPal sync, PayPal webhooks, the plan widget and 'Sincronizza con PayPal' on a plan;
 * and Stripe's (issue 16): Checkout Session, its confirmation, sync, webhooks, plan sync.
 * Public calls are limited per IP; webhooks need no x-api-key (PayPal cannot send one) and are
 * trusted only after PayPal's signature check.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { couponMessages, messages, serverMessages } from '../../../contract/messages';
import { couponQuoteSchema, paymentCouponSchema } from '../../../contract/schemas/coupon-apply';
import { applyPaymentCoupon, couponPlanAtPayPal, paypalCouponTargetOfPayment } from './coupon-apply.service';
import {
  createPaymentTokenSchema,
  paymentUrlOf,
  stripeCheckoutSchema,
  stripeConfirmSchema,
  subscribeConfirmSchema,
  subscribeSchema,
  updatePaymentSchema,
} from '../../../contract/schemas/payment';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { callerOf, tenantOf } from '../../plugins/request-context';
import { perIp } from '../../plugins/rate-limit';
import type { ProviderRegistry } from '../../providers/registry';
import type { UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { idParamsSchema } from '../../crud/list-query';
import { ADMINS } from '../../../contract/access';
import { applyWebhookEvent, parseWebhookEvent, payWithToken } from './paypal-billing.service';
import { syncPaypal, syncProvider } from './provider-sync';
import {
  applyStripeEvent,
  confirmStripeCheckout,
  createStripeCheckout,
  stripeMessages,
  syncPlanWithStripe,
} from './stripe-billing.service';
import type { PublicHome } from '../../db/tenancy/public-home';
import { createPaymentLink, paymentMessages, validatePaymentToken } from './payment-token.service';
import { planWidgetView, syncPlanWithPaypal, widgetMessages } from './widget-and-plans.service';
import { confirmSubscription, requestSubscription, widgetRequestMessages } from './widget-requests.service';

export interface PaymentRoutesOptions {
  uow: UnitOfWorkRunner;
  providers: ProviderRegistry;
  connectionFor: (tenantId: number) => Database;
  home: PublicHome;
  publicUrl: () => string;
  rateLimit: { windowMs: number; publicLookup: number; webhook: number; webhookPerTenant: number };
  /** WIDGET_DAILY_CAP: the plan widget's requests per tenant and plan in 24 hours. */
  widgetDailyCap: number;
}

/**
 * What a provider webhook answers. A delivery that cannot be trusted gets `unverified` whatever
 * the reason (unknown tenant, provider or webhook id or signing secret not configured, secret
 * unreadable, no signature, wrong signature): a stranger learns nothing of a tenant's setup. The
 * reason goes to the log.
 */
export const webhookMessages = {
  unverified: 'Firma del webhook non valida: evento ignorato.',
  malformed: 'Evento webhook non valido.',
  received: 'Evento ricevuto.',
  duplicate: 'Evento già ricevuto.',
} as const;

/** The headers PayPal signs a delivery with: without them there is nothing to ask PayPal about. */
const PAYPAL_SIGNATURE_HEADERS = [
  'paypal-auth-algo',
  'paypal-cert-url',
  'paypal-transmission-id',
  'paypal-transmission-sig',
  'paypal-transmission-time',
] as const;

function unverified(request: FastifyRequest, provider: string, reason: string): HttpError {
  request.log.info(
    { provider, tenantId: (request.params as { tenantId?: number }).tenantId, reason },
    'webhook rifiutato',
  );
  return new HttpError(400, webhookMessages.unverified);
}

/** A provider lookup whose refusals (409: no secret, secret unreadable, address not official) read as "none". */
async function orNone<T>(lookup: Promise<T | null>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof HttpError) return null;
    throw error;
  }
}

const admins = { access: 'user', roles: ADMINS, tenant: 'required' } as const;

const tokenViewSchema = z.object({
  id: z.number(),
  token: z.string(),
  expiryDate: z.string(),
  status: z.number(),
  userId: z.number(),
  planId: z.number(),
  amount: z.number(),
  currency: z.literal('EUR'),
  paymentId: z.number(),
  selectedPaymentProviderId: z.number().nullable(),
  tenantID: z.number(),
  paymentProviderPlanId: z.string(),
  providerSubscriptionId: z.string().nullable(),
  tenantName: z.string(),
  plan: z.object({
    name: z.string(),
    recurrenceType: z.number(),
    recurrenceTypeName: z.string(),
    features: z.array(z.string()),
  }),
  costBeforeVAT: z.number(),
  vatPercentage: z.number(),
  coupon: couponQuoteSchema.nullable().optional(),
  extra: z
    .object({ kind: z.enum(['oneOff', 'proration']), description: z.string() })
    .nullable()
    .optional(),
  paymentProviderKind: z.enum(['paypal', 'stripe']).nullable().optional(),
  creditUsed: z.number().optional(),
});

export function registerPaymentRoutes(fastify: FastifyInstance, options: PaymentRoutesOptions): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { uow, providers, connectionFor, home, publicUrl, rateLimit } = options;
  const deps = { uow, providers, connectionFor, home };
  const stripeDeps = { ...deps, publicUrl };
  const widgetDeps = {
    uow,
    home,
    publicUrl,
    dailyCap: options.widgetDailyCap,
    applyCoupon: (token: string, couponCode: string, preview?: boolean) =>
      applyPaymentCoupon(deps, { token, couponCode, preview }),
  };
  const publicLimit = perIp(rateLimit.publicLookup, rateLimit.windowMs);
  // PayPal webhook verifications per tenant and window (each one is a call to PayPal).
  const paypalVerifications = new RateLimiterMemory({
    points: rateLimit.webhookPerTenant,
    duration: Math.max(1, Math.round(rateLimit.windowMs / 1000)),
  });

  app.post(
    '/api/PaymentToken/create',
    {
      config: admins,
      schema: {
        tags: ['PaymentToken'],
        summary:
          'Link di pagamento (1 ora, EUR) del pagamento di una sottoscrizione NotActive; ritira i link precedenti dello stesso pagamento',
        body: createPaymentTokenSchema,
        response: {
          200: envelopeOf(z.object({ token: z.string(), expiryDate: z.string(), paymentUrl: z.string() })),
        },
      },
    },
    async (request) => {
      // A payment discounted by a coupon, on a plan PayPal charges (issue 30): the coupon's own
      // PayPal plan first, outside the unit (a failure is a 502 and no link is made).
      const { paymentId } = request.body;
      const target = await request.unitOfWork((w) => paypalCouponTargetOfPayment(w, paymentId));
      const paypalCouponPlan = target
        ? {
            planId: await couponPlanAtPayPal(deps, tenantOf(request), target),
            amountCents: target.discountedCents,
          }
        : null;
      const link = await request.unitOfWork((w) => createPaymentLink(w, paymentId, { paypalCouponPlan }));
      return ok(
        {
          token: link.token,
          expiryDate: link.expiresAt.toISOString(),
          paymentUrl: paymentUrlOf(publicUrl(), link.token),
        },
        paymentMessages.linkCreated,
      );
    },
  );

  app.get(
    '/api/PaymentToken/validate',
    {
      config: { access: 'appKey', rateLimit: publicLimit },
      schema: {
        tags: ['PaymentToken'],
        summary:
          'Pubblica: il token del link di pagamento finché è attivo e non scaduto, altrimenti success false',
        security: [{ apiKey: [] }],
        querystring: z.object({ token: z.string().trim().max(200).optional() }),
        response: { 200: envelopeOf(tokenViewSchema.nullable()) },
      },
    },
    async (request, reply) => {
      const token = request.query.token;
      if (!token) throw new HttpError(400, messages.payment.tokenMissing);
      const view = await validatePaymentToken(home.ofToken(token), token, uow.clock());
      if (!view) return reply.send({ success: false, message: messages.payment.tokenInvalid, data: null });
      return ok(view);
    },
  );

  app.put(
    '/api/Payment/updatePayment',
    {
      config: { access: 'appKey', rateLimit: publicLimit },
      schema: {
        tags: ['Payment'],
        summary:
          'Pubblica (con il token): verifica la sottoscrizione con PayPal; ACTIVE: token usato, pagamento pagato, sottoscrizione attiva; APPROVED (primo addebito non ancora preso): result pending, il pagamento si registra quando PayPal la attiva. Ripetere con lo stesso token e ID non cambia nulla',
        security: [{ apiKey: [] }],
        body: updatePaymentSchema,
        response: { 200: envelopeOf(z.object({ result: z.enum(['paid', 'replayed', 'pending']) })) },
      },
    },
    async (request) => {
      const result = await payWithToken(deps, request.body);
      return ok({ result }, result === 'pending' ? paymentMessages.pending : paymentMessages.paid);
    },
  );

  app.post(
    '/api/Payment/coupon',
    {
      config: { access: 'appKey', rateLimit: publicLimit },
      schema: {
        tags: ['Payment'],
        summary:
          'Pubblica (con il token, «Hai un codice sconto?»): con preview true solo il ricalcolo; senza, il coupon è riscattato una volta e il pagamento del link chiede l’importo scontato. Lo stesso codice di nuovo risponde quanto applicato; codice errato 400 su couponCode (Coupon non valido, scaduto, esaurito, non valido per questo piano)',
        security: [{ apiKey: [] }],
        body: paymentCouponSchema,
        response: { 200: envelopeOf(couponQuoteSchema) },
      },
    },
    async (request) => {
      const quote = await applyPaymentCoupon(deps, request.body);
      return ok(quote, quote.applied ? couponMessages.applied(quote.code) : serverMessages.ok);
    },
  );

  app.post(
    '/api/subscription/sync-paypal',
    {
      config: admins,
      schema: {
        tags: ['subscription'],
        summary:
          'Legge da PayPal ogni sottoscrizione del tenant e applica ACTIVE → Active, SUSPENDED → NotActive, CANCELLED/EXPIRED → Canceled; data = quante sono cambiate',
        response: { 200: envelopeOf(z.number()) },
      },
    },
    async (request) => {
      const result = await syncPaypal(deps, tenantOf(request), { by: callerOf(request).email });
      return ok(result.changed, messages.subscription.syncDone(result.changed));
    },
  );

  app.post(
    '/api/webhooks/paypal/:tenantId',
    {
      config: { access: 'public', rateLimit: perIp(rateLimit.webhook, rateLimit.windowMs) },
      schema: {
        tags: ['webhooks'],
        summary:
          'Webhook PayPal del tenant (senza x-api-key): verificato con la firma PayPal (400, la stessa risposta qualunque sia il motivo), verifiche limitate per tenant (429), idempotente per tenant e ID evento',
        params: z.object({ tenantId: idParamsSchema.shape.id }),
        response: {
          200: envelopeOf(z.object({ eventId: z.string(), outcome: z.string() })),
        },
      },
    },
    async (request) => {
      const { tenantId } = request.params;
      const event = parseWebhookEvent(request.body);
      if (!event) throw new HttpError(400, webhookMessages.malformed);
      // Unsigned: refused without a call to PayPal.
      if (PAYPAL_SIGNATURE_HEADERS.some((name) => !request.headers[name]))
        throw unverified(request, 'paypal', 'firma assente');
      // Each signed delivery costs a call to PayPal: limited per tenant, whether or not the
      // tenant exists or has a webhook id (the answer says nothing of either).
      const allowed = await paypalVerifications.consume(`paypal:${tenantId}`).then(
        () => null,
        (refusal: unknown) => refusal,
      );
      if (allowed !== null) {
        const ms = (allowed as { msBeforeNext?: number }).msBeforeNext ?? rateLimit.windowMs;
        throw new HttpError(429, serverMessages.rateLimited, {
          headers: { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) },
        });
      }
      const provider = await orNone(providers.findPaypal(tenantId));
      if (!provider?.webhookId) throw unverified(request, 'paypal', 'PayPal o ID webhook non configurati');
      const verified = await provider.adapter.verifyWebhook(
        { headers: request.headers, event: request.body },
        provider.webhookId,
      );
      if (!verified) throw unverified(request, 'paypal', 'firma non confermata da PayPal');
      const result = await applyWebhookEvent(deps, tenantId, event);
      request.log.info(
        { eventId: event.id, type: event.event_type, outcome: result.outcome },
        'webhook PayPal',
      );
      return ok(
        { eventId: event.id, outcome: result.outcome },
        result.outcome === 'duplicate' ? webhookMessages.duplicate : webhookMessages.received,
      );
    },
  );

  app.get(
    '/api/plan/widget',
    {
      config: { access: 'appKey', rateLimit: publicLimit },
      schema: {
        tags: ['plan'],
        summary:
          'Pubblica: nome, funzionalità, prezzo con IVA e periodo di un piano attivo (il widget incorporabile)',
        security: [{ apiKey: [] }],
        querystring: z.object({ planId: idParamsSchema.shape.id }),
      },
    },
    async (request) =>
      ok(await planWidgetView(await home.ofPlan(request.query.planId), request.query.planId, uow.clock())),
  );

  app.post(
    '/api/subscription/subscribe',
    {
      config: { access: 'appKey', rateLimit: publicLimit },
      schema: {
        tags: ['subscription'],
        summary:
          'Pubblica (widget del piano): non crea nulla; invia all’email un link di conferma (1 ora, una sola volta) e risponde data.confirmationSent, la stessa risposta chiunque sia il titolare dell’email. Una richiesta aperta per (email, piano): una seconda rimanda il link o risponde lo stesso. Piano inattivo o sconosciuto → 404, non acquistabile online → 409, oltre WIDGET_DAILY_CAP richieste in 24 ore per piano → 429',
        security: [{ apiKey: [] }],
        body: subscribeSchema,
        response: { 200: envelopeOf(z.object({ confirmationSent: z.literal(true) })) },
      },
    },
    async (request) => {
      await requestSubscription(widgetDeps, request.body);
      return ok({ confirmationSent: true as const }, widgetRequestMessages.sent);
    },
  );

  app.post(
    '/api/subscription/subscribe/confirm',
    {
      config: { access: 'appKey', rateLimit: publicLimit },
      schema: {
        tags: ['subscription'],
        summary:
          'Pubblica (il link dell’email del widget aperto): trova, collega o crea il cliente, crea la sottoscrizione NotActive con il pagamento e risponde data.paymentUrl (result created). Riaperto: la stessa pagina di pagamento finché il suo link è valido (result replayed), poi 409 used. Link sconosciuto 400 invalid, scaduto 400 expired, email di un account dello staff 409 notAllowed, piano non più in vendita 409 unavailable (data.reason); un rifiuto non cambia nulla. data.trialEndsAt: fine della prova gratuita avviata (o null); data.amount: importo del primo pagamento (con il coupon applicato); data.coupon: il codice del widget e, se non applicato, perché (errore del campo come Create)',
        security: [{ apiKey: [] }],
        body: subscribeConfirmSchema,
        response: {
          200: envelopeOf(
            z.object({
              paymentUrl: z.string(),
              result: z.enum(['created', 'replayed']),
              trialEndsAt: z.string().nullable(),
              amount: z.number(),
              coupon: z.object({ code: z.string(), error: z.string().nullable() }).nullable(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const answer = await confirmSubscription(widgetDeps, request.body.token);
      return ok(
        answer,
        answer.result === 'created' ? widgetRequestMessages.confirmed : widgetRequestMessages.replayed,
      );
    },
  );

  app.post(
    '/api/plan/syncPaypal/:planId',
    {
      config: admins,
      schema: {
        tags: ['plan'],
        summary:
          'Crea su PayPal il prodotto (una volta) e un piano di fatturazione (mesi × ricorrenza, prezzo con IVA, EUR) e ne salva gli ID',
        params: z.object({ planId: idParamsSchema.shape.id }),
        response: { 200: envelopeOf(z.object({ paypalPlanId: z.string(), paypalProductId: z.string() })) },
      },
    },
    async (request) =>
      ok(
        await syncPlanWithPaypal(deps, tenantOf(request), request.params.planId, (work) =>
          request.unitOfWork(work),
        ),
        widgetMessages.planSynced,
      ),
  );

  app.post(
    '/api/Payment/stripe/checkout',
    {
      config: { access: 'appKey', rateLimit: publicLimit },
      schema: {
        tags: ['Payment'],
        summary:
          'Pubblica (con il token): crea la sessione Stripe Checkout in modalità abbonamento al prezzo Stripe del piano; data.url è la pagina di Stripe',
        security: [{ apiKey: [] }],
        body: stripeCheckoutSchema,
        response: { 200: envelopeOf(z.object({ url: z.string(), sessionId: z.string() })) },
      },
    },
    async (request) =>
      ok(await createStripeCheckout(stripeDeps, request.body.token), stripeMessages.checkoutCreated),
  );

  app.put(
    '/api/Payment/stripe/confirm',
    {
      config: { access: 'appKey', rateLimit: publicLimit },
      schema: {
        tags: ['Payment'],
        summary:
          'Pubblica (ritorno da Stripe): legge la sessione su Stripe (completata, pagata, sottoscrizione attiva del piano), poi token usato, pagamento pagato, sottoscrizione attiva. Ripetere non cambia nulla',
        security: [{ apiKey: [] }],
        body: stripeConfirmSchema,
        response: { 200: envelopeOf(z.object({ result: z.enum(['paid', 'replayed']) })) },
      },
    },
    async (request) => {
      const result = await confirmStripeCheckout(deps, request.body);
      return ok({ result }, paymentMessages.paid);
    },
  );

  app.post(
    '/api/subscription/sync-stripe',
    {
      config: admins,
      schema: {
        tags: ['subscription'],
        summary:
          'Legge da Stripe ogni sottoscrizione Stripe del tenant e applica active → Active, unpaid/paused → NotActive (past_due no: Stripe ritenta, decidono i solleciti), canceled → Canceled; data = quante sono cambiate',
        response: { 200: envelopeOf(z.number()) },
      },
    },
    async (request) => {
      const result = await syncProvider(deps, tenantOf(request), 'stripe', { by: callerOf(request).email });
      return ok(result.changed, messages.subscription.syncStripeDone(result.changed));
    },
  );

  app.post(
    '/api/plan/syncStripe/:planId',
    {
      config: admins,
      schema: {
        tags: ['plan'],
        summary:
          'Crea su Stripe il prodotto (una volta) e un prezzo ricorrente (mesi × ricorrenza, prezzo con IVA, EUR) e ne salva l’ID in stripePlanId',
        params: z.object({ planId: idParamsSchema.shape.id }),
        response: { 200: envelopeOf(z.object({ stripePlanId: z.string(), stripeProductId: z.string() })) },
      },
    },
    async (request) =>
      ok(
        await syncPlanWithStripe(deps, tenantOf(request), request.params.planId, (work) =>
          request.unitOfWork(work),
        ),
        stripeMessages.planSynced,
      ),
  );

  // Stripe signs the body's bytes: this route (alone) keeps them raw.
  fastify.register(async (child) => {
    child.removeContentTypeParser('application/json');
    child.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    child.withTypeProvider<ZodTypeProvider>().post(
      '/api/webhooks/stripe/:tenantId',
      {
        config: { access: 'public', rateLimit: perIp(rateLimit.webhook, rateLimit.windowMs) },
        schema: {
          tags: ['webhooks'],
          summary:
            'Webhook Stripe del tenant (senza x-api-key): firma verificata sul corpo grezzo con il segreto di firma (400, la stessa risposta qualunque sia il motivo), idempotente per tenant e ID evento',
          params: z.object({ tenantId: idParamsSchema.shape.id }),
          response: {
            200: envelopeOf(z.object({ eventId: z.string(), outcome: z.string() })),
          },
        },
      },
      async (request) => {
        const { tenantId } = request.params;
        const raw = request.body;
        if (!Buffer.isBuffer(raw) || raw.length === 0) throw new HttpError(400, webhookMessages.malformed);
        const signature = request.headers['stripe-signature'];
        if (!signature) throw unverified(request, 'stripe', 'firma assente');
        // Checked offline with the tenant's signing secret: one answer whether the tenant, its
        // Stripe or its secret exist or not (issue 31).
        const provider = await orNone(providers.findStripe(tenantId));
        const event =
          provider?.adapter.parseWebhook(raw, Array.isArray(signature) ? signature[0] : signature) ?? null;
        if (!event)
          throw unverified(
            request,
            'stripe',
            provider ? 'firma non valida' : 'Stripe o segreto di firma non configurati',
          );
        const result = await applyStripeEvent(deps, tenantId, event);
        request.log.info({ eventId: event.id, type: event.type, outcome: result.outcome }, 'webhook Stripe');
        return ok(
          { eventId: event.id, outcome: result.outcome },
          result.outcome === 'duplicate' ? webhookMessages.duplicate : webhookMessages.received,
        );
      },
    );
  });
}
