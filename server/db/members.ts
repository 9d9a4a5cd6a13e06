/**
 * A tenant's members across the two databases (issue 25, server/README 'Tenant databases').
 *
 * The control database keeps who can sign in and where: the identity (`users`: e-mail, password,
 * second factor, role) and the membership (`user_tenants` with `is_active`). A tenant with a
 * database of its own keeps there its record of the person: the same `user_tenants` row with the
 * name, PEC, VAT number, fiscal code and billing address, which the control database's row then
 * leaves empty, and a copy of the identity without any secret (`users`: id, e-mail, name, role,
 * active), so its subscriptions, invoices and lists join them where they are. A tenant still in the
 * control database has one row, as before.
 *
 * Every write here runs in a unit over both databases (`database: 'both'`): `w.tx` is the tenant's
 * transaction, `w.control` the control database's (the same one while the tenant has no database of
 * its own), and the control one commits first.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from './client';
import { users, userTenants } from './schema';

/** What a tenant records of a person: the membership's columns but its keys and derived ones. */
export type MemberProfile = Partial<
  Omit<typeof userTenants.$inferInsert, 'userId' | 'tenantId' | 'searchText' | 'email' | 'firstLiveAt'>
>;

/** What a tenant database keeps of an identity: no password, no second factor, no token version. */
export const IDENTITY_COPY = {
  id: users.id,
  email: users.email,
  name: users.name,
  roleId: users.roleId,
  isActive: users.isActive,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

/** The two sides of a unit that writes members. */
export interface MemberUnit {
  readonly tx: Executor;
  readonly control?: Executor;
  readonly now: Date;
}

/** The control database's side of the unit (the unit's own transaction when there is one database). */
export function controlOf(w: MemberUnit): Executor {
  return w.control ?? w.tx;
}

/** True when the tenant's record of its members lives in a database of its own. */
export function ownDatabase(w: MemberUnit): boolean {
  return w.control !== undefined && w.control !== w.tx;
}

/**
 * The tenant database's copy of an identity, refreshed from the control database: no password,
 * no second factor, no token version. A copy of another identity with the same e-mail (one removed
 * from the platform meanwhile) gives way first, as the e-mail is unique there too.
 */
export async function mirrorIdentity(w: MemberUnit, userId: number): Promise<void> {
  if (!ownDatabase(w)) return;
  const [identity] = await controlOf(w).select(IDENTITY_COPY).from(users).where(eq(users.id, userId));
  if (!identity) return;
  await w.tx
    .delete(users)
    .where(and(sql`lower(${users.email}) = ${identity.email.toLowerCase()}`, sql`${users.id} <> ${userId}`));
  await w.tx
    .insert(users)
    .values(identity)
    .onConflictDoUpdate({
      target: users.id,
      set: {
        email: identity.email,
        name: identity.name,
        roleId: identity.roleId,
        isActive: identity.isActive,
        updatedAt: identity.updatedAt,
      },
    });
}

/**
 * A new membership: the whole record in one row while the tenant is in the control database;
 * otherwise the membership in the control database and the record, with the identity's copy, in the
 * tenant's.
 */
export async function addMember(
  w: MemberUnit,
  userId: number,
  tenantId: number,
  profile: MemberProfile,
): Promise<void> {
  const stamps = { createdAt: w.now, updatedAt: w.now };
  if (!ownDatabase(w)) {
    await w.tx.insert(userTenants).values({ userId, tenantId, ...stamps, ...profile });
    return;
  }
  await controlOf(w)
    .insert(userTenants)
    .values({ userId, tenantId, isActive: profile.isActive ?? true, ...stamps });
  await mirrorIdentity(w, userId);
  await w.tx
    .insert(userTenants)
    .values({ userId, tenantId, ...stamps, ...profile })
    .onConflictDoUpdate({
      target: [userTenants.userId, userTenants.tenantId],
      set: { ...profile, updatedAt: w.now },
    });
}

/** The tenant's record of a member changes; `isActive` also in the control database's membership. */
export async function updateMember(
  w: MemberUnit,
  userId: number,
  tenantId: number,
  profile: MemberProfile,
): Promise<void> {
  const where = and(eq(userTenants.userId, userId), eq(userTenants.tenantId, tenantId));
  await w.tx
    .update(userTenants)
    .set({ ...profile, updatedAt: w.now })
    .where(where);
  if (ownDatabase(w) && profile.isActive !== undefined)
    await controlOf(w).update(userTenants).set({ isActive: profile.isActive, updatedAt: w.now }).where(where);
}

/**
 * The membership ends in both databases. In the tenant's, first: a row of the tenant still
 * referencing the member (a subscription, an invoice, an address) fails the unit there, so nothing
 * is removed (409).
 */
export async function removeMember(w: MemberUnit, userId: number, tenantId: number): Promise<void> {
  const where = and(eq(userTenants.userId, userId), eq(userTenants.tenantId, tenantId));
  await w.tx.delete(userTenants).where(where);
  if (!ownDatabase(w)) return;
  await w.tx.delete(users).where(eq(users.id, userId));
  await controlOf(w).delete(userTenants).where(where);
}

/**
 * After a tenant's database came back from a backup (restore), its members as the control database
 * knows them now: a membership made since the backup gets the identity's copy and an empty record
 * there (its details were typed after the backup); a record of someone whose membership ended since
 * is kept with its history (subscriptions, invoices) and made inactive, and gets the membership
 * back, inactive, when the identity still exists. Answers how many of each it found.
 */
export async function reconcileMembers(
  control: Executor,
  tenant: Executor,
  tenantId: number,
  now: Date,
): Promise<{ added: number; deactivated: number }> {
  const inControl = await control
    .select({ userId: userTenants.userId, isActive: userTenants.isActive })
    .from(userTenants)
    .where(eq(userTenants.tenantId, tenantId));
  const inTenant = await tenant
    .select({ userId: userTenants.userId })
    .from(userTenants)
    .where(eq(userTenants.tenantId, tenantId));
  const known = new Set(inTenant.map((r) => r.userId));
  const members = new Set(inControl.map((r) => r.userId));
  const unit = { tx: tenant, control, now };
  let added = 0;
  for (const member of inControl) {
    if (known.has(member.userId)) continue;
    await mirrorIdentity(unit, member.userId);
    await tenant
      .insert(userTenants)
      .values({ userId: member.userId, tenantId, isActive: member.isActive, createdAt: now, updatedAt: now });
    added++;
  }
  let deactivated = 0;
  for (const record of inTenant) {
    if (members.has(record.userId)) continue;
    const where = and(eq(userTenants.userId, record.userId), eq(userTenants.tenantId, tenantId));
    await tenant.update(userTenants).set({ isActive: false, updatedAt: now }).where(where);
    const [identity] = await control.select({ id: users.id }).from(users).where(eq(users.id, record.userId));
    if (identity)
      await control
        .insert(userTenants)
        .values({ userId: record.userId, tenantId, isActive: false, createdAt: now, updatedAt: now })
        .onConflictDoNothing();
    deactivated++;
  }
  return { added, deactivated };
}
