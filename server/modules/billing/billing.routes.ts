/**
 * Subscription and bank-transfer calls (product spec §7, api-contract 'Billing calls'). Reads run
 * on the tenant's connection; every write runs in one unit of work whose actor is the signed-in
 * person. Status changes are command routes over the state machine.
 */
import { collectionStatusIds } from '../../../contract/schemas/collection';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countLimitFor } from '../../../contract/envelope';
import { fromCents } from '../../../contract/money';
import { Role, type RoleId } from '../../../contract/enums';
import { billingMessages, couponMessages, messages, serverMessages } from '../../../contract/messages';
import { applyCouponSchema, couponQuoteSchema } from '../../../contract/schemas/coupon-apply';
import {
  applyCouponToSubscription,
  couponInEffect,
  couponsInEffect,
  stripeCouponTarget,
  type StripeCouponTarget,
} from './coupon-apply.service';
import {
  bankTransferInputSchema,
  subscriptionCreateSchema,
  subscriptionQuoteSchema,
  subscriptionUpdateSchema,
  type BankTransfer,
  type Subscription,
} from '../../../contract/schemas/subscription';
import { recurrenceTypeIds } from '../../../contract/schemas/plan';
import {
  isSubscriptionStatusId,
  subscriptionStatusLabels,
  subscriptionActions,
  subscriptionStatusIds,
  type SubscriptionStatusId,
} from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { callerOf, tenantOf } from '../../plugins/request-context';
import type { UnitOfWork, UnitOfWorkRunner, TenantScope } from '../../unit-of-work/unit-of-work';
import {
  EXPORT_BATCH_SIZE,
  exportFileName,
  keysetBatches,
  exportQuerySchema,
  sendExport,
} from '../../crud/export';
import type { ExportSpec } from '../../crud/export-spec';
import { idParamsSchema, listQuerySchema } from '../../crud/list-query';
import { tenantNameOf } from '../../crud/tenant-name';
import { bindExport } from '../../crud/list-binding';
import { subscriptionList } from '../../../contract/lists/subscription';
import { ADMINS, rolesFor } from '../../../contract/access';
import {
  countSubscriptions,
  historyOf,
  loadSubscriptions,
  pageOfSubscriptionIds,
  subscriptionExportBatch,
  type SubscriptionExportRow,
  type SubscriptionListFilter,
} from './billing.repository';
import {
  bankTransferExportBatch,
  createBankTransfer,
  deleteBankTransfer,
  listBankTransfers,
  updateBankTransfer,
} from './bank-transfer.service';
import {
  bankTransferInstructions,
  cancelSubscription,
  confirmBankTransfer,
  createSubscription,
  quoteSubscription,
  setPaymentWithBankTransfer,
  updateSubscription,
} from './subscription.service';
import { quoteSchema, toQuote } from '../../../contract/invoice/quote';
import { changePlanMessages, changePlanSchema, type ChangePlanBody } from '../../../contract/proration';
import {
  cancelScheduledPlanChange,
  checkPlanChangeCancel,
  makePlanChange,
  ownPlanChange,
  plansOfferedTo,
  preparePlanChange,
  scheduledPlanChangeOf,
} from './plan-change.service';
import {
  PAUSE_ENTITLEMENTS,
  pauseMessages,
  pauseSchema,
  type PauseInput,
} from '../../../contract/schemas/pause';
import type { ProviderKind } from '../../providers/payment-provider';
import { endPause, makePause, ownPauseAllowed, preparePause, prepareResume, romeDate } from './pause.service';
import {
  ONE_OFF_COLLECT,
  ONE_OFF_STATUSES,
  oneOffChargeSchema,
  oneOffMessages,
} from '../../../contract/schemas/one-off-charge';
import { createOneOffCharge, deleteOneOffCharge, listOneOffCharges } from './one-off-charge.service';
import { creditBalance, creditSetOffFor } from './subscription-credit';
import type { ProviderPlanChange } from './plan-change.provider';
import {
  paypalCouponApprovalOf,
  paypalCouponApprovalsOf,
  paypalCouponTexts,
  type PayPalCouponPending,
} from './paypal-coupon-revise';
import {
  paypalPlanChangeApprovalOf,
  paypalPlanChangeApprovalsOf,
  type PayPalPlanRevision,
} from './paypal-plan-change';

const planChangeLineSchema = z.object({
  description: z.string(),
  amount: z.number(),
  periodStart: z.string(),
  periodEnd: z.string(),
});
/** `data` of changePlan: the preview's figures (as quote answers them) and, when made, what was written. */
const planChangeResultSchema = z.object({
  effective: z.enum(['now', 'renewal', 'date']),
  effectiveDay: z.string(),
  fromPlan: z.object({ id: z.number(), name: z.string() }),
  toPlan: z.object({ id: z.number(), name: z.string() }),
  periodStart: z.string(),
  periodEnd: z.string(),
  totalDays: z.number(),
  unusedDays: z.number(),
  credit: quoteSchema.nullable(),
  charge: quoteSchema.nullable(),
  lines: z.array(planChangeLineSchema),
  netToPay: z.number(),
  residualCredit: z.number(),
  nextPeriod: quoteSchema,
  /** The billing date once made (moved by a change between recurrences), and whether it changes. */
  nextBillingDate: z.string(),
  recurrenceChanges: z.boolean(),
  /** Absent in a preview; 'applied' (now) or 'scheduled' (renewal or a later day) when made. */
  status: z.enum(['applied', 'scheduled']).optional(),
  planChangeId: z.number().optional(),
  prorationPaymentId: z.number().nullable().optional(),
  creditNote: z.object({ id: z.number(), number: z.string() }).nullable().optional(),
  /** A PayPal subscription (issue 30): the revise's approve link the customer must open, or null. */
  paypalApproveUrl: z.string().nullable().optional(),
});

export interface BillingRoutesOptions {
  /** The connection of a tenant's data (one shared database today). */
  connectionFor: (tenantId: number) => Database;
  uow: UnitOfWorkRunner;
  /** Runs before the cancel's unit of work, outside it: the provider's cancel (payment module). */
  beforeCancel?: (tenantId: number, subscriptionId: number) => Promise<void>;
  /**
   * Runs before a plan change's unit of work, outside it, once the change is checked (issue 30):
   * the provider's side (Stripe subscription update, PayPal revision). A failure throws (502) and
   * nothing changes in Rinnova; see plan-change.provider.ts.
   */
  changePlanAtProvider?: (tenantId: number, change: ProviderPlanChange) => Promise<PayPalPlanRevision | null>;
  /**
   * Issue 30, 'Sospendi incasso' / 'Riprendi ora': the provider's side, before the unit and
   * outside it (pause.service.ts). A failure throws (502) and nothing changes in Rinnova.
   */
  pauseAtProvider?: (
    tenantId: number,
    subscriptionId: number,
    target: { kind: ProviderKind; id: string },
    move: { kind: 'pause'; until: Date } | { kind: 'resume'; key: string },
  ) => Promise<void>;
  /** 'Applica coupon' on a Stripe-charged subscription (issue 30): Stripe first, outside the unit. */
  couponAtStripe?: (tenantId: number, target: StripeCouponTarget) => Promise<void>;
  /**
   * 'Applica coupon' on a PayPal-charged subscription (issue 30): the coupon's PayPal plan and the
   * revise first, outside the unit; the customer approves it on PayPal (paypal-coupon-revise.ts).
   * Null: PayPal does not charge it.
   */
  couponAtPayPal?: (
    tenantId: number,
    subscriptionId: number,
    code: string,
    run: <T>(fn: (w: UnitOfWork) => Promise<T>) => Promise<T>,
  ) => Promise<PayPalCouponPending | null>;
  /** The read-back when the customer returns from PayPal: answers whether the coupon was redeemed. */
  checkPayPalCoupon?: (
    tenantId: number,
    subscriptionId: number,
    run: <T>(fn: (w: UnitOfWork) => Promise<T>) => Promise<T>,
  ) => Promise<boolean>;
  /** The read-back of a plan change waiting for the customer's approval at PayPal (issue 30). */
  checkPayPalPlanChange?: (
    tenantId: number,
    subscriptionId: number,
    run: <T>(fn: (w: UnitOfWork) => Promise<T>) => Promise<T>,
  ) => Promise<boolean>;
  /**
   * Deleting a 'Con il prossimo pagamento' charge of a Stripe subscription (issue 30): its invoice
   * item removed at Stripe first, outside the unit (a failure is a 502 and nothing changes).
   */
  beforeChargeDelete?: (tenantId: number, subscriptionId: number, chargeId: number) => Promise<void>;
}

const MAX_ID = 2_147_483_647;
const paymentSchema = z.object({
  id: z.number(),
  amountDue: z.number(),
  currency: z.literal('EUR'),
  approvedAmount: z.number(),
  transferredAmount: z.number(),
  providerSubscriptionId: z.string().nullable(),
  method: z.enum(['bankTransfer', 'paypal', 'stripe']).nullable(),
  causale: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  paidAt: z.string().nullable(),
  dueDate: z.string(),
  collectionStatus: z.enum(collectionStatusIds),
  extra: z.enum(['oneOff', 'proration']).nullable().optional(),
});
const statusSchema = z.literal(subscriptionStatusIds);
const historySchema = z.object({
  id: z.number(),
  event: z.string(),
  fromStatus: statusSchema.nullable(),
  toStatus: statusSchema,
  actor: z.object({
    kind: z.enum(['user', 'paymentToken', 'provider', 'system', 'apiKey']),
    id: z.string().nullable(),
    name: z.string().nullable(),
  }),
  reason: z.string().nullable(),
  at: z.string(),
});
const pauseItemSchema = z.object({
  from: z.string(),
  until: z.string(),
  periods: z.number(),
  entitlements: z.enum(PAUSE_ENTITLEMENTS),
});
export const subscriptionItemSchema = z.object({
  id: z.number(),
  userID: z.number(),
  planID: z.number(),
  user: z.object({ id: z.number(), name: z.string().nullable(), email: z.string() }),
  plan: z.object({
    id: z.number(),
    name: z.string(),
    recurrenceType: z.literal(recurrenceTypeIds),
    recurrenceTypeName: z.string(),
    recurringCostBeforeVAT: z.number(),
    vatPercentage: z.number(),
  }),
  startDate: z.string(),
  nextBillingDate: z.string(),
  subscriptionStatus: statusSchema,
  subscriptionStatusName: z.string(),
  trialEndsAt: z.string().nullable().optional(),
  trialState: z.enum(['running', 'converted', 'expired']).nullable().optional(),
  costBeforeVAT: z.number(),
  vatPercentage: z.number(),
  amountDue: z.number(),
  currency: z.literal('EUR'),
  payments: z.array(paymentSchema),
  allowedActions: z.array(
    z.enum(['paymentLink', 'setBankTransfer', 'manageBankTransfers', 'confirmActivation', 'cancel']),
  ),
  createdAt: z.string(),
  history: z.array(historySchema).optional(),
  /** GetById only (issue 30): the plan change waiting for its day, or null. */
  scheduledPlanChange: z
    .object({
      id: z.number(),
      planId: z.number(),
      planName: z.string(),
      effectiveAt: z.string(),
      effectiveDay: z.string(),
      when: z.enum(['renewal', 'date']),
    })
    .nullable()
    .optional(),
  pause: pauseItemSchema.nullable().optional(),
  creditBalance: z.number().optional(),
  creditSetOff: z.boolean().optional(),
  coupon: couponQuoteSchema.nullable().optional(),
  paypalCouponApproval: z
    .object({
      code: z.string(),
      approveUrl: z.string(),
      amount: z.number(),
      fullAmount: z.number(),
      periods: z.number().nullable(),
      expiresAt: z.string().optional(),
    })
    .nullable()
    .optional(),
  paypalPlanChangeApproval: z
    .object({
      planChangeId: z.number(),
      planName: z.string(),
      approveUrl: z.string(),
      amount: z.number(),
      fullAmount: z.number(),
    })
    .nullable()
    .optional(),
});
const bankTransferItemSchema = z.object({
  id: z.number(),
  paymentId: z.number(),
  amount: z.number(),
  approvalDate: z.string().nullable(),
  createdAt: z.string(),
});
const instructionsSchema = z.object({
  beneficiary: z.string(),
  iban: z.string(),
  amountDue: z.number(),
  currency: z.literal('EUR'),
  causale: z.string(),
});

const anyone = { access: 'user', tenant: 'required' } as const;
const admins = { access: 'user', roles: ADMINS, tenant: 'required' } as const;
/** The customer's own 'Cambia piano' (issue 30; the tenant's setting decides, per request). */
const customerPlanChange = {
  access: 'user',
  roles: rolesFor('customerArea', 'planChange'),
  tenant: 'required',
} as const;
/** The customer's own 'Sospendi incasso' (issue 30; the tenant's `customerPause` decides, per request). */
const customerPause = {
  access: 'user',
  roles: rolesFor('customerArea', 'pause'),
  tenant: 'required',
} as const;
/** The customer chooses only how many periods: their features are suspended meanwhile. */
const ownPauseSchema = pauseSchema.pick({ periods: true });
/** What the customer may choose: whether the tenant allows it, and the plans offered. */
const ownPlanOptionsSchema = z.object({
  allowed: z.boolean(),
  plans: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      recurringCostBeforeVAT: z.number(),
      /** The net to pay of one period for this customer (their fiscal profile), VAT included. */
      price: z.number(),
      /** The plan's recurrence: another than the subscription's starts a new period when changed. */
      recurrenceTypeName: z.string(),
    }),
  ),
});

/** The list's columns (contract/lists/subscription), plus the customer's e-mail, read off the export's rows. */
export const subscriptionExport = bindExport<SubscriptionExportRow, typeof subscriptionList>(
  subscriptionList,
  {
    'user.name': (s) => s.customerName ?? s.customerEmail,
    'user.email': (s) => s.customerEmail,
    'plan.name': (s) => s.planName,
    amountDue: (s) => fromCents(s.amountDueCents),
    startDate: (s) => s.startDate,
    nextBillingDate: (s) => s.nextBillingDate,
    subscriptionStatus: (s) => subscriptionStatusLabels[s.status],
    renewalStopReason: (s) => s.renewalStopReason,
    renewalStoppedAt: (s) => s.renewalStoppedAt,
  },
);

/** The list's rows, newest first, in keyset batches (ids below the last one sent). */
export function subscriptionBatches(
  scope: TenantScope,
  filter: SubscriptionListFilter,
  size = EXPORT_BATCH_SIZE,
): AsyncGenerator<SubscriptionExportRow[]> {
  return keysetBatches(
    (after, limit) =>
      subscriptionExportBatch(scope, after ? { ...filter, beforeId: after.id } : filter, limit),
    size,
  );
}

const bankTransferExport: ExportSpec<z.output<typeof bankTransferItemSchema>> = {
  fileName: 'bonifici',
  columns: [
    { header: 'Pagamento', type: 'integer', value: (b) => b.paymentId },
    { header: 'Importo (€)', type: 'money', value: (b) => b.amount },
    { header: 'Data di approvazione', type: 'date', value: (b) => b.approvalDate },
    { header: 'Registrato il', type: 'datetime', value: (b) => b.createdAt },
  ],
};

/** The list spec's filter keys, lower-cased (the query's keys match case-insensitively). */
const acceptedFilters = Object.keys(subscriptionList.filterKinds).map((k) => k.toLowerCase());

/** `filters[status]`, `filters[planId]`, `filters[userId]`, `filters[overdue]=true|false` (keys case-insensitive; unknown → 400). */
function subscriptionFilter(
  query: Pick<z.output<typeof listQuerySchema>, 'filters' | 'searchTerm'>,
): SubscriptionListFilter {
  const filter: SubscriptionListFilter = {};
  const errors: string[] = [];
  for (const [rawKey, rawValue] of Object.entries(query.filters ?? {})) {
    const value = (Array.isArray(rawValue) ? rawValue[rawValue.length - 1] : rawValue)?.trim() ?? '';
    const key = rawKey.toLowerCase();
    if (!acceptedFilters.includes(key)) {
      errors.push(`filters.${rawKey}: filtro non supportato`);
      continue;
    }
    if (value === '') continue;
    if (key === 'overdue') {
      if (value === 'true' || value === 'false') filter.overdue = value === 'true';
      else errors.push(`filters.${rawKey}: valore non valido (true o false)`);
      continue;
    }
    const n = Number(value);
    if (!/^\d{1,10}$/.test(value) || n < 1 || n > MAX_ID) {
      errors.push(`filters.${rawKey}: ${serverMessages.invalidId}`);
      continue;
    }
    if (key === 'planid') filter.planId = n;
    else if (key === 'userid') filter.userId = n;
    else if (isSubscriptionStatusId(n)) filter.status = n as SubscriptionStatusId;
    else errors.push(`filters.${rawKey}: stato non valido (da 1 a 5)`);
  }
  if (errors.length > 0) throw new HttpError(400, serverMessages.validation, { errors });
  if (query.searchTerm) filter.searchTerm = query.searchTerm;
  return filter;
}

export function registerBillingRoutes(
  fastify: FastifyInstance,
  {
    connectionFor,
    uow,
    beforeCancel,
    changePlanAtProvider,
    pauseAtProvider,
    beforeChargeDelete,
    couponAtStripe,
    couponAtPayPal,
    checkPayPalCoupon,
    checkPayPalPlanChange,
  }: BillingRoutesOptions,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  const readScope = (request: FastifyRequest): TenantScope => {
    const tenantId = tenantOf(request);
    return { tenantId, tx: connectionFor(tenantId) };
  };
  /** A User (role 3) reaches only their own subscriptions. */
  const ownOnly = (request: FastifyRequest): number | undefined => {
    const auth = callerOf(request);
    return auth.roleId === Role.User ? auth.userId : undefined;
  };
  const withActions =
    (roleId: RoleId) =>
    (s: Omit<Subscription, 'allowedActions'>): Subscription => {
      const first = s.payments[0];
      return {
        ...s,
        allowedActions: subscriptionActions(
          {
            subscriptionStatus: s.subscriptionStatus,
            firstPayment: first
              ? {
                  providerSubscriptionId: first.providerSubscriptionId,
                  amountDue: first.amountDue,
                  approvedAmount: first.approvedAmount,
                }
              : null,
          },
          roleId,
        ),
      };
    };

  async function readOne(request: FastifyRequest, id: number, withHistory: boolean): Promise<Subscription> {
    const scope = readScope(request);
    const own = ownOnly(request);
    const [item] = await loadSubscriptions(scope, [id]);
    if (!item || (own !== undefined && item.userID !== own))
      throw new HttpError(404, serverMessages.notFound);
    const full = withActions(callerOf(request).roleId)(item);
    if (!withHistory) return full;
    return {
      ...full,
      history: await historyOf(scope, id, own),
      scheduledPlanChange: await scheduledPlanChangeOf(scope, id),
      coupon: await couponInEffect(scope, id),
      paypalCouponApproval: await paypalCouponApprovalOf(scope, id, uow.clock()),
      paypalPlanChangeApproval: await paypalPlanChangeApprovalOf(scope, id),
      creditBalance: fromCents(await creditBalance(scope, id)),
      creditSetOff: await creditSetOffFor(scope, id),
    };
  }

  const tags = ['subscription'];
  const itemEnvelope = envelopeOf(subscriptionItemSchema);
  const idParams = idParamsSchema;

  app.get(
    '/api/subscription/getAll',
    {
      config: anyone,
      schema: {
        tags,
        summary:
          'Sottoscrizioni del tenant, dalla più recente; filtri status (1–5), planId, userId e searchTerm (cliente o piano). ' +
          'Paging a pagine (page) o a cursore (afterId = nextAfterId della risposta precedente: le righe dopo quella, senza OFFSET, stabili mentre se ne aggiungono)',
        querystring: listQuerySchema.extend({ afterId: idParamsSchema.shape.id.optional() }),
        response: {
          200: envelopeOf(
            z.object({
              items: z.array(subscriptionItemSchema),
              totalCount: z.number(),
              totalCountCapped: z.literal(true).optional(),
              nextAfterId: z.number().nullable(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const scope = readScope(request);
      const filter = subscriptionFilter(request.query);
      const own = ownOnly(request);
      if (own !== undefined) {
        if (filter.userId !== undefined && filter.userId !== own)
          return ok({ items: [], totalCount: 0, nextAfterId: null });
        filter.userId = own;
      }
      const { page, pageSize, afterId } = request.query;
      // A cursor reads the rows after the given id (newest first) on the list's index; the count
      // stays the whole filtered list's, capped as for page 1.
      const skipped = afterId === undefined ? (page - 1) * pageSize : 0;
      const limit = countLimitFor(skipped);
      // The page (OFFSET, or after the cursor) and the count side by side on two connections: a
      // count of up to 10,000 rows on the list's index costs less than numbering them in the page's
      // own query.
      const [ids, counted] = await Promise.all([
        pageOfSubscriptionIds(
          scope,
          afterId === undefined ? filter : { ...filter, beforeId: afterId },
          pageSize,
          skipped,
        ),
        countSubscriptions(scope, filter, limit),
      ]);
      const listed = (await loadSubscriptions(scope, ids)).map(withActions(callerOf(request).roleId));
      // A customer's own few subscriptions (the area's cards) carry their coupon in effect (issue 30).
      // Read for all the cards at once (a fixed number of queries, however many cards).
      let items = listed;
      if (own !== undefined) {
        const cardIds = listed.map((item) => item.id);
        const inEffect = await couponsInEffect(scope, cardIds);
        const approvals = await paypalCouponApprovalsOf(scope, cardIds, uow.clock());
        const changeApprovals = await paypalPlanChangeApprovalsOf(scope, cardIds);
        items = listed.map((item) => ({
          ...item,
          coupon: inEffect.get(item.id) ?? null,
          paypalCouponApproval: approvals.get(item.id) ?? null,
          paypalPlanChangeApproval: changeApprovals.get(item.id) ?? null,
        }));
      }
      const nextAfterId = ids.length === pageSize ? (ids[ids.length - 1] ?? null) : null;
      return ok(
        counted >= limit
          ? { items, totalCount: limit - 1, totalCountCapped: true as const, nextAfterId }
          : { items, totalCount: counted, nextAfterId },
      );
    },
  );

  app.get(
    '/api/subscription/export',
    {
      config: anyone,
      schema: {
        tags,
        summary:
          'La lista delle sottoscrizioni (tutte le pagine, stessi filtri e searchTerm di getAll) come CSV o XLSX',
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const scope = readScope(request);
      const filter = subscriptionFilter(request.query);
      const own = ownOnly(request);
      const none = own !== undefined && filter.userId !== undefined && filter.userId !== own;
      if (own !== undefined) filter.userId = own;
      const { format } = request.query;
      const fileName = exportFileName(
        subscriptionExport.fileName,
        await tenantNameOf(scope.tx as Database, scope.tenantId),
        uow.clock(),
        format,
      );
      const batches = (size: number) =>
        none ? (async function* () {})() : subscriptionBatches(scope, filter, size);
      return sendExport(reply, { spec: subscriptionExport, format, fileName, batches });
    },
  );

  app.get(
    '/api/subscription/GetById/:id',
    { config: anyone, schema: { tags, params: idParams, response: { 200: itemEnvelope } } },
    async (request) => ok(await readOne(request, request.params.id, true)),
  );

  app.post(
    '/api/subscription/quote',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Il documento che un pagamento produrrebbe (righe, cassa, IVA, bollo, ritenuta, netto a pagare), prima di creare nulla',
        body: subscriptionQuoteSchema,
        response: { 200: envelopeOf(quoteSchema) },
      },
    },
    async (request) => {
      const body = request.body;
      const document = await request.unitOfWork((w) =>
        quoteSubscription(w, {
          userId: body.userId,
          planId: body.planId,
          paymentAmount: body.paymentAmount ?? null,
          vatPercentage: body.vatPercentage ?? null,
          couponCode: body.couponCode ?? null,
        }),
      );
      return ok(toQuote(document));
    },
  );

  /**
   * The one plan change of both doors (the Admin's and the customer's own): checked and computed
   * first (a preview ends there), the provider outside any transaction, then the unit of work
   * (whose history actor is the caller).
   */
  const changePlanOf = async (request: FastifyRequest, id: number, body: ChangePlanBody) => {
    const tenantId = tenantOf(request);
    // Checked and computed first (nothing written): a preview ends here.
    const prepared = await request.unitOfWork((w) => preparePlanChange(w, id, body));
    if (body.preview) return ok<z.infer<typeof planChangeResultSchema>>(prepared.preview);
    // The provider first, outside any transaction: if it refuses, nothing changes in Rinnova.
    // PayPal answers the revise waiting for the buyer's approval, kept by the change's unit.
    let paypalRevision: PayPalPlanRevision | null = null;
    if (
      changePlanAtProvider &&
      prepared.current.providerSubscriptionId &&
      prepared.current.method !== 'bankTransfer'
    )
      paypalRevision = await changePlanAtProvider(tenantId, {
        subscriptionId: id,
        method: prepared.current.method === 'stripe' ? 'stripe' : 'paypal',
        providerSubscriptionId: prepared.current.providerSubscriptionId,
        toPlanId: prepared.toPlan.id,
        whenKind: prepared.whenKind,
        effectiveDay: prepared.preview.effectiveDay,
        // Between recurrences: the provider charges next at the (moved) billing date.
        ...(prepared.recurrenceChanges ? { nextChargeAt: prepared.nextBillingDate } : {}),
      });
    const outcome = await request.unitOfWork((w) => makePlanChange(w, id, body, paypalRevision));
    const approveUrl = paypalRevision?.approveUrl ?? null;
    const waits = approveUrl
      ? ` ${ownOnly(request) !== undefined ? billingMessages.planChangeApprovalCustomer : billingMessages.planChangeApprovalAdmin}`
      : '';
    return ok<z.infer<typeof planChangeResultSchema>>(
      {
        ...outcome.preview,
        status: outcome.status,
        planChangeId: outcome.planChangeId,
        prorationPaymentId: outcome.prorationPaymentId,
        creditNote: outcome.creditNote,
        ...(approveUrl ? { paypalApproveUrl: approveUrl } : {}),
      },
      (outcome.status === 'applied'
        ? billingMessages.planChanged(outcome.preview.toPlan.name)
        : billingMessages.planChangeScheduled(
            outcome.preview.toPlan.name,
            outcome.preview.effectiveDay.split('-').reverse().join('/'),
          )) + waits,
    );
  };

  /**
   * The customer's own subscription in a tenant that lets its customers change plan: 403 (Italian)
   * when it does not, 404 for another customer's (or an unknown) subscription.
   */
  const ownScope = (request: FastifyRequest) => {
    const tenantId = tenantOf(request);
    return { tenantId, tx: connectionFor(tenantId) };
  };

  app.post(
    '/api/user/me/subscriptions/:id/paypalCoupon',
    {
      config: anyone,
      schema: {
        tags: ['user'],
        summary:
          'Di ritorno da PayPal (issue 30): se PayPal addebita ora il piano del coupon in attesa di approvazione, il coupon è applicato (una volta). 404 per una sottoscrizione non propria',
        params: idParams,
        response: { 200: envelopeOf(z.object({ redeemed: z.boolean() })) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await readOne(request, id, false);
      const redeemed = checkPayPalCoupon
        ? await checkPayPalCoupon(tenantOf(request), id, (fn) => request.unitOfWork(fn))
        : false;
      return ok({ redeemed });
    },
  );

  app.post(
    '/api/user/me/subscriptions/:id/paypalPlanChange',
    {
      config: anyone,
      schema: {
        tags: ['user'],
        summary:
          'Di ritorno da PayPal (issue 30): se PayPal addebita ora il piano del cambio di piano in attesa di approvazione, il cambio risulta approvato (una volta). 404 per una sottoscrizione non propria',
        params: idParams,
        response: { 200: envelopeOf(z.object({ approved: z.boolean() })) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await readOne(request, id, false);
      const approved = checkPayPalPlanChange
        ? await checkPayPalPlanChange(tenantOf(request), id, (fn) => request.unitOfWork(fn))
        : false;
      return ok({ approved });
    },
  );

  app.get(
    '/api/user/me/subscriptions/:id/changePlan',
    {
      config: customerPlanChange,
      schema: {
        tags: ['user'],
        summary:
          "'Cambia piano' del cliente su una propria sottoscrizione: allowed (il fornitore lo consente) e i piani offerti (attivi, di qualsiasi ricorrenza, escluso quello attuale) con il prezzo per periodo che il cliente pagherebbe. 404 per una sottoscrizione non propria",
        params: idParams,
        response: { 200: envelopeOf(ownPlanOptionsSchema) },
      },
    },
    async (request) => {
      const scope = ownScope(request);
      const own = await ownPlanChange(scope, request.params.id, callerOf(request).userId);
      if (!own.allowed) return ok({ allowed: false, plans: [] });
      return ok({ allowed: true, plans: await plansOfferedTo(scope, own.sub) });
    },
  );

  app.post(
    '/api/user/me/subscriptions/:id/changePlan',
    {
      config: customerPlanChange,
      schema: {
        tags: ['user'],
        summary:
          "'Cambia piano' del cliente su una propria sottoscrizione, dove il fornitore lo consente (403 altrimenti): stesso corpo, stessi controlli e stesso calcolo di api/subscription/changePlan (con preview: true solo le cifre); 404 per una sottoscrizione non propria",
        params: idParams,
        body: changePlanSchema,
        response: { 200: envelopeOf(planChangeResultSchema) },
      },
    },
    async (request) => {
      const own = await ownPlanChange(ownScope(request), request.params.id, callerOf(request).userId);
      if (!own.allowed) throw new HttpError(403, changePlanMessages.customerNotAllowed);
      return changePlanOf(request, request.params.id, request.body);
    },
  );

  app.post(
    '/api/subscription/changePlan/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          "Cambia piano a una sottoscrizione Active/ActiveNoRenewal: subito (con conguaglio: nota di credito dei giorni non goduti e pagamento dei giorni del nuovo piano), alla scadenza ('renewal') o in un giorno del periodo; con preview: true solo le cifre",
        params: idParams,
        body: changePlanSchema,
        response: { 200: envelopeOf(planChangeResultSchema) },
      },
    },
    async (request) => changePlanOf(request, request.params.id, request.body),
  );

  app.post(
    '/api/subscription/cancelPlanChange/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Annulla il cambio di piano programmato (alla scadenza o in un giorno del periodo); per PayPal/Stripe riporta prima il fornitore al piano attuale. Idempotente: senza cambio programmato risponde canceled: false',
        params: idParams,
        response: {
          200: envelopeOf(z.object({ canceled: z.boolean(), planChangeId: z.number().nullable() })),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const tenantId = tenantOf(request);
      const checked = await request.unitOfWork((w) => checkPlanChangeCancel(w, id));
      const change = checked.change;
      if (!change) return ok({ canceled: false, planChangeId: null }, changePlanMessages.nothingScheduled);
      // The provider was revised when the change was scheduled: back to the current plan first,
      // outside any transaction (a failure is a 502 and nothing changes in Rinnova).
      if (changePlanAtProvider && checked.provider)
        await changePlanAtProvider(tenantId, {
          subscriptionId: id,
          method: checked.provider.method,
          providerSubscriptionId: checked.provider.providerSubscriptionId,
          toPlanId: change.fromPlanId,
          whenKind: 'now',
          effectiveDay: change.effectiveDay,
          idempotencyKey: `rinnova-change-revert-${tenantId}-${id}-${change.id}`,
          // Between recurrences the change moved the provider's next charge: back to the billing date.
          ...(change.recurrenceChanges ? { nextChargeAt: change.nextBillingDate } : {}),
        });
      const canceled = await request.unitOfWork((w) => cancelScheduledPlanChange(w, id, change.id));
      return ok(
        { canceled, planChangeId: canceled ? change.id : null },
        canceled
          ? changePlanMessages.scheduledCanceled(
              change.toPlanName,
              change.effectiveDay.split('-').reverse().join('/'),
            )
          : changePlanMessages.nothingScheduled,
      );
    },
  );

  /**
   * 'Sospendi incasso' and 'Riprendi ora': the same checks, provider step and unit for the Admin's
   * doors and the customer's own (issue 30; the history's actor is the caller).
   */
  const pauseOf = async (request: FastifyRequest, id: number, body: PauseInput) => {
    const tenantId = tenantOf(request);
    // Checked first (nothing written), then the provider outside any transaction: if it
    // refuses, nothing changes in Rinnova.
    const prepared = await request.unitOfWork((w) => preparePause(w, id, body));
    if (pauseAtProvider && prepared.provider)
      await pauseAtProvider(tenantId, id, prepared.provider, { kind: 'pause', until: prepared.until });
    const pause = await request.unitOfWork((w) => makePause(w, id, body));
    return ok(pause, pauseMessages.paused(romeDate(new Date(pause.until))));
  };
  const resumeOf = async (request: FastifyRequest, id: number) => {
    const tenantId = tenantOf(request);
    const prepared = await request.unitOfWork((w) => prepareResume(w, id));
    if (pauseAtProvider && prepared.provider)
      await pauseAtProvider(tenantId, id, prepared.provider, {
        kind: 'resume',
        key: `early-${prepared.pause.pausedUntil.getTime()}`,
      });
    const done = await request.unitOfWork((w) => endPause(w, id, { early: true }));
    const next = done.next ?? prepared.next;
    return ok({ nextBillingDate: next.toISOString() }, pauseMessages.resumed(romeDate(next)));
  };

  app.post(
    '/api/subscription/pause/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          "Sospende l'incasso di una sottoscrizione Active/ActiveNoRenewal per 1–12 periodi dal prossimo rinnovo (lo stato non cambia; nessun pagamento dovuto; la data del prossimo rinnovo si sposta dei periodi sospesi); entitlements 'keep' o 'suspend' durante la pausa",
        params: idParams,
        body: pauseSchema,
        response: { 200: envelopeOf(pauseItemSchema) },
      },
    },
    async (request) => pauseOf(request, request.params.id, request.body),
  );

  app.post(
    '/api/subscription/resume/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          "Riprende subito l'incasso sospeso ('Riprendi ora'): il prossimo rinnovo è la fine del periodo sospeso in corso (o la data originaria se la pausa non è iniziata)",
        params: idParams,
        response: { 200: envelopeOf(z.object({ nextBillingDate: z.string() })) },
      },
    },
    async (request) => resumeOf(request, request.params.id),
  );

  // The customer's own pause (issue 30), where the tenant allows it (`customerPause`): 404 for
  // another customer's or an unknown subscription before anything, then 403 when not allowed.
  app.get(
    '/api/user/me/subscriptions/:id/pause',
    {
      config: customerPause,
      schema: {
        tags: ['user'],
        summary:
          "'Sospendi incasso' del cliente su una propria sottoscrizione: allowed (il fornitore lo consente). 404 per una sottoscrizione non propria",
        params: idParams,
        response: { 200: envelopeOf(z.object({ allowed: z.boolean() })) },
      },
    },
    async (request) =>
      ok({
        allowed: await ownPauseAllowed(ownScope(request), request.params.id, callerOf(request).userId),
      }),
  );

  app.post(
    '/api/user/me/subscriptions/:id/pause',
    {
      config: customerPause,
      schema: {
        tags: ['user'],
        summary:
          "'Sospendi per N periodi' del cliente su una propria sottoscrizione, dove il fornitore lo consente (403 altrimenti): gli stessi controlli ed effetti di api/subscription/pause, funzionalità sospese durante la pausa; 404 per una sottoscrizione non propria",
        params: idParams,
        body: ownPauseSchema,
        response: { 200: envelopeOf(pauseItemSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await ownPauseAllowed(ownScope(request), id, callerOf(request).userId)))
        throw new HttpError(403, pauseMessages.customerNotAllowed);
      return pauseOf(request, id, { periods: request.body.periods, entitlements: 'suspend' });
    },
  );

  app.post(
    '/api/user/me/subscriptions/:id/resume',
    {
      config: customerPause,
      schema: {
        tags: ['user'],
        summary:
          "'Riprendi ora' del cliente su una propria sottoscrizione sospesa, dove il fornitore lo consente (403 altrimenti); 404 per una sottoscrizione non propria",
        params: idParams,
        response: { 200: envelopeOf(z.object({ nextBillingDate: z.string() })) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await ownPauseAllowed(ownScope(request), id, callerOf(request).userId)))
        throw new HttpError(403, pauseMessages.customerNotAllowed);
      return resumeOf(request, id);
    },
  );

  const oneOffItemSchema = z.object({
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
  });

  app.get(
    '/api/subscription/charges/:id',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Gli addebiti una tantum della sottoscrizione, dal più recente, con il loro stato',
        params: idParams,
        response: { 200: envelopeOf(z.array(oneOffItemSchema)) },
      },
    },
    async (request) => ok(await listOneOffCharges(readScope(request), request.params.id)),
  );

  app.post(
    '/api/subscription/charges/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          "Aggiunge un addebito una tantum (descrizione, quantità, prezzo unitario in euro senza IVA) a una sottoscrizione Active/ActiveNoRenewal: 'now' crea il suo pagamento (importo calcolato con le regole fiscali del tenant), fatturato quando è pagato",
        params: idParams,
        body: oneOffChargeSchema,
        response: { 200: envelopeOf(oneOffItemSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const charge = await request.unitOfWork((w) => createOneOffCharge(w, id, request.body));
      return ok(charge, oneOffMessages.created);
    },
  );

  app.delete(
    '/api/subscription/charges/:id/:chargeId',
    {
      config: admins,
      schema: {
        tags,
        summary: 'Elimina un addebito una tantum ancora da incassare (il suo pagamento non pagato è rimosso)',
        params: z.object({
          id: z.coerce.number().int().positive().max(MAX_ID),
          chargeId: z.coerce.number().int().positive().max(MAX_ID),
        }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      const { id, chargeId } = request.params;
      if (beforeChargeDelete) await beforeChargeDelete(tenantOf(request), id, chargeId);
      await request.unitOfWork((w) => deleteOneOffCharge(w, id, chargeId));
      return ok(null, oneOffMessages.deleted);
    },
  );

  app.post(
    '/api/subscription/applyCoupon/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          "«Applica coupon» (issue 30): il coupon vale dal prossimo pagamento (l'importo dovuto e il primo pagamento non pagato diventano scontati); con preview: true solo il ricalcolo. Una sottoscrizione ha un solo coupon: lo stesso codice risponde quanto applicato, un altro 400 su couponCode",
        params: idParams,
        body: applyCouponSchema,
        response: {
          200: envelopeOf(couponQuoteSchema.extend({ approveUrl: z.string().nullable().optional() })),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { couponCode, preview } = request.body;
      // A subscription PayPal charges: revised at PayPal, applied once the customer approves it.
      if (!preview && couponAtPayPal) {
        const pending = await couponAtPayPal(tenantOf(request), id, couponCode, (fn) =>
          request.unitOfWork(fn),
        );
        if (pending)
          return ok(
            pending,
            pending.applied ? couponMessages.applied(pending.code) : paypalCouponTexts.pending(pending.code),
          );
      }
      // A subscription Stripe charges: Stripe is told first, outside any transaction.
      const target =
        preview || !couponAtStripe
          ? null
          : await request.unitOfWork((w) => stripeCouponTarget(w, id, couponCode));
      if (target && couponAtStripe) await couponAtStripe(tenantOf(request), target);
      const quote = await request.unitOfWork((w) =>
        applyCouponToSubscription(w, {
          subscriptionId: id,
          code: couponCode,
          preview: preview === true,
          stripeDone: target !== null,
        }),
      );
      return ok(quote, quote.applied ? couponMessages.applied(quote.code) : serverMessages.ok);
    },
  );

  app.post(
    '/api/subscription/Create',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Crea una sottoscrizione NotActive con il suo primo pagamento (importo con IVA arrotondato half-up al centesimo)',
        body: subscriptionCreateSchema,
        response: { 200: itemEnvelope },
      },
    },
    async (request) => {
      const body = request.body;
      const id = await request.unitOfWork((w) =>
        createSubscription(w, {
          userId: body.userId,
          planId: body.planId,
          paymentAmount: body.paymentAmount ?? null,
          vatPercentage: body.vatPercentage ?? null,
          startDate: body.startDate ?? null,
          couponCode: body.couponCode ?? null,
        }),
      );
      return ok(await readOne(request, id, true), messages.http.created);
    },
  );

  app.put(
    '/api/subscription/Update',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Modifica piano e importi di una sottoscrizione non attiva; cliente e data di inizio restano quelli della creazione',
        body: subscriptionUpdateSchema,
        response: { 200: itemEnvelope },
      },
    },
    async (request) => {
      const body = request.body;
      await request.unitOfWork((w) =>
        updateSubscription(w, {
          id: body.id,
          userId: body.userId ?? null,
          planId: body.planId ?? null,
          paymentAmount: body.paymentAmount ?? null,
          vatPercentage: body.vatPercentage ?? null,
          startDate: body.startDate ?? null,
        }),
      );
      return ok(await readOne(request, body.id, true), messages.http.updated);
    },
  );

  const command = (
    method: 'put' | 'delete',
    path: string,
    summary: string,
    run: (w: UnitOfWork, id: number) => Promise<void>,
    message: string,
    before?: (tenantId: number, id: number) => Promise<void>,
  ) =>
    app[method](
      path,
      { config: admins, schema: { tags, summary, params: idParams, response: { 200: itemEnvelope } } },
      async (request) => {
        const { id } = request.params;
        if (before) await before(tenantOf(request), id);
        await request.unitOfWork((w) => run(w, id));
        return ok(await readOne(request, id, true), message);
      },
    );

  command(
    'put',
    '/api/subscription/setPaymentWithBankTransfer/:id',
    'NotActive → BankTransferPending (irreversibile); invia al cliente le istruzioni del bonifico. 409 senza IBAN del tenant',
    setPaymentWithBankTransfer,
    billingMessages.setToBankTransfer,
  );
  command(
    'put',
    '/api/subscription/setActiveNoRenewal/:id',
    'BankTransferPending → ActiveNoRenewal, quando i bonifici approvati coprono l’importo dovuto',
    confirmBankTransfer,
    billingMessages.activated,
  );
  command(
    'delete',
    '/api/subscription/cancel/:id',
    'Active con ID sottoscrizione del fornitore → Canceled (cancellata prima presso il fornitore); 409 altrimenti',
    cancelSubscription,
    billingMessages.canceled,
    beforeCancel,
  );

  app.get(
    '/api/subscription/bankTransferInstructions/:id',
    {
      config: admins,
      schema: {
        tags,
        summary:
          'Beneficiario, IBAN, importo e causale del bonifico della sottoscrizione; 409 senza IBAN del tenant',
        params: idParams,
        response: { 200: envelopeOf(instructionsSchema) },
      },
    },
    async (request) => {
      const {
        tenantName: _tenantName,
        paymentId: _paymentId,
        ...instructions
      } = await bankTransferInstructions(readScope(request), request.params.id);
      return ok(instructions);
    },
  );

  // ---- Bank transfers (Admin, SuperAdmin)
  const btTags = ['BankTransfer'];
  const btEnvelope = envelopeOf(bankTransferItemSchema);
  app.get(
    '/api/BankTransfer/getAll',
    {
      config: admins,
      schema: {
        tags: btTags,
        summary: 'Bonifici di un pagamento (paymentId), in ordine di registrazione',
        querystring: listQuerySchema.extend({ paymentId: idParamsSchema.shape.id.optional() }),
        response: {
          200: envelopeOf(z.object({ items: z.array(bankTransferItemSchema), totalCount: z.number() })),
        },
      },
    },
    async (request) => {
      const { paymentId, page, pageSize } = request.query;
      return ok(await listBankTransfers(readScope(request), paymentId, page, pageSize));
    },
  );
  app.get(
    '/api/BankTransfer/export',
    {
      config: admins,
      schema: {
        tags: btTags,
        summary: 'I bonifici (di un pagamento con paymentId, o tutti) come CSV o XLSX',
        querystring: exportQuerySchema.extend({ paymentId: idParamsSchema.shape.id.optional() }),
      },
    },
    async (request, reply) => {
      const { paymentId, format } = request.query;
      const scope = readScope(request);
      const fileName = exportFileName(
        bankTransferExport.fileName,
        await tenantNameOf(scope.tx as Database, scope.tenantId),
        uow.clock(),
        format,
      );
      // The list's order (oldest first) in keyset batches; a payment of another tenant is a 404
      // (the first batch is read before anything is sent).
      const batches = (size: number) =>
        keysetBatches<BankTransfer>(
          (after, limit) => bankTransferExportBatch(scope, paymentId, after?.id, limit),
          size,
        );
      return sendExport(reply, { spec: bankTransferExport, format, fileName, batches });
    },
  );
  app.post(
    '/api/BankTransfer/create',
    {
      config: admins,
      schema: { tags: btTags, body: bankTransferInputSchema, response: { 200: btEnvelope } },
    },
    async (request) => {
      const b = request.body;
      const item = await request.unitOfWork((w) =>
        createBankTransfer(w, {
          paymentId: b.paymentId,
          amount: b.amount,
          approvalDate: b.approvalDate ?? null,
        }),
      );
      return ok(item, messages.inlineTable.saved);
    },
  );
  app.put(
    '/api/BankTransfer/update',
    {
      config: admins,
      schema: {
        tags: btTags,
        body: bankTransferInputSchema.extend({ id: idParamsSchema.shape.id }),
        response: { 200: btEnvelope },
      },
    },
    async (request) => {
      const b = request.body;
      const item = await request.unitOfWork((w) =>
        updateBankTransfer(w, b.id, {
          paymentId: b.paymentId,
          amount: b.amount,
          approvalDate: b.approvalDate ?? null,
        }),
      );
      return ok(item, messages.inlineTable.saved);
    },
  );
  app.delete(
    '/api/BankTransfer/delete/:id',
    {
      config: admins,
      schema: { tags: btTags, params: idParams, response: { 200: envelopeOf(z.object({ id: z.number() })) } },
    },
    async (request) => {
      const { id } = request.params;
      await request.unitOfWork((w) => deleteBankTransfer(w, id));
      return ok({ id }, messages.inlineTable.deleted);
    },
  );
}
