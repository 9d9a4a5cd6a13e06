/**
 * Two-factor sign-in (issue 23): TOTP (RFC 6238) by otpauth, a maintained implementation of
 * HOTP/TOTP with base32 secrets and otpauth:// URIs (an HMAC-SHA1 counter is easy to get subtly
 * wrong by hand: truncation, drift windows). Secrets are sealed by the secret box; a code is
 * accepted once (the step it was accepted for is kept: no replay within its window); recovery
 * codes are one-time and stored as sha256.
 */
import { and, count, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { Role, type RoleId } from '../../../contract/enums';
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  twoFactorMessages as m,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../../contract/two-factor';
import type { Database } from '../../db/client';
import {
  recoveryCodes,
  securityEvents,
  signInChallenges,
  tenants,
  users,
  userTenants,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { SecretBox } from '../../lib/secret-box';
import { randomToken, sha256 } from '../../lib/secrets';
import type { GlobalUnitOfWork } from '../../unit-of-work/unit-of-work';
import { randomBytes } from 'node:crypto';

const ISSUER = 'Rinnova';
const PERIOD_SECONDS = 30;
/** One step either side: a phone's clock a little off still works. */
const WINDOW = 1;
/** Recovery codes: 8 characters of an alphabet without look-alikes, shown as XXXX-XXXX. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export const canUseTwoFactor = (roleId: number): boolean =>
  roleId === Role.SuperAdmin || roleId === Role.Admin;

const totpOf = (secretBase32: string, label: string) =>
  new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
    algorithm: 'SHA1',
  });

function newRecoveryCode(): string {
  const bytes = randomBytes(8);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/** The form a recovery code is hashed in: upper case, no dash or spaces. */
const normalizedRecovery = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_ATTEMPTS = 5;

const badCode = () => new HttpError(400, m.codeInvalid, { errors: [`code: ${m.codeInvalid}`] });

export function createTwoFactor(box: SecretBox) {
  /**
   * Whether `code` is a current TOTP code of `secret` never accepted before (then its step is
   * recorded, atomically: two requests with the same code cannot both pass).
   */
  async function acceptTotp(
    w: GlobalUnitOfWork,
    userId: number,
    secret: string,
    code: string,
  ): Promise<boolean> {
    if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return false;
    const totp = totpOf(secret, 'x');
    const timestamp = w.now.getTime();
    const delta = totp.validate({ token: code, timestamp, window: WINDOW });
    if (delta === null) return false;
    const step = Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
    const [moved] = await w.tx
      .update(users)
      .set({ totpLastStep: step })
      .where(
        and(eq(users.id, userId), sql`(${users.totpLastStep} is null or ${users.totpLastStep} < ${step})`),
      )
      .returning({ id: users.id });
    return moved !== undefined;
  }

  async function acceptRecoveryCode(w: GlobalUnitOfWork, userId: number, code: string): Promise<boolean> {
    const normalized = normalizedRecovery(code);
    if (normalized.length !== 8) return false;
    const [used] = await w.tx
      .update(recoveryCodes)
      .set({ usedAt: w.now })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, sha256(normalized)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return used !== undefined;
  }

  async function record(w: GlobalUnitOfWork, userId: number, kind: string, actorUserId: number | null) {
    await w.tx.insert(securityEvents).values({ userId, kind, actorUserId, at: w.now });
  }

  async function clearFactor(w: GlobalUnitOfWork, userId: number) {
    await w.tx
      .update(users)
      .set({
        totpSecretEncrypted: null,
        totpPendingEncrypted: null,
        totpEnabledAt: null,
        totpLastStep: null,
        updatedAt: w.now,
      })
      .where(eq(users.id, userId));
    await w.tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  }

  async function account(w: GlobalUnitOfWork, userId: number) {
    const [row] = await w.tx
      .select({
        id: users.id,
        email: users.email,
        roleId: users.roleId,
        secret: users.totpSecretEncrypted,
        pending: users.totpPendingEncrypted,
      })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!row) throw new HttpError(404, m.notEnabled);
    return row;
  }

  return {
    /** The second step's challenge, once the password was right: 5 minutes, single use. */
    async issueChallenge(w: GlobalUnitOfWork, userId: number, tokenVersion: number): Promise<string> {
      const token = randomToken();
      await w.tx.insert(signInChallenges).values({
        userId,
        tokenHash: sha256(token),
        tokenVersion,
        expiresAt: new Date(w.now.getTime() + CHALLENGE_TTL_MS),
        createdAt: w.now,
      });
      return token;
    },

    /**
     * The account of an open challenge, with `code` checked: the challenge is spent by a right
     * code, and by the fifth wrong one. Null when the challenge is unknown, spent, expired, or its
     * account's sessions moved on meanwhile (a password reset): sign in again.
     */
    async redeem(
      w: GlobalUnitOfWork,
      token: string,
      code: string,
    ): Promise<{ userId: number } | 'badCode' | null> {
      const [challenge] = await w.tx
        .select({
          id: signInChallenges.id,
          userId: signInChallenges.userId,
          tokenVersion: signInChallenges.tokenVersion,
          attempts: signInChallenges.attempts,
          current: users.tokenVersion,
        })
        .from(signInChallenges)
        .innerJoin(users, eq(users.id, signInChallenges.userId))
        .where(
          and(
            eq(signInChallenges.tokenHash, sha256(token)),
            isNull(signInChallenges.usedAt),
            gt(signInChallenges.expiresAt, w.now),
          ),
        )
        .for('update');
      if (!challenge || challenge.current !== challenge.tokenVersion) return null;
      const right = await this.verify(w, challenge.userId, code);
      const attempts = challenge.attempts + 1;
      await w.tx
        .update(signInChallenges)
        .set({ attempts, ...(right || attempts >= CHALLENGE_ATTEMPTS ? { usedAt: w.now } : {}) })
        .where(eq(signInChallenges.id, challenge.id));
      return right ? { userId: challenge.userId } : 'badCode';
    },

    /** Whether the account signs in with a second factor. */
    async isEnabled(db: Database, userId: number): Promise<boolean> {
      const [row] = await db
        .select({ on: isNotNull(users.totpEnabledAt) })
        .from(users)
        .where(eq(users.id, userId));
      return row?.on === true;
    },

    /**
     * The second step: a current TOTP code (6 digits), or one of the account's unused recovery
     * codes. False when neither.
     */
    async verify(w: GlobalUnitOfWork, userId: number, code: string): Promise<boolean> {
      const row = await account(w, userId);
      if (!row.secret) return false;
      const secret = box.open(row.secret, 'users.totp_secret_encrypted', userId);
      if (secret && (await acceptTotp(w, userId, secret, code))) return true;
      return acceptRecoveryCode(w, userId, code);
    },

    async status(db: Database, userId: number, roleId: RoleId): Promise<TwoFactorStatus> {
      const [row] = await db
        .select({ enabledAt: users.totpEnabledAt })
        .from(users)
        .where(eq(users.id, userId));
      const [left] = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      const required =
        roleId === Role.Admin
          ? await db
              .select({ id: tenants.id })
              .from(tenants)
              .innerJoin(userTenants, eq(userTenants.tenantId, tenants.id))
              .where(and(eq(userTenants.userId, userId), eq(tenants.requireTwoFactor, true)))
          : [];
      return {
        available: canUseTwoFactor(roleId),
        enabled: row?.enabledAt != null,
        recoveryCodesLeft: row?.enabledAt != null ? (left?.n ?? 0) : 0,
        requiredByTenantIds: required.map((r) => r.id).sort((a, b) => a - b),
      };
    },

    /** A new secret to scan; the factor turns on only once a code of it is confirmed. */
    async beginSetup(w: GlobalUnitOfWork, userId: number): Promise<TwoFactorSetup> {
      const row = await account(w, userId);
      if (!canUseTwoFactor(row.roleId)) throw new HttpError(403, m.notForRole);
      if (row.secret) throw new HttpError(409, m.alreadyEnabled);
      const secret = new Secret({ size: 20 }).base32;
      await w.tx
        .update(users)
        .set({
          totpPendingEncrypted: box.seal(secret, 'users.totp_pending_encrypted', userId),
          updatedAt: w.now,
        })
        .where(eq(users.id, userId));
      return { otpauthUri: totpOf(secret, row.email).toString(), secret };
    },

    /** Confirms the scanned secret with one of its codes; answers the recovery codes (shown once). */
    async enable(w: GlobalUnitOfWork, userId: number, code: string): Promise<string[]> {
      const row = await account(w, userId);
      if (!canUseTwoFactor(row.roleId)) throw new HttpError(403, m.notForRole);
      if (row.secret) throw new HttpError(409, m.alreadyEnabled);
      const secret = row.pending ? box.open(row.pending, 'users.totp_pending_encrypted', userId) : null;
      if (!secret) throw new HttpError(409, m.setupMissing);
      if (!(await acceptTotp(w, userId, secret, code))) throw badCode();
      await w.tx
        .update(users)
        .set({
          // Sealed again for its own column: a value is bound to the column it lives in.
          totpSecretEncrypted: box.seal(secret, 'users.totp_secret_encrypted', userId),
          totpPendingEncrypted: null,
          totpEnabledAt: w.now,
          updatedAt: w.now,
        })
        .where(eq(users.id, userId));
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await w.tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await w.tx
        .insert(recoveryCodes)
        .values(codes.map((c) => ({ userId, codeHash: sha256(normalizedRecovery(c)), createdAt: w.now })));
      await record(w, userId, 'twoFactorEnabled', userId);
      return codes;
    },

    /** Turned off by its owner, with a current code or a recovery code. */
    async disable(w: GlobalUnitOfWork, userId: number, code: string): Promise<void> {
      const row = await account(w, userId);
      if (!row.secret) throw new HttpError(409, m.notEnabled);
      if (!(await this.verify(w, userId, code))) throw badCode();
      await clearFactor(w, userId);
      await record(w, userId, 'twoFactorDisabled', userId);
    },

    /**
     * Recovery by a SuperAdmin for someone who lost their phone and codes: the factor is cleared,
     * every session of the person ends, and the reset is recorded with who made it.
     */
    async resetBySuperAdmin(w: GlobalUnitOfWork, userId: number, superAdminId: number): Promise<void> {
      const row = await account(w, userId);
      if (!row.secret && !row.pending) throw new HttpError(409, m.notEnabled);
      await clearFactor(w, userId);
      await w.tx
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, userId));
      await record(w, userId, 'twoFactorReset', superAdminId);
    },
  };
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;
