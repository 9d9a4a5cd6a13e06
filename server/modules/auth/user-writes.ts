import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { Role } from '../../../contract/enums';
import { serverMessages } from '../../../contract/messages';
import type { UserInputParsed } from '../../../contract/schemas/user';
import type { Executor } from '../../db/client';
import { tenantUnitOf, type GlobalUnitOfWork } from '../../unit-of-work/unit-of-work';
import { tenants, users, userTenants } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { PgErrorCode, pgErrorCode } from '../../lib/pg-errors';
import { setPasswordMail, withSignInLink } from '../../mail/templates';
import { closeLoginLinks } from './login-links';
import { closeResetTokens, issueResetToken, resetPath } from './reset-tokens';
import { tenantOfCaller } from '../../crud/caller';
import type { Caller, EntityWrites } from '../../crud/entity';
import { resolveBillingAddress } from './billing-address';
import { addMember, controlOf, mirrorIdentity, removeMember, updateMember } from '../../db/members';
import type { BillingColumns } from './billing-address';
import { assertMayGrantRole, assertMayManage, assertNotSelf } from './user-rules';

export interface UserWritesDeps {
  /** Origin of the e-mailed set-password links (PUBLIC_URL). */
  publicUrl: () => string;
}

/** The set-password link of a new account lives longer than a reset link (1 h): it waits in an inbox. */
export const SET_PASSWORD_TTL_HOURS = 72;

const byEmail = (email: string) => eq(sql`lower(${users.email})`, email);

function profileOf(input: UserInputParsed, billing: BillingColumns) {
  return {
    name: input.name,
    pec: input.pec ?? null,
    phone: input.phone ?? null,
    sdi: input.sdi ?? null,
    vatCode: input.vatCode ?? null,
    fiscalCode: input.fiscalCode ?? null,
    countryCode: input.countryCode,
    billingCity: input.billingCity ?? null,
    paOfficeCode: input.paOfficeCode ?? null,
    // Absent (undefined) keeps the stored value: clients older than the fiscal profiles send none.
    publicAdministration:
      input.publicAdministration === undefined ? undefined : Boolean(input.publicAdministration),
    cig: input.cig,
    withholdingAgent: input.withholdingAgent,
    isCompany: input.isCompany,
    isActive: input.isActive,
    ...billing,
  };
}

/** A concurrent write that took the e-mail first ends as the same 409 as the checks. */
async function emailConflictAs409<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgErrorCode(error) === PgErrorCode.uniqueViolation)
      throw new HttpError(409, serverMessages.emailTaken, {
        errors: [`email: ${serverMessages.emailTaken}`],
      });
    throw error;
  }
}

/**
 * Writes of the user API inside the caller's tenant. The sign-in identity (e-mail, role) is
 * global, what the tenant records is its membership row:
 * - Create with an e-mail new to the platform makes the identity (no password) and its
 *   membership, then e-mails a set-password link. An e-mail already in this tenant is a 409. An
 *   e-mail of an account outside this tenant is attached: the tenant gets its own record of the
 *   person, nothing of the other tenants' records is read or changed; the role must be the
 *   account's (409 otherwise), since roles are global.
 * - Update changes the membership; e-mail and role only when no other tenant shares the account.
 * - Delete removes the membership (409 while rows of the tenant still belong to the user) and
 *   the identity with its last membership, unless it is a SuperAdmin.
 */
export function createUserWrites(deps: UserWritesDeps): EntityWrites<UserInputParsed> {
  async function member(db: Executor, userId: number, tenantId: number) {
    const [row] = await db
      .select({ id: users.id, email: users.email, roleId: users.roleId, isActive: userTenants.isActive })
      .from(userTenants)
      .innerJoin(users, eq(users.id, userTenants.userId))
      .where(and(eq(userTenants.userId, userId), eq(userTenants.tenantId, tenantId)));
    if (!row) throw new HttpError(404, serverMessages.notFound);
    return row;
  }

  /**
   * The set-password link: its token and its e-mail are written in the account's unit of work, the
   * e-mail goes out after commit through the outbox (a failure is retried and never undoes the
   * account; the owner can also use 'Password dimenticata').
   */
  async function queueSetPasswordLink(
    w: GlobalUnitOfWork,
    userId: number,
    email: string,
    name: string | null,
    tenantId: number,
  ) {
    const control = controlOf(w);
    const token = await issueResetToken(
      { ...w, tx: control as GlobalUnitOfWork['tx'] },
      userId,
      SET_PASSWORD_TTL_HOURS * 3_600_000,
    );
    const [tenant] = await control
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    const link = `${deps.publicUrl()}${resetPath(token)}`;
    // A customer may also enter their area without a password (issue 28): the link is added when
    // the e-mail is sent, if the account is a customer's.
    await w.outbox.email(
      withSignInLink(
        setPasswordMail(email, name, link, tenant?.name ?? 'Rinnova', SET_PASSWORD_TTL_HOURS),
        userId,
      ),
    );
  }

  return {
    async create(w, caller: Caller, input) {
      const tenantId = tenantOfCaller(caller);
      assertMayGrantRole(caller, input.roleId);
      const profile = profileOf(input, await resolveBillingAddress(w.tx, input));
      const email = input.email.toLowerCase();
      const tx = controlOf(w);
      const outcome = await emailConflictAs409(async () => {
        const [existing] = await tx
          .select({ id: users.id, roleId: users.roleId, passwordHash: users.passwordHash })
          .from(users)
          .where(byEmail(email));
        if (existing) {
          const [already] = await tx
            .select({ userId: userTenants.userId })
            .from(userTenants)
            .where(and(eq(userTenants.userId, existing.id), eq(userTenants.tenantId, tenantId)));
          if (already)
            throw new HttpError(409, serverMessages.emailTaken, {
              errors: [`email: ${serverMessages.emailTaken}`],
            });
          // The other account's role belongs to other tenants: the answer does not name it.
          if (existing.roleId !== input.roleId)
            throw new HttpError(409, serverMessages.emailOtherRole, {
              errors: [`email: ${serverMessages.emailOtherRole}`],
            });
          await addMember(w, existing.id, tenantId, profile);
          return { userId: existing.id, invite: existing.passwordHash === null };
        }
        const [created] = await tx
          .insert(users)
          .values({ email, name: input.name, roleId: input.roleId, defaultTenantId: tenantId })
          .returning({ id: users.id });
        if (!created) throw new Error('user insert returned no row');
        await addMember(w, created.id, tenantId, profile);
        return { userId: created.id, invite: true };
      });
      if (outcome.invite) await queueSetPasswordLink(w, outcome.userId, email, input.name, tenantId);
      return outcome.userId;
    },

    async update(w, caller, id, input) {
      const tenantId = tenantOfCaller(caller);
      const target = await member(controlOf(w), id, tenantId);
      assertMayManage(caller, target);
      assertMayGrantRole(caller, input.roleId);
      const roleChanged = input.roleId !== target.roleId;
      const deactivated = target.isActive && !input.isActive;
      assertNotSelf(caller, id, roleChanged || !input.isActive);
      const email = input.email.toLowerCase();
      const emailChanged = email !== target.email.toLowerCase();
      const profile = profileOf(input, await resolveBillingAddress(w.tx, input));
      const tx = controlOf(w);
      await emailConflictAs409(async () => {
        const others = await tx
          .select({ tenantId: userTenants.tenantId })
          .from(userTenants)
          .where(and(eq(userTenants.userId, id), ne(userTenants.tenantId, tenantId)));
        const shared = others.length > 0;
        if (shared && (emailChanged || roleChanged)) throw new HttpError(409, serverMessages.sharedAccount);
        await tx
          .update(users)
          .set({
            email: emailChanged ? email : target.email,
            roleId: input.roleId,
            // The display name follows the record of the account's only tenant.
            ...(shared ? {} : { name: input.name }),
            // A new e-mail, a new role, or a deactivation in their only tenant ends the person's
            // sessions (they sign in again). Deactivated here while they belong to other tenants too, their
            // sessions go on there: this tenant refuses them on the very next call (its membership
            // is checked on every call), and one tenant's Admin cannot sign them out of another's.
            ...(emailChanged || roleChanged || (deactivated && !shared)
              ? { tokenVersion: sql`${users.tokenVersion} + 1` }
              : {}),
            updatedAt: w.now,
          })
          .where(eq(users.id, id));
        // Links e-mailed to the old address (set-password, reset, sign-in) stop working.
        if (emailChanged) {
          await closeResetTokens({ ...w, tx: tx as GlobalUnitOfWork['tx'] }, id);
          await closeLoginLinks(tx, id, w.now);
        }
        await mirrorIdentity(w, id);
        await updateMember(w, id, tenantId, profile);
      });
      // The customer's record changed: invoicing retries their payments waiting for these data,
      // in this unit (never failing it).
      await tenantUnitOf(w)?.publish('customer.billingDataChanged', { userId: id });
    },

    async remove(w, caller, id) {
      const tenantId = tenantOfCaller(caller);
      const target = await member(controlOf(w), id, tenantId);
      assertMayManage(caller, target);
      assertNotSelf(caller, id, true);
      // A reference still pointing at the membership or the identity aborts the unit: 409, nothing deleted.
      const tx = controlOf(w);
      await removeMember(w, id, tenantId);
      const remaining = await tx
        .select({ tenantId: userTenants.tenantId })
        .from(userTenants)
        .where(eq(userTenants.userId, id))
        .orderBy(asc(userTenants.tenantId));
      if (remaining.length === 0 && target.roleId !== Role.SuperAdmin) {
        await tx.delete(users).where(eq(users.id, id));
        return;
      }
      await tx
        .update(users)
        .set({ defaultTenantId: remaining[0]?.tenantId ?? null })
        .where(and(eq(users.id, id), eq(users.defaultTenantId, tenantId)));
      // Removed from their last tenant (a SuperAdmin keeps the identity): their sessions end.
      if (remaining.length === 0)
        await tx
          .update(users)
          .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
          .where(eq(users.id, id));
    },
  };
}
