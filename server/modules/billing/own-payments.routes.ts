/**
 * The customer area's payment calls (issue 28), for a signed-in customer on their OWN
 * subscription in the `X-Tenant-Id` tenant (another customer's or tenant's id: 404):
 * - `POST api/user/me/subscriptions/{id}/pay`: 'Paga ora' — the transfer instructions of the
 *   payment due, or a fresh payment link;
 * - `POST api/user/me/subscriptions/{id}/paymentMethod {action}`: 'portal' (Stripe's billing
 *   portal, PayPal's automatic payments page) or 'bankTransfer' (from the next period);
 * - `GET api/user/me/subscriptions/{id}/charges` (issue 30): its one-off charges as the customer
 *   sees them.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rolesFor } from '../../../contract/access';
import { customerAreaMessages as m } from '../../../contract/messages';
import { ONE_OFF_COLLECT, ONE_OFF_STATUSES } from '../../../contract/schemas/one-off-charge';
import { paymentUrlOf } from '../../../contract/schemas/payment';
import { paymentMethodInputSchema } from '../../../contract/schemas/subscription';
import type { Database } from '../../db/client';
import { idParamsSchema } from '../../crud/list-query';
import { envelopeOf, ok } from '../../lib/envelope';
import { callerOf, tenantOf } from '../../plugins/request-context';
import type { ProviderRegistry } from '../../providers/registry';
import {
  dueOf,
  freshLink,
  ownCharges,
  providerPage,
  stopProviderRenewal,
  switchToBankTransfer,
  transferOf,
} from './own-payments.service';
import { couponPlanAtPayPal, paypalCouponTargetOfPayment } from './coupon-apply.service';

export interface OwnPaymentRoutesOptions {
  connectionFor: (tenantId: number) => Database;
  providers: ProviderRegistry;
  publicUrl: () => string;
  /** The app's clock (tests move it). */
  clock?: () => Date;
}

const tags = ['user'];
const romeDay = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const payNowSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('link'), paymentId: z.number(), url: z.string(), expiryDate: z.string() }),
  z.object({
    method: z.literal('bankTransfer'),
    paymentId: z.number(),
    beneficiary: z.string(),
    iban: z.string(),
    netToPay: z.number(),
    currency: z.literal('EUR'),
    causale: z.string(),
  }),
]);
/** Issue 30: `paymentId` names the payment to pay (an extra payment: a one-off charge's, a proration's). */
const payNowBodySchema = z
  .object({
    paymentId: z
      .number({ error: 'paymentId: indica un pagamento valido.' })
      .int({ error: 'paymentId: indica un pagamento valido.' })
      .positive({ error: 'paymentId: indica un pagamento valido.' })
      .max(2_147_483_647, { error: 'paymentId: indica un pagamento valido.' })
      .optional(),
  })
  .nullish();
const ownChargeSchema = z.object({
  id: z.number(),
  subscriptionId: z.number(),
  description: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  collect: z.enum(ONE_OFF_COLLECT),
  status: z.enum(ONE_OFF_STATUSES),
  amountDue: z.number().nullable(),
  paymentId: z.number().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  invoice: z
    .object({
      id: z.number(),
      number: z.string(),
      documentType: z.enum(['TD01', 'TD04']),
      fileName: z.string(),
    })
    .nullable(),
  payable: z.boolean(),
});
const paymentMethodAnswerSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('portal'), provider: z.enum(['stripe', 'paypal']), url: z.string() }),
  z.object({
    action: z.literal('bankTransfer'),
    nextBillingDate: z.string(),
    paymentId: z.number(),
    changed: z.boolean(),
  }),
]);

export function registerOwnPaymentRoutes(
  fastify: FastifyInstance,
  { connectionFor, providers, publicUrl, clock = () => new Date() }: OwnPaymentRoutesOptions,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const scopeOf = (tenantId: number) => ({ tenantId, tx: connectionFor(tenantId) });

  app.post(
    '/api/user/me/subscriptions/:id/pay',
    {
      config: { access: 'user', roles: rolesFor('customerArea', 'pay'), tenant: 'required' },
      schema: {
        tags,
        summary:
          'Paga ora (area clienti): per il pagamento in attesa di una propria sottoscrizione (NotActive o BankTransferPending, o ActiveNoRenewal che si rinnova con bonifico oltre la data di rinnovo, o in prova; oppure paymentId: un addebito una tantum o un conguaglio, con carta se il tenant ha Stripe) i dati del bonifico (beneficiario, IBAN, netToPay, causale) se si paga con bonifico, altrimenti un nuovo link di pagamento (1 ora; nessun nuovo pagamento). 409 se non c’è nulla da pagare; 404 per sottoscrizioni di altri',
        params: idParamsSchema,
        body: payNowBodySchema,
        response: { 200: envelopeOf(payNowSchema) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const userId = callerOf(request).userId;
      const { id } = request.params;
      const chosenId = request.body?.paymentId;
      const due = await dueOf(scopeOf(tenantId), id, userId, clock(), chosenId);
      if (due.byTransfer) return ok(await transferOf(scopeOf(tenantId), due.payment), m.transferInstructions);
      // A payment discounted by a coupon on a plan PayPal charges (issue 30): the coupon's own PayPal
      // plan first, outside the unit (a failure is a 502 and no link is made).
      const target = await request.unitOfWork((w) => paypalCouponTargetOfPayment(w, due.payment.id));
      const couponPlan = target
        ? {
            paymentId: target.paymentId,
            planId: await couponPlanAtPayPal({ providers }, tenantId, target),
            amountCents: target.discountedCents,
          }
        : null;
      const { paymentId, link } = await request.unitOfWork((w) =>
        freshLink(w, id, userId, couponPlan, chosenId),
      );
      return ok(
        {
          method: 'link' as const,
          paymentId,
          url: paymentUrlOf(publicUrl(), link.token),
          expiryDate: link.expiresAt.toISOString(),
        },
        m.payLinkReady,
      );
    },
  );

  app.get(
    '/api/user/me/subscriptions/:id/charges',
    {
      config: { access: 'user', roles: rolesFor('customerArea', 'read'), tenant: 'required' },
      schema: {
        tags,
        summary:
          'Addebiti una tantum di una propria sottoscrizione (area clienti), dal più recente, senza gli eliminati: stato, importo con IVA, fattura se pagato, payable se si paga ora. 404 per sottoscrizioni di altri; solo per i clienti',
        params: idParamsSchema,
        response: { 200: envelopeOf(z.array(ownChargeSchema)) },
      },
    },
    async (request) =>
      ok(await ownCharges(scopeOf(tenantOf(request)), request.params.id, callerOf(request).userId)),
  );

  app.post(
    '/api/user/me/subscriptions/:id/paymentMethod',
    {
      config: { access: 'user', roles: rolesFor('customerArea', 'paymentMethod'), tenant: 'required' },
      schema: {
        tags,
        summary:
          'Metodo di pagamento (area clienti) di una propria sottoscrizione: action portal → data.url (Stripe: sessione del portale di fatturazione; PayPal: pagamenti automatici su PayPal); action bankTransfer → dal prossimo periodo con bonifico (rinnovo presso il fornitore annullato a fine periodo; un errore del fornitore non cambia nulla; idempotente). 404 per sottoscrizioni di altri',
        params: idParamsSchema,
        body: paymentMethodInputSchema,
        response: { 200: envelopeOf(paymentMethodAnswerSchema) },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request);
      const userId = callerOf(request).userId;
      const { id } = request.params;
      if (request.body.action === 'portal') {
        const page = await providerPage(
          { providers, returnUrl: `${publicUrl().replace(/\/+$/, '')}/` },
          scopeOf(tenantId),
          id,
          userId,
        );
        return ok({ action: 'portal' as const, ...page });
      }
      await stopProviderRenewal({ providers }, scopeOf(tenantId), id, userId);
      const done = await request.unitOfWork((w) => switchToBankTransfer(w, id, userId));
      const from = romeDay.format(done.nextBillingDate);
      return ok(
        {
          action: 'bankTransfer' as const,
          nextBillingDate: done.nextBillingDate.toISOString(),
          paymentId: done.paymentId,
          changed: done.changed,
        },
        done.changed ? m.switchedToBankTransfer(from) : m.alreadyBankTransfer(from),
      );
    },
  );
}
