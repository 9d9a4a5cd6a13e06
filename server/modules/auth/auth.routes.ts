import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMINS } from '../../../contract/access';
import { serverMessages } from '../../../contract/messages';
import { loginLinkMessages } from '../../../contract/login-link';
import {
  loginLinkRequestSchema,
  loginLinkSchema,
  loginRequestSchema,
  passwordResetRequestSchema,
  resetPasswordSchema,
  sessionUserSchema,
} from '../../../contract/schemas/auth';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';
import { perIp } from '../../plugins/rate-limit';
import { callerOf, tenantOf } from '../../plugins/request-context';
import type { AuthService, SignInOutcome } from './auth.service';
import { secondFactorLoginSchema } from '../../../contract/schemas/two-factor';

export interface AuthRoutesOptions {
  auth: AuthService;
  rateLimit: { windowMs: number; login: number; passwordReset: number; loginLink: number };
}

const tags = ['user'];
const signInAnswer = z.union([
  z.object({ token: z.string(), user: sessionUserSchema }),
  z.object({ secondFactor: z.literal(true), challenge: z.string() }),
]);

/** Sign-in and password reset (api-contract.md 'Auth calls'); paths as the SPA calls them. */
export function registerAuthRoutes(fastify: FastifyInstance, { auth, rateLimit }: AuthRoutesOptions): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/user/Login',
    {
      config: { access: 'appKey', rateLimit: perIp(rateLimit.login, rateLimit.windowMs) },
      schema: {
        tags,
        summary:
          'Accesso: 401 credenziali errate, 409 con data.resetUrl se serve una nuova password, 429 troppi tentativi',
        security: [{ apiKey: [] }],
        body: loginRequestSchema,
        response: { 200: envelopeOf(signInAnswer) },
      },
    },
    async (request) => answer(await auth.login(request.body.email, request.body.password, request.ip)),
  );

  app.post(
    '/api/user/Login/second-factor',
    {
      config: { access: 'appKey', rateLimit: perIp(rateLimit.login, rateLimit.windowMs) },
      schema: {
        tags,
        summary:
          'Secondo passaggio dell’accesso in due passaggi: il challenge di Login e un codice TOTP (6 cifre) o un codice di recupero; risponde come Login',
        security: [{ apiKey: [] }],
        body: secondFactorLoginSchema,
        response: { 200: envelopeOf(signInAnswer) },
      },
    },
    async (request) =>
      answer(await auth.completeSecondFactor(request.body.challenge, request.body.code, request.ip)),
  );

  app.post(
    '/api/user/request-login-link',
    {
      config: { access: 'appKey', rateLimit: perIp(rateLimit.loginLink, rateLimit.windowMs) },
      schema: {
        tags,
        summary:
          'Link di accesso senza password per un cliente: sempre la stessa risposta; l’email (link valido 15 minuti, una sola volta) parte solo se l’indirizzo è di un cliente attivo, mai per Admin e SuperAdmin; 429 troppe richieste per IP o per indirizzo',
        security: [{ apiKey: [] }],
        body: loginLinkRequestSchema,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      const { email } = request.body;
      // Counted for every address, known or not: a 429 tells nothing of the account.
      const wait = await auth.loginLinkRetryAfter(email);
      if (wait > 0)
        throw new HttpError(429, serverMessages.rateLimited, { headers: { 'retry-after': String(wait) } });
      // The same answer, in the same time, whether the address is a customer's or not: the
      // look-up and the e-mail run after it has been sent.
      request.afterResponse(() => auth.requestLoginLink(email));
      return ok(null, loginLinkMessages.requested);
    },
  );

  app.post(
    '/api/user/login-link',
    {
      config: { access: 'appKey', rateLimit: perIp(rateLimit.login, rateLimit.windowMs) },
      schema: {
        tags,
        summary:
          'Accesso con il link ricevuto via email (una sola volta, finché non scade): risponde come Login; 400 se il link non vale',
        security: [{ apiKey: [] }],
        body: loginLinkSchema,
        response: { 200: envelopeOf(signInAnswer) },
      },
    },
    async (request) => answer(await auth.loginWithLink(request.body.token, request.ip)),
  );

  /** A session's token, or the second step's challenge. */
  function answer(outcome: SignInOutcome) {
    if ('secondFactor' in outcome) return ok(outcome, serverMessages.ok);
    const { user, tokenVersion } = outcome;
    const token = app.jwt.sign({ sub: String(user.id), roleId: user.roleId, tv: tokenVersion });
    return ok({ token, user }, serverMessages.ok);
  }

  app.post(
    '/api/user/Logout',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Esci: termina sul server le sessioni dell’account (i token emessi finora non valgono più)',
        security: [{ apiKey: [], bearer: [] }],
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await request.globalUnitOfWork((w) => auth.endSessions(w, callerOf(request).userId));
      return ok(null, serverMessages.loggedOut);
    },
  );

  app.post(
    '/api/user/request-password-reset',
    {
      config: { access: 'appKey', rateLimit: perIp(rateLimit.passwordReset, rateLimit.windowMs) },
      schema: {
        tags,
        security: [{ apiKey: [] }],
        body: passwordResetRequestSchema,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      // The same answer, in the same time, whether the account exists or not: the look-up and the
      // e-mail run after it has been sent.
      const { email } = request.body;
      request.afterResponse(() => auth.requestPasswordReset(email));
      return ok(null, serverMessages.resetRequested);
    },
  );

  app.get(
    '/api/user/validate-reset-token',
    {
      config: { access: 'appKey' },
      schema: {
        tags,
        summary:
          'Sempre 200: success e data true se il token è valido, false se scaduto, usato o sconosciuto',
        security: [{ apiKey: [] }],
        querystring: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: envelopeOf(z.boolean()) },
      },
    },
    async (request) => {
      const valid = await auth.isResetTokenValid(request.query.token);
      return {
        success: valid,
        message: valid ? serverMessages.resetTokenValid : serverMessages.resetTokenInvalid,
        data: valid,
      };
    },
  );

  app.post(
    '/api/user/reset-password',
    {
      // Each attempt may cost a scrypt hash: limited so it cannot be used to burn CPU.
      config: { access: 'appKey', rateLimit: perIp(rateLimit.passwordReset * 4, rateLimit.windowMs) },
      schema: {
        tags,
        security: [{ apiKey: [] }],
        body: resetPasswordSchema,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body.token, request.body.newPassword);
      return ok(null, serverMessages.passwordUpdated);
    },
  );

  app.get(
    '/api/user/isEmailUnique/:email',
    {
      config: { access: 'user', roles: ADMINS, tenant: 'required' },
      schema: {
        tags,
        security: [{ apiKey: [], bearer: [], tenant: [] }],
        params: z.object({ email: z.string().trim().min(1).max(254) }),
        response: { 200: envelopeOf(z.boolean()) },
      },
    },
    async (request) => ok(await auth.isEmailUnique(request.params.email, tenantOf(request))),
  );
}
