import fastifyJwt from '@fastify/jwt';
import { eq, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { isRoleId, Role } from '../../contract/enums';
import { serverMessages } from '../../contract/messages';
import type { Database } from '../db/client';
import { tenants, users, userTenants } from '../db/schema';
import { HttpError } from '../lib/http-error';
import { accessOf } from './request-context';
import { tenantHeader, tenantHeaderId } from './tenant';

export interface AuthenticationOptions {
  db: Database;
  secret: string;
  expiresInMs: number;
}

/**
 * Bearer tokens (JWT, HS256) with expiry; claims `sub` (user id), `roleId` and `tv` (token
 * version). On every route whose access is 'user' (the default) the token is verified and the user re-read,
 * so a deactivated or deleted account takes effect at once rather than when the token expires,
 * and a token whose `tv` is not the account's current `token_version` (moved on by a password
 * reset, a role change, a deactivation, a removal, Logout) is refused: that session has ended.
 * The account and, when a well-formed `X-Tenant-Id` is sent, whether it may act in that tenant
 * are read in one prepared query (one round trip per call; the tenant plugin decides with it).
 * No cache: a session ended or a membership removed takes effect on the very next call, in every
 * server process.
 * 401 messages: 'Token scaduto' when expired (the SPA looks for 'scaduto'), otherwise
 * tokenMissing / tokenInvalid.
 */
export const authenticationPlugin = fp<AuthenticationOptions>(
  async (app, { db, secret, expiresInMs }) => {
    await app.register(fastifyJwt, {
      secret,
      // fast-jwt reads a bare number as seconds: say the unit.
      sign: { algorithm: 'HS256', expiresIn: `${Math.max(1, Math.round(expiresInMs / 1000))}s` },
      // Verified tokens are remembered (fast-jwt's LRU, keyed by the token's hash, never past
      // the token's own expiry): a signed-in caller's HMAC is checked once, not on every call.
      // Whether the session still holds is the identity query's job, on every call.
      verify: { algorithms: ['HS256'], cache: 1000, cacheTTL: 60_000 },
    });
    app.decorateRequest('auth', null);

    const tenantParam = sql`${sql.placeholder('tenantId')}::int`;
    const identity = db
      .select({
        id: users.id,
        email: users.email,
        roleId: users.roleId,
        isActive: users.isActive,
        tokenVersion: users.tokenVersion,
        tenantAllowed: sql<boolean | null>`case
          when ${tenantParam} is null then null
          when ${users.roleId} = ${Role.SuperAdmin} then exists (
            select 1 from ${tenants} where ${tenants.id} = ${tenantParam})
          else exists (
            select 1 from ${userTenants}
            where ${userTenants.userId} = ${users.id} and ${userTenants.tenantId} = ${tenantParam}
              and ${userTenants.isActive})
          end`,
        // An Admin without a second factor, in a tenant that requires one of its Admins.
        secondFactorMissing: sql<boolean | null>`case
          when ${tenantParam} is null or ${users.roleId} <> ${Role.Admin} or ${users.totpEnabledAt} is not null
            then false
          else exists (select 1 from ${tenants} where ${tenants.id} = ${tenantParam} and ${tenants.requireTwoFactor})
          end`,
      })
      .from(users)
      .where(eq(users.id, sql.placeholder('userId')))
      .prepare('auth_identity');

    app.addHook('onRequest', async (request) => {
      // Only routes declared (or defaulting to) 'user' take a session; tenant-key routes are
      // authenticated by modules/integrations/tenant-key.plugin.ts, the others by nobody.
      if (accessOf(request) !== 'user') return;

      if (!request.headers.authorization) throw new HttpError(401, serverMessages.tokenMissing);
      let claims: { sub: string; roleId: unknown; tv?: unknown };
      try {
        claims = await request.jwtVerify();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED')
          throw new HttpError(401, serverMessages.tokenExpired);
        // The header is present (checked above), so anything else is a malformed or forged token.
        throw new HttpError(401, serverMessages.tokenInvalid);
      }
      const userId = Number(claims.sub);
      if (!Number.isSafeInteger(userId) || userId <= 0) throw new HttpError(401, serverMessages.tokenInvalid);
      const tenantId = tenantHeaderId(tenantHeader(request.headers));
      const [user] = await identity.execute({ userId, tenantId });
      // Tokens issued before versions existed carry no `tv`: they count as version 0.
      const tokenVersion = claims.tv ?? 0;
      if (!user || !user.isActive || !isRoleId(user.roleId) || tokenVersion !== user.tokenVersion)
        throw new HttpError(401, serverMessages.tokenInvalid);
      request.auth = {
        userId: user.id,
        roleId: user.roleId,
        email: user.email,
        ...(tenantId !== null
          ? {
              tenantAccess: {
                tenantId,
                allowed: user.tenantAllowed === true,
                secondFactorMissing: user.secondFactorMissing === true,
              },
            }
          : {}),
      };
    });
  },
  { name: 'authentication' },
);
