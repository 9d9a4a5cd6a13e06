import path from 'node:path';
import fastifyCors from '@fastify/cors';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { parseQueryString } from './lib/querystring';
import { applyItalianZodMessages } from './lib/zod-italian';
import { createSecretBox } from './lib/secret-box';
import { createMailer } from './mail/mailer';
import type { Mailer } from './mail/mailer';
import { createAuthService } from './modules/auth/auth.service';
import { addressEntity } from './modules/address/address.entity';
import { registerBillingRoutes } from './modules/billing/billing.routes';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { registerContactRoutes } from './modules/contact/contact.routes';
import { registerCrudRoutes } from './modules/crud/routes';
import { municipalityEntity } from './modules/geography/municipality.entity';
import { provinceEntity } from './modules/geography/province.entity';
import { regionEntity } from './modules/geography/region.entity';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerInvoiceRoutes } from './modules/invoice/invoice.routes';
import { paymentProviderEntity } from './modules/payment-provider/payment-provider.entity';
import { registerPaymentProviderRoutes } from './modules/payment-provider/payment-provider.routes';
import { featureEntity } from './modules/plan/feature.entity';
import { planFeatureEntity } from './modules/plan/plan-feature.entity';
import { planEntity } from './modules/plan/plan.entity';
import { registerPlanRoutes } from './modules/plan/plan.routes';
import { tenantEntity } from './modules/tenant/tenant.entity';
import { userEntity } from './modules/user/user.entity';
import { apiKeyPlugin } from './plugins/api-key';
import { authenticationPlugin } from './plugins/authentication';
import { caseInsensitiveKeysPlugin } from './plugins/case-insensitive-keys';
import { docsPlugin } from './plugins/docs';
import { errorHandlerPlugin } from './plugins/error-handler';
import { formBodyPlugin } from './plugins/form-body';
import { notFoundPlugin } from './plugins/not-found';
import { rateLimitPlugin } from './plugins/rate-limit';
import { roleGuardPlugin } from './plugins/role-guard';
import { tenantPlugin } from './plugins/tenant';
import { createOutboxDispatcher } from './unit-of-work/outbox';
import { createUnitOfWorkRunner } from './unit-of-work/unit-of-work';
import type { UnitOfWorkRunner } from './unit-of-work/unit-of-work';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs units of work (server/unit-of-work): routes added from outside (tests, jobs) use it too. */
    unitOfWork: UnitOfWorkRunner;
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
  /** A logger to share (startServer's); otherwise one is made at config.logLevel. */
  logger?: FastifyBaseLogger;
  /** The clock of token expiry and timestamps; tests move it. */
  now?: () => Date;
}

/** Builds the whole app: plugins first (order matters: hooks run in registration order), then routes. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const now = options.now ?? (() => new Date());
  const publicUrl = options.publicUrl ?? (() => config.publicUrl ?? `http://localhost:${config.port}`);
  applyItalianZodMessages();

  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger }
      : {
          logger: {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]'],
          },
        }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // The contract's routes match case-insensitively, as the original ASP.NET backend did.
    routerOptions: { caseSensitive: false, querystringParser: parseQueryString },
  });
  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: options.outboxDir ?? path.join(config.dataDir, 'outbox'),
      log: app.log,
    });
  if (!options.mailer) app.addHook('onClose', async () => mailer.close());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorHandlerPlugin);
  await app.register(fastifyCors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : true,
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'x-api-key', 'X-Tenant-Id'],
    exposedHeaders: ['Retry-After'],
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
  await app.register(rateLimitPlugin);
  await app.register(docsPlugin);
  await app.register(notFoundPlugin, { spaDir: options.spaDir });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
  });

  // Every write is a unit of work on the tenant's connection (one shared database today; a
  // dedicated database per tenant changes only `connectionFor`), with an outbox sent after commit.
  const connectionFor = () => db;
  const dispatcher = createOutboxDispatcher({ db, mailer, log: app.log, clock: now });
  const uow = createUnitOfWorkRunner({ connectionFor, shared: db, clock: now, dispatcher });
  const crud = { db, uow };
  app.decorate('unitOfWork', uow);

  registerHealthRoutes(app, db);
  const auth = createAuthService({
    db,
    mailer,
    log: app.log,
    publicUrl,
    now,
    loginMaxFailures: config.rateLimit.loginMaxFailures,
    loginLockMs: config.rateLimit.loginLockMs,
  });
  registerAuthRoutes(app, { auth, rateLimit: config.rateLimit });
  registerContactRoutes(app, {
    db,
    mailer,
    supportEmail: config.supportEmail,
    rateLimit: config.rateLimit,
    now,
  });
  registerCrudRoutes(app, crud, regionEntity);
  registerCrudRoutes(app, crud, provinceEntity);
  registerCrudRoutes(app, crud, municipalityEntity);
  registerCrudRoutes(app, crud, tenantEntity);
  registerCrudRoutes(app, crud, userEntity({ db, mailer, log: app.log, publicUrl, now }));
  registerCrudRoutes(app, crud, addressEntity);
  registerCrudRoutes(app, crud, planEntity);
  registerPlanRoutes(app, { db, publicUrl });
  registerCrudRoutes(app, crud, featureEntity);
  registerCrudRoutes(app, crud, planFeatureEntity);
  const secretBox = createSecretBox(config.encryptionKey ?? options.jwtSecret);
  registerCrudRoutes(app, crud, paymentProviderEntity(secretBox));
  registerPaymentProviderRoutes(app, { db, rateLimit: config.rateLimit });

  registerBillingRoutes(app, { connectionFor, uow });
  registerInvoiceRoutes(app, { connectionFor, uow });
  // What a crash left between commit and dispatch goes out at start.
  app.addHook('onReady', async () => {
    const sent = await dispatcher.dispatchPending();
    if (sent > 0) app.log.info({ sent }, 'outbox: messaggi in sospeso inviati');
  });
  return app;
}
