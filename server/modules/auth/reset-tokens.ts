import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { RESET_TOKEN_TTL_MS } from '../../../contract/enums';
import type { Database } from '../../db/client';
import { passwordResetTokens, users } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/secrets';
import type { GlobalUnitOfWork } from '../../unit-of-work/unit-of-work';

/** The SPA route that opens the new-password form. */
export function resetPath(token: string): string {
  return `/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Password-reset tokens: 32 random bytes (base64url) handed out once, stored only as their
 * sha256, valid 1 hour, single use. Using one consumes every other open token of that user.
 * Written in the caller's unit of work, at its clock: a link exists only if its unit commits.
 */

/** `ttlMs`: 1 hour for a reset; longer for the set-password link of a new account. */
export async function issueResetToken(
  w: GlobalUnitOfWork,
  userId: number,
  ttlMs: number = RESET_TOKEN_TTL_MS,
): Promise<string> {
  const token = randomToken();
  await w.tx.insert(passwordResetTokens).values({
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(w.now.getTime() + ttlMs),
    createdAt: w.now,
  });
  return token;
}

export async function isResetTokenOpen(db: Database, token: string, now: Date): Promise<boolean> {
  const rows = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, sha256(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    );
  return rows.length > 0;
}

/** Every open link of the account closed (its e-mail changed, or a new password was set). */
export async function closeResetTokens(w: GlobalUnitOfWork, userId: number): Promise<void> {
  await w.tx
    .update(passwordResetTokens)
    .set({ usedAt: w.now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

/** Sets the password if the token is open; null (and nothing changed) otherwise. */
export async function consumeResetToken(
  w: GlobalUnitOfWork,
  token: string,
  passwordHash: string,
): Promise<{ userId: number } | null> {
  // One conditional UPDATE claims the token, so two concurrent uses cannot both succeed.
  const [claimed] = await w.tx
    .update(passwordResetTokens)
    .set({ usedAt: w.now })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, sha256(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, w.now),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  if (!claimed) return null;
  await w.tx
    .update(users)
    // A new password ends every session of the account (token version moves on).
    .set({
      passwordHash,
      mustResetPassword: false,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      updatedAt: w.now,
    })
    .where(eq(users.id, claimed.userId));
  await closeResetTokens(w, claimed.userId);
  return { userId: claimed.userId };
}
