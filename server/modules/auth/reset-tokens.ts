import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { RESET_TOKEN_TTL_MS } from '../../../contract/enums';
import type { Database, Executor } from '../../db/client';
import { passwordResetTokens, users } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/secrets';

/** The SPA route that opens the new-password form. */
export function resetPath(token: string): string {
  return `/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Password-reset tokens: 32 random bytes (base64url) handed out once, stored only as their
 * sha256, valid 1 hour, single use. Using one consumes every other open token of that user.
 */
export function createResetTokens(db: Database, now: () => Date) {
  return {
    /**
     * `ttlMs`: 1 hour for a reset; longer for the set-password link of a new account. `tx`: the
     * unit of work that creates the account, so the link exists only if the account does.
     */
    async issue(userId: number, ttlMs: number = RESET_TOKEN_TTL_MS, tx: Executor = db): Promise<string> {
      const token = randomToken();
      await tx.insert(passwordResetTokens).values({
        userId,
        tokenHash: sha256(token),
        expiresAt: new Date(now().getTime() + ttlMs),
      });
      return token;
    },

    async isValid(token: string): Promise<boolean> {
      const rows = await db
        .select({ id: passwordResetTokens.id })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.tokenHash, sha256(token)),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now()),
          ),
        );
      return rows.length > 0;
    },

    /** Sets the password if the token is open; false (and nothing changed) otherwise. */
    async consume(token: string, passwordHash: string): Promise<{ userId: number } | null> {
      const at = now();
      return db.transaction(async (tx) => {
        // One conditional UPDATE claims the token, so two concurrent uses cannot both succeed.
        const [claimed] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: at })
          .where(
            and(
              eq(passwordResetTokens.tokenHash, sha256(token)),
              isNull(passwordResetTokens.usedAt),
              gt(passwordResetTokens.expiresAt, at),
            ),
          )
          .returning({ userId: passwordResetTokens.userId });
        if (!claimed) return null;
        await tx
          .update(users)
          // A new password ends every session of the account (token version moves on).
          .set({
            passwordHash,
            mustResetPassword: false,
            tokenVersion: sql`${users.tokenVersion} + 1`,
            updatedAt: at,
          })
          .where(eq(users.id, claimed.userId));
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: at })
          .where(and(eq(passwordResetTokens.userId, claimed.userId), isNull(passwordResetTokens.usedAt)));
        return { userId: claimed.userId };
      });
    },
  };
}
export type ResetTokens = ReturnType<typeof createResetTokens>;
