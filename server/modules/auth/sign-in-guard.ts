/**
 * Failed sign-ins slow down per account name (issue 23), across every address and every server
 * process (the counters are rows): after the third failure in a row, each further try must wait
 * 2, 4, 8 … seconds (at most 15 minutes; SIGN_IN_FREE_FAILURES, default 3) after the last failure, else 429 with Retry-After.
 * Counted by a digest of the e-mail whether an account exists or not, so the delay tells nothing.
 * A stranger's failures cannot shut the owner out: from an address (an IPv6 /64) where the
 * account signed in before, the delay does not apply (OWASP's "device" exemption, by address).
 * The per-IP limits of the route and the (e-mail, IP) lock still apply there.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { signInFailures, signInKnownAddresses } from '../../db/schema';
import { sha256 } from '../../lib/secrets';

const MAX_DELAY_MS = 15 * 60_000;

export const emailDigest = (email: string) => sha256(`sign-in:${email.trim().toLowerCase()}`);

/** The wait (ms) after the last of `failures` consecutive failures, `free` of them without one. */
export function delayAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(MAX_DELAY_MS, 2 ** Math.min(30, failures - free + 1) * 1000);
}

export function createSignInGuard(db: Database, freeFailures: number) {
  return {
    /** Seconds to wait before this try may be checked, or 0. */
    async retryAfterSeconds(email: string, addressKey: string, now: Date): Promise<number> {
      const hash = emailDigest(email);
      const [row] = await db.select().from(signInFailures).where(eq(signInFailures.emailHash, hash));
      if (!row) return 0;
      const waitUntil = row.lastFailureAt.getTime() + delayAfter(row.failures, freeFailures);
      if (waitUntil <= now.getTime()) return 0;
      const [known] = await db
        .select({ at: signInKnownAddresses.lastSuccessAt })
        .from(signInKnownAddresses)
        .where(
          and(eq(signInKnownAddresses.emailHash, hash), eq(signInKnownAddresses.addressKey, addressKey)),
        );
      if (known) return 0;
      return Math.max(1, Math.ceil((waitUntil - now.getTime()) / 1000));
    },

    async recordFailure(email: string, now: Date): Promise<void> {
      await db
        .insert(signInFailures)
        .values({ emailHash: emailDigest(email), failures: 1, lastFailureAt: now })
        .onConflictDoUpdate({
          target: signInFailures.emailHash,
          set: { failures: sql`${signInFailures.failures} + 1`, lastFailureAt: now },
        });
    },

    /** A full sign-in (password and, where on, the second factor): the count ends, the address is known. */
    async recordSuccess(email: string, addressKey: string, now: Date): Promise<void> {
      const hash = emailDigest(email);
      await db.delete(signInFailures).where(eq(signInFailures.emailHash, hash));
      await db
        .insert(signInKnownAddresses)
        .values({ emailHash: hash, addressKey, lastSuccessAt: now })
        .onConflictDoUpdate({
          target: [signInKnownAddresses.emailHash, signInKnownAddresses.addressKey],
          set: { lastSuccessAt: now },
        });
    },
  };
}
export type SignInGuard = ReturnType<typeof createSignInGuard>;
