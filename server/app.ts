import path from 'node:path';
import os from 'node:os';
import fastifyCors from '@fastify/cors';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { changePlanAtProvider, subscribeProrationCharges } from './modules/billing/plan-change.provider';
import { subscribeResidualCredits } from './modules/billing/subscription-credit';
import { subscribeWithdrawnCheckouts } from './modules/billing/stripe-withdrawn-checkout';
import { pauseAtProvider } from './modules/billing/pause.service';
import { removeNextChargeAtStripe, subscribeOneOffCharges } from './modules/billing/one-off-charge.service';
import { couponAtStripe } from './modules/billing/coupon-apply.service';
import { applyCouponAtPayPal, checkPayPalCouponApproval } from './modules/billing/paypal-coupon-revise';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { MEMORY_DATA_DIR } from './config';
import { isEmbedded } from './db/client';
import type { Database } from './db/client';
import { parseQueryString } from './lib/querystring';
import { applyItalianZodMessages } from './lib/zod-italian';
import { createSecretBox } from './lib/secret-box';
import { countStale, SECRET_REWRAP_JOB, secretRewrapJob } from './lib/secret-rewrap';
import { createOutbound, type Outbound } from './lib/outbound';
import { createMailer } from './mail/mailer';
import type { Mailer } from './mail/mailer';
import { signInLinkMailer } from './mail/sign-in-link';
import { createLoginLinkIssuer } from './modules/auth/login-links';
import { createJobEngine } from './jobs/engine';
import type { JobEngine } from './jobs/engine';
import type { PaymentHooks } from './modules/billing/payment-hooks';
import { recurringJobs } from './modules/billing/billing-jobs';
import { createAuthService } from './modules/auth/auth.service';
import { addressEntity } from './modules/address/address.entity';
import { registerBillingRoutes } from './modules/billing/billing.routes';
import { registerRenewalRoutes } from './modules/billing/renewal.routes';
import { cancelAtProvider } from './modules/billing/provider-payments';
import { syncPaypal, syncProvider } from './modules/billing/provider-sync';
import { paymentUrlOf } from '../contract/schemas/payment';
import {
  createRenewalPaymentLink,
  expirePaymentTokens,
  tenantsWithLivePaypal,
} from './modules/billing/payment-token.service';
import { registerPaymentRoutes } from './modules/billing/payment.routes';
import { registerOwnPaymentRoutes } from './modules/billing/own-payments.routes';
import { startFakePayPal, type FakePayPal } from './providers/fake-paypal';
import { startFakeStripe, type FakeStripe } from './providers/fake-stripe';
import { createProviderRegistry } from './providers/registry';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { registerTwoFactorRoutes } from './modules/auth/two-factor.routes';
import { registerOwnBillingRoutes } from './modules/auth/own-billing.routes';
import { registerMyDataRoutes } from './modules/auth/my-data.routes';
import { registerContactRoutes } from './modules/contact/contact.routes';
import { registerCrudRoutes } from './crud/routes';
import { sharedCountersFor } from './lib/shared-counters';
import { createPublicHome } from './db/tenancy/public-home';
import { acrossDatabases } from './db/tenancy/every-database';
import { ownDatabaseForNewTenant } from './db/tenancy/new-tenant';
import { HttpError } from './lib/http-error';
import { tenancyMessages } from '../contract/messages';
import { describeTenantDatabase } from './db/tenancy/describe';
import type { TenantDatabases } from './db/tenancy/tenant-databases';
import { createTenantOperations } from './db/tenancy/operations';
import type { TenantOperations } from './db/tenancy/operations';
import { registerTenantDatabaseRoutes } from './modules/tenant/tenant-database.routes';
import { registerReportRoutes } from './modules/dashboard/report.routes';
import { reportJob } from './modules/dashboard/report-job';
import { municipalityEntity } from './modules/geography/municipality.entity';
import { provinceEntity } from './modules/geography/province.entity';
import { regionEntity } from './modules/geography/region.entity';
import { registerDashboardRoutes } from './modules/dashboard/dashboard.routes';
import { registerHangfireRoutes } from './modules/hangfire/hangfire.routes';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerInvoiceRoutes } from './modules/invoice/invoice.routes';
import { invoicePecJobs } from './modules/invoice/invoice-pec';
import { paymentProviderEntity } from './modules/payment-provider/payment-provider.entity';
import { registerPaymentProviderRoutes } from './modules/payment-provider/payment-provider.routes';
import { featureEntity } from './modules/plan/feature.entity';
import { planFeatureEntity } from './modules/plan/plan-feature.entity';
import { planEntity } from './modules/plan/plan.entity';
import { couponEntity } from './modules/coupon/coupon.entity';
import { registerPlanRoutes } from './modules/plan/plan.routes';
import { tenantEntity } from './modules/tenant/tenant.entity';
import { userEntity } from './modules/auth/user.entity';
import { apiKeyPlugin } from './plugins/api-key';
import { authenticationPlugin } from './plugins/authentication';
import { caseInsensitiveKeysPlugin } from './plugins/case-insensitive-keys';
import { docsPlugin } from './plugins/docs';
import { answerClientError, answerFrameworkError, errorHandlerPlugin } from './plugins/error-handler';
import { inputGuardPlugin } from './plugins/input-guard';
import { jsonBodyPlugin } from './plugins/json-body';
import { loggerOptions } from './lib/logger';
import { formBodyPlugin } from './plugins/form-body';
import { notFoundPlugin } from './plugins/not-found';
import { rateLimitPlugin } from './plugins/rate-limit';
import { roleGuardPlugin } from './plugins/role-guard';
import { routeAccessPlugin } from './plugins/route-access';
import { callContextPlugin } from './plugins/call-context';
import { securityHeadersPlugin } from './plugins/security-headers';
import { tenantPlugin } from './plugins/tenant';
import { tenantKeyPlugin } from './modules/integrations/tenant-key.plugin';
import { registerApiKeyRoutes } from './modules/integrations/api-keys.routes';
import { registerApiV1SubscriptionRoutes } from './modules/billing/api-v1.routes';
import { createApiRateLimiter } from './modules/integrations/rate-limits';
import { createRequestLogWriter } from './modules/integrations/request-log';
import { integrationJobs } from './modules/integrations/jobs';
import { registerWebhookRoutes } from './modules/integrations/webhooks.routes';
import { WEBHOOK_JOB, WEBHOOK_SIGNAL } from './modules/integrations/webhook-transport';
import { createWebhookSender, type WebhookSender } from './modules/integrations/webhook-sender';
import type { RequestLogWriter } from './modules/integrations/request-log';
import { createOutboxDispatcher } from './unit-of-work/outbox';
import { createEventBus } from './unit-of-work/events';
import { subscribeInvoicing } from './modules/invoice/invoice.events';
import { subscribeCouponPeriods } from './modules/billing/coupon-periods';
import { subscribePayPalCouponMail } from './modules/billing/paypal-coupon-revise';
import {
  checkPayPalPlanChangeApproval,
  subscribePayPalPlanChangeMail,
} from './modules/billing/paypal-plan-change';
import { subscribeTrialConversions } from './modules/billing/trials';
import { subscribeCollection } from './modules/billing/collection.service';
import { registerCollectionRoutes } from './modules/billing/collection.routes';
import { subscribeOutboundWebhooks } from './modules/integrations/webhooks.events';
import { createUnitOfWorkRunner } from './unit-of-work/unit-of-work';
import type { UnitOfWorkRunner } from './unit-of-work/unit-of-work';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs units of work (server/unit-of-work): routes added from outside (tests, jobs) use it too. */
    unitOfWork: UnitOfWorkRunner;
    /** The background-job engine (server/jobs), or null with JOBS=off. */
    jobs: JobEngine | null;
    /** Tenant API keys' request log and outbound webhooks (issue 15). */
    integrations: { requestLog: RequestLogWriter; webhooks: WebhookSender };
  }
}

export interface AppOptions {
  config: Config;
  db: Database;
  jwtSecret: string;
  /** Defaults to SMTP (SMTP_URL) or the outbox folder `outboxDir`. */
  mailer?: Mailer;
  /** Where the outbox mailer writes; defaults to DATA_DIR/outbox. */
  outboxDir?: string;
  /** Origin of e-mailed links; a function because with port 0 it is known only after listen. */
  publicUrl?: () => string;
  /** The built SPA to serve (dist/); omit for an API-only app (tests). */
  spaDir?: string;
  /** Where log lines go instead of stdout (tests read them); always JSON, with the safe serializers. */
  logStream?: { write(line: string): unknown };
  /** The clock of token expiry and timestamps; tests move it. */
  now?: () => Date;
  /**
   * What the recurring jobs need from the payment side (payment tokens, PayPal sync, renewal
   * links): see modules/billing/payment-hooks.ts. A job whose hook is absent is not registered.
   */
  paymentHooks?: Partial<PaymentHooks>;
  /** Extra nodemailer options of the PEC sending (tests: a loopback server's self-signed TLS). */
  pecTransportOptions?: Record<string, unknown>;
  /**
   * A new tenant gets a database of its own at Create (npm start: true). Off, new tenants stay in
   * the control database until `npm run tenants -- split` (most tests).
   */
  newTenantDatabases?: boolean;
  /**
   * Where each tenant's data lives (db/tenancy): the directory and the connections to tenants'
   * own databases. Absent (most tests): every tenant on `db`, as before databases per tenant.
   */
  tenancy?: TenantDatabases;
  /**
   * Backup, restore, export, move of one tenant's database (db/tenancy/operations.ts); default
   * built on `tenancy`. Tests pass one with a tiny directory cache wait.
   */
  tenantOperations?: TenantOperations;
  /**
   * The door of server-initiated connections (lib/outbound); default one built from
   * OUTBOUND_ALLOW_PRIVATE. Tests pass one with a rebinding resolver.
   */
  outbound?: Outbound;
}

/**
 * Fastify's `trustProxy` for TRUST_PROXY: the proxies' addresses as they are; a number of hops as
 * the classic hop count (trust the nearest `hops` addresses). Fastify 5 now reads a bare number as
 * "trust nothing", because a hop count cannot tell a proxy from a client that connects directly:
 * a count is safe only when the server is reachable through its proxies alone (HOST=127.0.0.1
 * behind nginx), which .env.example says; the addresses are the safer setting.
 */
function trustProxyOf(
  setting: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/** Builds the whole app: plugins first (order matters: hooks run in registration order), then routes. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const now = options.now ?? (() => new Date());
  const publicUrl = options.publicUrl ?? (() => config.publicUrl ?? `http://localhost:${config.port}`);
  applyItalianZodMessages();

  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOf(config.trustProxy),
    // The contract's routes match case-insensitively, as the original ASP.NET backend did.
    routerOptions: { caseSensitive: false, querystringParser: parseQueryString },
    // Errors raised before routing (a malformed %-escape, a path parameter over 100 characters)
    // and by the HTTP parser (a URL or headers over 16 KB) answer the envelope too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  const transport =
    options.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: options.outboxDir ?? path.join(config.dataDir, 'outbox'),
      log: app.log,
    });
  if (!options.mailer) app.addHook('onClose', async () => transport.close());
  // A customer's e-mail gets its sign-in link when it is sent (issue 28): one issuer, in the
  // control database, whichever unit or job queued the e-mail.
  const mailer = signInLinkMailer(transport, createLoginLinkIssuer({ db, clock: now, publicUrl }));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorHandlerPlugin);
  // The door: request targets checked and every route's access declaration recorded, before any
  // other hook and any route (plugins/route-access.ts).
  await app.register(routeAccessPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(inputGuardPlugin);
  let fakePaypalOrigin: string | undefined;
  await app.register(securityHeadersPlugin, {
    paymentScriptSources: () => (fakePaypalOrigin ? [fakePaypalOrigin] : []),
  });
  let fakeStripe: FakeStripe | undefined;
  // Cross-origin callers only from the configured origins (CORS_ORIGINS); none by default: the
  // SPA is served from this origin (and proxied by Vite in development).
  await app.register(fastifyCors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'x-api-key', 'X-Tenant-Id'],
    exposedHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    maxAge: 600,
  });
  await app.register(formBodyPlugin);
  await app.register(caseInsensitiveKeysPlugin);
  await app.register(apiKeyPlugin, { apiKeys: config.apiKeys });
  await app.register(authenticationPlugin, {
    db,
    secret: options.jwtSecret,
    expiresInMs: config.jwtExpiresInMs,
  });
  await app.register(roleGuardPlugin);
  await app.register(tenantPlugin, { db });
  // Every write is a unit of work on the tenant's connection (its own database, or the control
  // database for a tenant still there: db/tenancy), with an outbox sent after commit.
  const tenancy = options.tenancy;
  const connectionFor = tenancy ? (tenantId: number) => tenancy.connectionFor(tenantId) : () => db;
  const tenantDatabases = tenancy ? { tenantDatabases: () => tenancy.ownDatabases() } : {};
  // Tenant API keys (issue 15): /api/v1 calls authenticated by a tenant's key, rate-limited, logged.
  // The key directory and the counters in the control database; keys, log, settings the tenant's.
  const apiLimiter = await createApiRateLimiter(
    db,
    {
      perKeyPerMinute: config.integrations.apiPerKeyPerMinute,
      perTenantPerMinute: config.integrations.apiPerTenantPerMinute,
    },
    connectionFor,
  );
  const requestLog = createRequestLogWriter(
    db,
    app.log,
    tenancy
      ? async (tenantId) =>
          (await tenancy.placementOf(tenantId)).database === null ? null : tenancy.connectionFor(tenantId)
      : undefined,
  );
  app.addHook('onClose', async () => requestLog.close());
  await app.register(tenantKeyPlugin, { db, connectionFor, limiter: apiLimiter, requestLog, now });
  // Rate limits and the sign-in lock count in one place for every app instance (PostgreSQL).
  const counters = await sharedCountersFor((db as unknown as { $client?: unknown }).$client, isEmbedded(db));
  await app.register(rateLimitPlugin, { counters });
  await app.register(docsPlugin);
  await app.register(notFoundPlugin, { spaDir: options.spaDir });

  // Domain events between modules (issue 24): each module subscribes its consumers here, at start.
  const events = createEventBus();
  subscribeOutboundWebhooks(events);
  subscribeInvoicing(events, app.log);
  subscribeCouponPeriods(events);
  // A trial's first payment paid converts it (issue 30).
  subscribeTrialConversions(events);
  subscribeCollection(events);
  // A plan change's proration charged at Stripe after its unit commits (issue 30).
  subscribeProrationCharges(events, () => providerDeps);
  subscribeResidualCredits(events, () => providerDeps);
  // 'Applica coupon' on a PayPal subscription: the customer's approval e-mail after commit.
  subscribePayPalCouponMail(events, () => providerDeps);
  // 'Cambia piano' on a PayPal subscription: the customer's approval e-mail after commit.
  subscribePayPalPlanChangeMail(events, () => providerDeps);
  // One-off charges (issue 30): paid with their payment; a Stripe one charged after commit.
  subscribeOneOffCharges(events, () => providerDeps);
  // A payment withdrawn (issue 30): its open Stripe Checkout Sessions expired, one paid in the race refunded.
  subscribeWithdrawnCheckouts(events, () => providerDeps);
  const dispatcher = createOutboxDispatcher({
    db,
    mailer,
    log: app.log,
    clock: now,
    events,
    ...tenantDatabases,
  });
  // What a unit signals runs after its commit: webhook deliveries it wrote go to the job engine,
  // which sends that tenant's (the every-minute run sweeps every database).
  let jobs: JobEngine | null = null;
  const afterCommit = async (signals: ReadonlySet<string>, tenantId: number | null) => {
    if (signals.has(WEBHOOK_SIGNAL) && jobs)
      await jobs.enqueue(WEBHOOK_JOB, tenantId === null ? {} : { tenantId });
  };
  const uow = createUnitOfWorkRunner({
    connectionFor,
    shared: db,
    clock: now,
    dispatcher,
    afterCommit,
    events,
    ...(tenancy
      ? {
          hasOwnDatabase: async (tenantId: number) => (await tenancy.placementOf(tenantId)).database !== null,
        }
      : {}),
  });
  const crud = { db, uow, connectionFor };
  app.decorate('unitOfWork', uow);
  // request.actor and request.unitOfWork(work): the call context, built once per request.
  await app.register(callContextPlugin, { uow });

  registerHealthRoutes(app, db);
  // Secrets at rest, sealed to their row with the current key; the previous one is still read
  // until the secrets-rewrap job has rewritten everything (lib/secret-box.ts, lib/secret-rewrap.ts).
  const secretBox = createSecretBox({
    current: config.encryptionKey ?? options.jwtSecret,
    previous: config.encryptionKeyPrevious,
  });
  const auth = createAuthService({
    db,
    secretBox,
    uow,
    log: app.log,
    publicUrl,
    loginMaxFailures: config.rateLimit.loginMaxFailures,
    loginLockMs: config.rateLimit.loginLockMs,
    signInFreeFailures: config.rateLimit.signInFreeFailures,
    counters,
    loginLinkPerAddress: {
      max: config.rateLimit.loginLinkPerEmail,
      windowMs: config.rateLimit.loginLinkEmailWindowMs,
    },
  });
  registerAuthRoutes(app, { auth, rateLimit: config.rateLimit });
  registerTwoFactorRoutes(app, { db, twoFactor: auth.twoFactor });
  registerContactRoutes(app, { supportEmail: config.supportEmail, rateLimit: config.rateLimit });
  registerCrudRoutes(app, crud, regionEntity);
  registerCrudRoutes(app, crud, provinceEntity);
  registerCrudRoutes(app, crud, municipalityEntity);
  registerCrudRoutes(app, crud, userEntity({ publicUrl }));
  registerOwnBillingRoutes(app, { connectionFor });
  registerMyDataRoutes(app, { db, connectionFor, clock: now });
  registerCrudRoutes(app, crud, addressEntity);
  registerCrudRoutes(app, crud, planEntity);
  registerPlanRoutes(app, { connectionFor, publicUrl });
  registerCrudRoutes(app, crud, featureEntity);
  registerCrudRoutes(app, crud, planFeatureEntity);
  registerCrudRoutes(app, crud, couponEntity({ clock: now }));
  // Every connection the server opens on its own (webhooks, PayPal, Stripe, PEC) goes through it.
  const outbound = options.outbound ?? createOutbound({ allowPrivate: config.outboundAllowPrivate });
  if (!options.outbound) app.addHook('onClose', async () => outbound.close());
  registerCrudRoutes(
    app,
    crud,
    tenantEntity(secretBox, {
      guard: outbound.guard,
      profileSaved: { uow, log: app.log },
      databaseOf: (tenantId) => describeTenantDatabase(db, tenancy, tenantId),
      ...(tenancy
        ? {
            afterCommit: (tenantId, op) =>
              op === 'create'
                ? options.newTenantDatabases
                  ? ownDatabaseForNewTenant(tenancy, db, tenantId, app.log)
                  : Promise.resolve()
                : tenancy.refreshTenant(tenantId).catch((error: unknown) => {
                    app.log.warn({ tenantId, err: error }, 'tenant row not copied to its database');
                    throw new HttpError(503, tenancyMessages.refreshFailed);
                  }),
          }
        : {}),
    }),
  );
  registerTenantDatabaseRoutes(app, {
    tenancy,
    operations:
      options.tenantOperations ?? (tenancy ? createTenantOperations({ tenancy, log: app.log }) : undefined),
    clock: now,
    control: db,
    exportsDir: path.join(config.dataDir === MEMORY_DATA_DIR ? os.tmpdir() : config.dataDir, 'exports'),
  });
  registerCrudRoutes(app, crud, paymentProviderEntity(secretBox, { pinHosts: outbound.guard }));
  // PAYPAL_FAKE (development): a fake PayPal on loopback answers every PayPal call.
  let fakePaypal: FakePayPal | undefined;
  if (config.paypalFake) {
    app.addHook('onReady', async () => {
      fakePaypal = await startFakePayPal({ port: config.paypalFakePort });
      fakePaypalOrigin = new URL(fakePaypal.url).origin;
      app.log.warn({ url: fakePaypal.url }, 'PAYPAL_FAKE: le chiamate PayPal vanno al PayPal finto');
    });
    app.addHook('onClose', async () => fakePaypal?.close());
  }
  // STRIPE_FAKE (development): a fake Stripe on loopback answers every Stripe call, and its
  // Checkout stand-in takes the card payment.
  if (config.stripeFake) {
    app.addHook('onReady', async () => {
      fakeStripe = await startFakeStripe({ port: config.stripeFakePort });
      app.log.warn({ url: fakeStripe.url }, 'STRIPE_FAKE: le chiamate Stripe vanno allo Stripe finto');
    });
    app.addHook('onClose', async () => fakeStripe?.close());
  }
  const providers = createProviderRegistry({
    connectionFor,
    secretBox,
    outbound,
    timeoutMs: config.paypalTimeoutMs,
    now,
    apiUrlOverride: () => fakePaypal?.url,
    stripeApiUrlOverride: () => fakeStripe?.url,
  });
  registerPaymentProviderRoutes(app, {
    connectionFor,
    rateLimit: config.rateLimit,
    sdkBaseUrl: () => (fakePaypal ? `${fakePaypal.url}/sdk/js` : undefined),
  });

  const providerDeps = {
    uow,
    providers,
    connectionFor,
    home: createPublicHome(db, tenancy ? connectionFor : undefined),
  };
  const rewrapDeps = { shared: db, connectionFor, box: secretBox, log: app.log, ...tenantDatabases };
  const webhookSender = createWebhookSender({
    db,
    connectionFor,
    ...tenantDatabases,
    uow,
    secretBox,
    timeoutMs: config.integrations.webhookTimeoutMs,
    outbound,
    log: app.log,
  });
  registerRenewalRoutes(app, { connectionFor, uow, providers });
  // Issue 29: collection of payments (the Admin's calls); the reminder's link as the jobs make it.
  registerCollectionRoutes(app, {
    connectionFor,
    uow,
    publicUrl,
    createLink:
      options.paymentHooks?.createRenewalPaymentLink ??
      (async (w, input) => paymentUrlOf(publicUrl(), (await createRenewalPaymentLink(w, input)).token)),
  });
  registerBillingRoutes(app, {
    connectionFor,
    uow,
    // Cancelled at PayPal first, outside the transaction: if PayPal fails nothing changes.
    beforeCancel: (tenantId, id) => cancelAtProvider(providerDeps, tenantId, id),
    // A plan change at the provider first, outside the transaction (plan-change.provider.ts).
    changePlanAtProvider: (tenantId, change) =>
      changePlanAtProvider({ ...providerDeps, publicUrl }, tenantId, change),
    // Issue 30: a pause of collection at the provider first, outside the transaction (pause.service.ts).
    pauseAtProvider: (tenantId, id, target, move) =>
      pauseAtProvider(providerDeps, tenantId, id, target, move),
    // 'Applica coupon' on a Stripe-charged subscription: Stripe first (coupon-apply.service.ts).
    couponAtStripe: (tenantId, target) => couponAtStripe(providerDeps, tenantId, target),
    // 'Applica coupon' on a PayPal-charged subscription: plan and revise first, then the customer's approval.
    couponAtPayPal: (tenantId, id, code, run) =>
      applyCouponAtPayPal({ ...providerDeps, publicUrl }, tenantId, id, code, run),
    checkPayPalCoupon: (tenantId, id, run) => checkPayPalCouponApproval(providerDeps, tenantId, id, run),
    checkPayPalPlanChange: (tenantId, id, run) =>
      checkPayPalPlanChangeApproval(providerDeps, tenantId, id, run),
    // A 'next payment' charge's Stripe invoice item removed before it is deleted (issue 30).
    beforeChargeDelete: (tenantId, subscriptionId, chargeId) =>
      removeNextChargeAtStripe(providerDeps, tenantId, subscriptionId, chargeId),
  });
  registerOwnPaymentRoutes(app, { connectionFor, providers, publicUrl, clock: now });
  registerPaymentRoutes(app, {
    ...providerDeps,
    publicUrl,
    rateLimit: config.rateLimit,
    widgetDailyCap: config.widget.dailyCapPerPlan,
  });
  registerDashboardRoutes(app, { connectionFor, clock: now });

  // Invoices sent to the SdI through the tenant's PEC (issue 12): its SMTP password in the box.
  const pecDeps = {
    connectionFor,
    shared: db,
    uow,
    box: secretBox,
    outbound,
    ...(options.pecTransportOptions ? { transportOptions: options.pecTransportOptions } : {}),
  };
  // Background jobs: pg-boss on this database, started when the app is ready (after migrations:
  // startServer migrates before listen) and stopped when it closes.
  if (config.jobs !== 'off') {
    // The payment side of the recurring jobs (issue 9's services); tests may replace them.
    const paymentHooks: Partial<PaymentHooks> = options.paymentHooks ?? {
      expireTokens: (w) => expirePaymentTokens(w),
      // The nightly provider sync covers both providers of a tenant (PayPal, then Stripe).
      syncPaypal: async (tenantId) => {
        const tenantDb = connectionFor(tenantId);
        const paypal = (await tenantsWithLivePaypal(tenantDb, 'paypal')).includes(tenantId)
          ? (await syncPaypal(providerDeps, tenantId, { by: 'job' })).changed
          : 0;
        const stripe = (await tenantsWithLivePaypal(tenantDb, 'stripe')).includes(tenantId)
          ? (await syncProvider(providerDeps, tenantId, 'stripe', { by: 'job' })).changed
          : 0;
        return paypal + stripe;
      },
      createRenewalPaymentLink: async (w, input) =>
        paymentUrlOf(publicUrl(), (await createRenewalPaymentLink(w, input)).token),
      // Issue 29: the ladder's end stops the provider's subscription (PayPal suspended, Stripe cancelled).
      stopProviderSubscription: async (tenantId, kind, providerSubscriptionId) => {
        const adapter = await providers.adapterOf(tenantId, kind);
        const reason = 'Solleciti di pagamento esauriti in Rinnova';
        if (kind === 'paypal') await adapter.stopRenewal(providerSubscriptionId, reason);
        else await adapter.cancelSubscription(providerSubscriptionId, reason);
      },
      // In the control database and every tenant database of its own (db/tenancy/every-database.ts).
      paypalTenants: async () => {
        const found = await acrossDatabases(db, tenancy && (() => tenancy.ownDatabases()), async (d) => [
          ...(await tenantsWithLivePaypal(d)),
          ...(await tenantsWithLivePaypal(d, 'stripe')),
        ]);
        return [...new Set(found.flat())].sort((a, b) => a - b);
      },
    };
    const { definitions, missing } = recurringJobs({ db, uow, hooks: paymentHooks, providers });
    definitions.push(...invoicePecJobs({ ...pecDeps, clock: now }));
    jobs = createJobEngine({
      db,
      mode: config.jobs,
      definitions: [
        ...definitions,
        ...integrationJobs({ db, sender: webhookSender, now, log: app.log, ...tenantDatabases }),
        reportJob({ db, uow }),
        secretRewrapJob(rewrapDeps),
        {
          // What a failed send or an after-commit consumer left in the outbox, retried every minute.
          name: 'outbox-sweep',
          label: 'Invii in sospeso dalla outbox (e-mail, eventi dopo il commit)',
          cron: '* * * * *',
          retryLimit: 0,
          retryDelaySeconds: 60,
          retryBackoff: false,
          run: async () => ({ sent: await dispatcher.dispatchPending() }),
        },
      ],
      log: app.log,
    });
    const engine = jobs;
    app.addHook('onReady', async () => {
      if (missing.length > 0)
        app.log.info({ missing }, 'job engine: job non registrati, manca la dipendenza dei pagamenti');
      // Manual mode (tests) starts before the first request. In auto mode the server answers while
      // pg-boss checks its schema, queues and schedules (a fifth of a warm start's CPU): every
      // engine call (enqueue, the job list) waits for the start under way.
      if (engine.mode === 'manual') await engine.start();
      else
        engine.start().catch((error: unknown) => app.log.error({ err: error }, 'job engine: avvio fallito'));
    });
    // Secrets under an older key (or in the first, unbound form): rewritten now, not at night.
    // A start counts in the control database only (a thousand tenant databases would be opened
    // for it); with ENCRYPTION_KEY_PREVIOUS set (a rotation under way) the job runs anyway and
    // sweeps the tenants' databases too.
    if (engine.mode === 'auto')
      app.addHook('onReady', async () => {
        void (
          secretBox.previousKeyIds.length > 0
            ? Promise.resolve(1)
            : countStale({ ...rewrapDeps, tenantDatabases: async () => [] })
        )
          .then((stale) => (stale > 0 ? engine.enqueue(SECRET_REWRAP_JOB, {}) : null))
          .catch((error: unknown) =>
            app.log.error({ err: error }, 'segreti: controllo della chiave fallito'),
          );
      });
    app.addHook('onClose', async () => engine.stop());
  }
  app.decorate('jobs', jobs);
  registerHangfireRoutes(app, jobs, now);
  registerInvoiceRoutes(app, { connectionFor, uow, pec: pecDeps, jobs });
  registerApiKeyRoutes(app, { db, connectionFor, limiter: apiLimiter, requestLog, now });
  registerApiV1SubscriptionRoutes(app, {
    connectionFor,
    uow,
    beforeCancel: (tenantId, id) => cancelAtProvider(providerDeps, tenantId, id),
  });
  app.decorate('integrations', { requestLog, webhooks: webhookSender });
  registerWebhookRoutes(app, {
    connectionFor,
    secretBox,
    sender: webhookSender,
    allowPrivate: !outbound.guard,
  });
  registerReportRoutes(app, { connectionFor, clock: now, jobs });
  // What a crash left between commit and dispatch goes out at start: the control database's now;
  // the tenants' own databases with the every-minute sweep (a start does not wait on every
  // tenant database: with a thousand, that alone took longer than Fastify's 10 s).
  app.addHook('onReady', async () => {
    const sent = await dispatcher.dispatchPending({ controlOnly: true });
    if (sent > 0) app.log.info({ sent }, 'outbox: messaggi in sospeso inviati');
  });
  return app;
}
