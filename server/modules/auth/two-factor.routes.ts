import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMINS, SUPER_ADMINS } from '../../../contract/access';
import { serverMessages } from '../../../contract/messages';
import { twoFactorCodeBodySchema } from '../../../contract/schemas/two-factor';
import { twoFactorMessages as m } from '../../../contract/two-factor';
import type { Database } from '../../db/client';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { callerOf } from '../../plugins/request-context';
import { idParamsSchema } from '../../crud/list-query';
import type { TwoFactor } from './two-factor.service';

const tags = ['user'];
const staff = { access: 'user', roles: ADMINS } as const;

/** The caller's own second factor, and a SuperAdmin's recovery of someone else's (issue 23). */
export function registerTwoFactorRoutes(
  fastify: FastifyInstance,
  { db, twoFactor }: { db: Database; twoFactor: TwoFactor },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/user/two-factor',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Stato dell’accesso in due passaggi del chiamante',
        response: {
          200: envelopeOf(
            z.object({
              available: z.boolean(),
              enabled: z.boolean(),
              recoveryCodesLeft: z.number(),
              requiredByTenantIds: z.array(z.number()),
            }),
          ),
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ok(await twoFactor.status(db, caller.userId, caller.roleId));
    },
  );

  app.post(
    '/api/user/two-factor/setup',
    {
      config: staff,
      schema: {
        tags,
        summary:
          'Nuovo segreto TOTP (URI otpauth:// da mostrare come codice QR); si attiva solo dopo la conferma con un codice',
        response: {
          200: envelopeOf(z.object({ otpauthUri: z.string(), secret: z.string() })),
        },
      },
    },
    async (request) =>
      ok(await request.globalUnitOfWork((w) => twoFactor.beginSetup(w, callerOf(request).userId))),
  );

  app.post(
    '/api/user/two-factor/enable',
    {
      config: staff,
      schema: {
        tags,
        summary:
          'Conferma il segreto con un codice dell’app; risponde i codici di recupero (mostrati una volta)',
        body: twoFactorCodeBodySchema,
        response: { 200: envelopeOf(z.object({ recoveryCodes: z.array(z.string()) })) },
      },
    },
    async (request) => {
      const recoveryCodes = await request.globalUnitOfWork((w) =>
        twoFactor.enable(w, callerOf(request).userId, request.body.code),
      );
      return ok({ recoveryCodes }, m.enabled);
    },
  );

  app.post(
    '/api/user/two-factor/disable',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Disattiva l’accesso in due passaggi con un codice attuale o di recupero',
        body: twoFactorCodeBodySchema,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await request.globalUnitOfWork((w) =>
        twoFactor.disable(w, callerOf(request).userId, request.body.code),
      );
      return ok(null, m.disabled);
    },
  );

  app.post(
    '/api/user/two-factor/reset/:id',
    {
      config: { access: 'user', roles: SUPER_ADMINS },
      schema: {
        tags,
        summary:
          'SuperAdmin: azzera il secondo fattore di un’altra persona (telefono e codici persi); le sue sessioni terminano',
        params: idParamsSchema,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      if (request.params.id === caller.userId) throw new HttpError(409, serverMessages.selfChange);
      await request.globalUnitOfWork((w) => twoFactor.resetBySuperAdmin(w, request.params.id, caller.userId));
      return ok(null, m.resetDone);
    },
  );
}
