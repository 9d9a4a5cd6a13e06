import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { isRoleId, Role } from '../../../contract/enums';
import { serverMessages } from '../../../contract/messages';
import type { SessionUser } from '../../../contract/schemas/auth';
import type { Database } from '../../db/client';
import { users, userTenants } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { loginLinkMail, passwordResetMail } from '../../mail/templates';
import { loginLinkMessages } from '../../../contract/login-link';
import { consumeLoginLink, mayUseLoginLink } from './login-links';
import { LoginThrottle } from './login-throttle';
import type { SharedCounters } from '../../lib/shared-counters';
import type { Actor, GlobalUnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { clientAddressKey } from '../../lib/client-address';
import { sha256 } from '../../lib/secrets';
import type { SecretBox } from '../../lib/secret-box';
import { twoFactorMessages, type SecondFactorChallenge } from '../../../contract/two-factor';
import { createSignInGuard } from './sign-in-guard';
import { canUseTwoFactor, createTwoFactor } from './two-factor.service';
import { consumeResetToken, isResetTokenOpen, issueResetToken, resetPath } from './reset-tokens';

/** A sign-in step's answer: a session, or the second step's challenge. */
export type SignInOutcome = { user: SessionUser; tokenVersion: number } | SecondFactorChallenge;

export interface AuthServiceDeps {
  db: Database;
  /** Seals the TOTP secrets. */
  secretBox: SecretBox;
  /** Every write of sign-in and reset is a unit of work (its clock, its outbox for e-mails). */
  uow: UnitOfWorkRunner;
  log: FastifyBaseLogger;
  publicUrl: () => string;
  loginMaxFailures: number;
  loginLockMs: number;
  signInFreeFailures: number;
  /** Where failed sign-ins are counted: shared by every app instance on PostgreSQL. */
  counters: SharedCounters;
  /** Sign-in links asked for per e-mail address (whether an account exists or not) per window. */
  loginLinkPerAddress: { max: number; windowMs: number };
}

/** Who acts when nobody is signed in yet (a reset request, a reset link, a forced reset). */
const signIn: Actor = { kind: 'system', job: 'accesso e reset password' };

const byEmail = (email: string) => eq(sql`lower(${users.email})`, email.trim().toLowerCase());

export function createAuthService(deps: AuthServiceDeps) {
  const { db, uow } = deps;
  const now = () => uow.clock();
  const twoFactor = createTwoFactor(deps.secretBox);
  const guard = createSignInGuard(db, deps.signInFreeFailures);
  const throttle = new LoginThrottle(deps.counters, deps.loginMaxFailures, deps.loginLockMs);

  /**
   * The tenant to open after sign-in: the default one while its membership is active, else the
   * first active membership, else none (the SPA then says there is no tenant).
   */
  async function usableTenant(userId: number, preferred: number | null): Promise<number | null> {
    const active = await db
      .select({ tenantId: userTenants.tenantId })
      .from(userTenants)
      .where(and(eq(userTenants.userId, userId), eq(userTenants.isActive, true)))
      .orderBy(asc(userTenants.tenantId));
    const ids = active.map((m) => m.tenantId);
    return preferred !== null && ids.includes(preferred) ? preferred : (ids[0] ?? null);
  }

  async function findByEmail(email: string) {
    const [user] = await db.select().from(users).where(byEmail(email));
    return user;
  }

  async function sessionOf(user: typeof users.$inferSelect): Promise<SignInOutcome> {
    if (!isRoleId(user.roleId)) throw new HttpError(401, serverMessages.invalidCredentials);
    return {
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        roleId: user.roleId,
        defaultTenantId:
          user.roleId === Role.SuperAdmin
            ? user.defaultTenantId
            : await usableTenant(user.id, user.defaultTenantId),
      },
      tokenVersion: user.tokenVersion,
    };
  }

  return {
    twoFactor,
    /**
     * Checks e-mail and password. One message for an unknown e-mail, a wrong password, an account
     * without a password yet and a deactivated account, so answers reveal no account.
     */
    async login(email: string, password: string, ip: string): Promise<SignInOutcome> {
      // Failures count per (e-mail, IP) and per IP (shared counters), and per account name across
      // every process and address (sign-in-guard.ts): a stranger's wrong passwords from elsewhere
      // can neither lock the owner out of their own address nor make the delay reveal the account.
      const keys = [`email-ip:${email.trim().toLowerCase()}|${ip}`, `ip:${ip}`];
      const retryAfter = await throttle.retryAfterSeconds(keys);
      if (retryAfter > 0) {
        throw new HttpError(429, serverMessages.rateLimited, {
          headers: { 'retry-after': String(retryAfter) },
        });
      }
      const address = clientAddressKey(ip);
      const wait = await guard.retryAfterSeconds(email, address, now());
      if (wait > 0)
        throw new HttpError(429, twoFactorMessages.slowDown(wait), {
          headers: { 'retry-after': String(wait) },
        });

      const user = await findByEmail(email);
      const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
      if (!user || !user.passwordHash || !passwordOk || !user.isActive || !isRoleId(user.roleId)) {
        await throttle.recordFailure(keys);
        await guard.recordFailure(email, now());
        throw new HttpError(401, serverMessages.invalidCredentials);
      }
      await throttle.clear(keys[0] ?? '');
      if (user.mustResetPassword) {
        // The password came from configuration or from someone else: the owner must choose one.
        const token = await uow.runGlobal(signIn, (w) => issueResetToken(w, user.id));
        throw new HttpError(409, serverMessages.passwordResetRequired, {
          data: { resetUrl: resetPath(token) },
        });
      }
      if (canUseTwoFactor(user.roleId) && user.totpEnabledAt) {
        const challenge = await uow.runGlobal(signIn, (w) =>
          twoFactor.issueChallenge(w, user.id, user.tokenVersion),
        );
        return { secondFactor: true, challenge };
      }
      await guard.recordSuccess(email, address, now());
      return sessionOf(user);
    },

    /** The second step: the challenge of the password step and a TOTP or recovery code. */
    async completeSecondFactor(challenge: string, code: string, ip: string): Promise<SignInOutcome> {
      const outcome = await uow.runGlobal(signIn, (w) => twoFactor.redeem(w, challenge, code));
      if (outcome === null)
        throw new HttpError(400, twoFactorMessages.challengeInvalid, {
          errors: [`challenge: ${twoFactorMessages.challengeInvalid}`],
        });
      if (outcome === 'badCode')
        throw new HttpError(400, twoFactorMessages.codeInvalid, {
          errors: [`code: ${twoFactorMessages.codeInvalid}`],
        });
      const [user] = await db.select().from(users).where(eq(users.id, outcome.userId));
      if (!user || !user.isActive || !isRoleId(user.roleId))
        throw new HttpError(401, serverMessages.invalidCredentials);
      await guard.recordSuccess(user.email, clientAddressKey(ip), now());
      return sessionOf(user);
    },

    /**
     * Only an existing active account gets the e-mail (through the outbox, in the unit that writes
     * its link). The route answers before this runs, so timing tells nothing of the account.
     */
    async requestPasswordReset(email: string): Promise<void> {
      const user = await findByEmail(email);
      if (!user || !user.isActive) return;
      await uow.runGlobal(signIn, async (w) => {
        const token = await issueResetToken(w, user.id);
        await w.outbox.email(
          passwordResetMail(user.email, user.name, `${deps.publicUrl()}${resetPath(token)}`),
        );
      });
    },

    /**
     * Seconds to wait before another sign-in link may be asked for this address, or 0 (and the
     * request counted). Counted for every address, known or not, so the answer tells nothing.
     */
    async loginLinkRetryAfter(email: string): Promise<number> {
      const key = `login-link:${sha256(email.trim().toLowerCase())}`;
      const { max, windowMs } = deps.loginLinkPerAddress;
      const state = await deps.counters.hit(key, windowMs);
      return state.count > max ? Math.max(1, Math.ceil(state.ttlMs / 1000)) : 0;
    },

    /**
     * 'Ricevi un link di accesso': only an active customer gets the e-mail; its link is issued
     * when it is sent (mail/sign-in-link.ts), so the outbox row holds none. Staff (Admin,
     * SuperAdmin) get nothing: their sign-in may need a second factor, which a link would skip.
     * The route answers before this runs, so timing tells nothing of the account.
     */
    async requestLoginLink(email: string): Promise<void> {
      const user = await findByEmail(email);
      if (!user || !(await mayUseLoginLink(db, user.id))) return;
      await uow.runGlobal(signIn, (w) => w.outbox.email(loginLinkMail(user.email, user.name, user.id)));
    },

    /** `POST api/user/login-link`: the e-mailed link's token for what Login answers. */
    async loginWithLink(token: string, ip: string): Promise<SignInOutcome> {
      const invalid = () => new HttpError(400, loginLinkMessages.invalid);
      const userId = await uow.runGlobal(signIn, (w) => consumeLoginLink(w.tx, token, w.now));
      // The role, the account or its memberships may have changed since the link was sent.
      if (userId === null || !(await mayUseLoginLink(db, userId))) throw invalid();
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (!user) throw invalid();
      await guard.recordSuccess(user.email, clientAddressKey(ip), now());
      return sessionOf(user);
    },

    isResetTokenValid: (token: string) => isResetTokenOpen(db, token, now()),

    /** Logout: the account's token version moves on, so its tokens stop working everywhere. */
    async endSessions(w: GlobalUnitOfWork, userId: number): Promise<void> {
      await w.tx
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: w.now })
        .where(eq(users.id, userId));
    },

    async resetPassword(token: string, newPassword: string): Promise<void> {
      const invalid = () =>
        new HttpError(400, serverMessages.resetTokenInvalid, { errors: [serverMessages.resetTokenInvalid] });
      // Checked before hashing, so junk tokens cost no scrypt time; consume() re-checks atomically.
      if (!(await isResetTokenOpen(db, token, now()))) throw invalid();
      const hash = await hashPassword(newPassword);
      if (!(await uow.runGlobal(signIn, (w) => consumeResetToken(w, token, hash)))) throw invalid();
    },

    /** True when no member of the tenant uses this e-mail (the wizard's uniqueness check). */
    async isEmailUnique(email: string, tenantId: number): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .innerJoin(userTenants, eq(userTenants.userId, users.id))
        .where(and(byEmail(email), eq(userTenants.tenantId, tenantId)))
        .limit(1);
      return rows.length === 0;
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
