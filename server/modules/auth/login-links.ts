/**
 * Sign-in links of customers (issue 28, api-contract 'Customer area'): 32 random bytes
 * (base64url) handed out once by e-mail, stored only as their sha256 in the control database's
 * `login_link_tokens`, single use, short-lived (contract/login-link.ts). Only an active customer
 * (role User, active, an active membership in some tenant) gets one: staff sign in with their
 * password and, where on, a second factor, which a link would skip.
 *
 * Tokens are issued when the e-mail carrying them is sent (mail/sign-in-link.ts, wired in
 * app.ts), so the link exists nowhere in clear but in the e-mail. Issuing one removes the expired
 * rows; using one closes every other open link of the account.
 */
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { Role } from '../../../contract/enums';
import {
  loginLinkPath,
  MAILED_LOGIN_LINK_TTL_MS,
  REQUESTED_LOGIN_LINK_TTL_MS,
} from '../../../contract/login-link';
import type { Database, Executor } from '../../db/client';
import { loginLinkTokens, users, userTenants } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/secrets';
import type { SignInLinkIssuer, SignInLinkOrigin } from '../../mail/sign-in-link';

const ttlOf: Record<SignInLinkOrigin, number> = {
  request: REQUESTED_LOGIN_LINK_TTL_MS,
  mail: MAILED_LOGIN_LINK_TTL_MS,
};

/** Whether the account may sign in with a link: an active customer with an active membership. */
export async function mayUseLoginLink(db: Executor, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        eq(users.isActive, true),
        eq(users.roleId, Role.User),
        sql`exists (select 1 from ${userTenants} where ${userTenants.userId} = ${users.id} and ${userTenants.isActive})`,
      ),
    );
  return rows.length > 0;
}

/** A new link's token for the account, or null when it may not have one. */
export async function issueLoginLink(
  db: Executor,
  userId: number,
  origin: SignInLinkOrigin,
  now: Date,
): Promise<string | null> {
  if (!(await mayUseLoginLink(db, userId))) return null;
  // The expired links of every account go (an index on expires_at: cheap at each issue).
  await db.delete(loginLinkTokens).where(lt(loginLinkTokens.expiresAt, now));
  const token = randomToken();
  await db.insert(loginLinkTokens).values({
    userId,
    tokenHash: sha256(token),
    origin,
    expiresAt: new Date(now.getTime() + ttlOf[origin]),
    createdAt: now,
  });
  return token;
}

/**
 * Claims the link: its account, or null when it is unknown, used or expired. One conditional
 * UPDATE, so two concurrent uses cannot both succeed; the account's other open links close too.
 */
export async function consumeLoginLink(db: Executor, token: string, now: Date): Promise<number | null> {
  const hash = sha256(token);
  const [claimed] = await db
    .update(loginLinkTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(loginLinkTokens.tokenHash, hash),
        isNull(loginLinkTokens.usedAt),
        gt(loginLinkTokens.expiresAt, now),
      ),
    )
    .returning({ userId: loginLinkTokens.userId });
  if (!claimed) return null;
  await db
    .update(loginLinkTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(loginLinkTokens.userId, claimed.userId),
        isNull(loginLinkTokens.usedAt),
        ne(loginLinkTokens.tokenHash, hash),
      ),
    );
  return claimed.userId;
}

/** Every open link of the account closed (its e-mail changed: the links went to the old one). */
export async function closeLoginLinks(db: Executor, userId: number, now: Date): Promise<void> {
  await db
    .update(loginLinkTokens)
    .set({ usedAt: now })
    .where(and(eq(loginLinkTokens.userId, userId), isNull(loginLinkTokens.usedAt)));
}

/**
 * The issuer the mailer calls for a message that asks for a link (mail/sign-in-link.ts): one
 * place makes every link, at the time the e-mail is sent, outside any unit's transaction.
 */
export function createLoginLinkIssuer(deps: {
  db: Database;
  clock: () => Date;
  publicUrl: () => string;
}): SignInLinkIssuer {
  return async ({ userId, origin }) => {
    const token = await issueLoginLink(deps.db, userId, origin, deps.clock());
    if (token === null) return null;
    return {
      url: `${deps.publicUrl()}${loginLinkPath(token)}`,
      revoke: async () => {
        await deps.db.delete(loginLinkTokens).where(eq(loginLinkTokens.tokenHash, sha256(token)));
      },
    };
  };
}
