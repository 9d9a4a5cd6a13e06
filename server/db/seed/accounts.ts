import { Role } from '../../../contract/enums';
import type { RoleId } from '../../../contract/enums';
import { hashPassword } from '../../lib/passwords';
import type { SecretBox } from '../../lib/secret-box';
import type { Executor, Transaction } from '../client';
import { tenants, users, userTenants } from '../schema';
import { seedDemoBilling } from './demo-billing';
import { seedDemoCatalogue } from './demo-catalogue';
import { FORFETTARIO } from './demo-fixtures';

/** Demo Srl (an ordinary company), Studio Rossi (a commercialista), a forfettario illustrator. */
export const DEMO_TENANTS = ['Demo Srl', 'Studio Rossi', FORFETTARIO] as const;

/**
 * Issues the invoices of the demo's paid payments, in the seed's transaction, as they would have
 * been issued when each was paid. The invoicing module provides it (modules/invoice/demo-invoices.ts):
 * the infrastructure imports no module, so the caller of the seed hands it over.
 */
export type DemoInvoicer = (
  tx: Transaction,
  input: { tenantIds: readonly number[]; now: Date },
) => Promise<void>;

export const DEMO_ACCOUNTS: readonly {
  email: string;
  name: string;
  roleId: RoleId;
  tenant: (typeof DEMO_TENANTS)[number] | null;
}[] = [
  { email: 'superadmin@demo.rinnova.it', name: 'Super Admin Demo', roleId: Role.SuperAdmin, tenant: null },
  { email: 'admin@demo.rinnova.it', name: 'Admin Demo', roleId: Role.Admin, tenant: 'Demo Srl' },
  { email: 'cliente@demo.rinnova.it', name: 'Cliente Demo', roleId: Role.User, tenant: 'Demo Srl' },
];

/**
 * Demo tenants and one account per role, all with DEMO_PASSWORD, Demo Srl's catalogue
 * (demo-catalogue.ts), a year of billing of the three tenants up to `now` (demo-billing.ts) and
 * the invoices of every paid payment (`invoices`). `secretBox` encrypts the placeholder PayPal
 * secret (none stored without it). These passwords are meant to be typed by whoever tries the
 * demo, so they are not flagged for a forced reset.
 */
export async function seedDemo(
  db: Executor,
  demoPassword: string,
  secretBox: SecretBox | undefined,
  invoices: DemoInvoicer,
  now: Date = new Date(),
): Promise<void> {
  const passwordHash = await hashPassword(demoPassword);
  await db.transaction(async (tx) => {
    const accountIds = new Map<string, number>();
    const tenantRows = await tx
      .insert(tenants)
      .values(DEMO_TENANTS.map((name) => ({ name, configuration: null })))
      .returning({ id: tenants.id, name: tenants.name });
    const tenantId = new Map(tenantRows.map((t) => [t.name, t.id]));
    for (const account of DEMO_ACCOUNTS) {
      const defaultTenantId = account.tenant ? (tenantId.get(account.tenant) ?? null) : null;
      const [user] = await tx
        .insert(users)
        .values({
          email: account.email,
          name: account.name,
          roleId: account.roleId,
          passwordHash,
          defaultTenantId,
        })
        .returning({ id: users.id });
      if (user) accountIds.set(account.email, user.id);
      if (user && defaultTenantId !== null)
        await tx
          .insert(userTenants)
          .values({ userId: user.id, tenantId: defaultTenantId, name: account.name });
    }
    const demoTenant = tenantId.get('Demo Srl');
    const demoUser = DEMO_ACCOUNTS.find((a) => a.roleId === Role.User && a.tenant === 'Demo Srl');
    if (demoTenant !== undefined)
      await seedDemoCatalogue(tx, demoTenant, demoUser && accountIds.get(demoUser.email), secretBox);
    await seedDemoBilling(tx, { now, tenantIds: tenantId, accountIds });
    await invoices(tx, { tenantIds: [...tenantId.values()], now });
  });
}

/**
 * The first SuperAdmin from ADMIN_EMAIL / ADMIN_PASSWORD. A password that came from
 * configuration must be replaced at first sign-in (must_reset_password). An existing account
 * with that e-mail is left alone.
 */
export async function seedFirstAdmin(db: Executor, email: string, password: string): Promise<boolean> {
  const inserted = await db
    .insert(users)
    .values({
      email,
      name: 'Amministratore',
      roleId: Role.SuperAdmin,
      passwordHash: await hashPassword(password),
      mustResetPassword: true,
    })
    // The only unique key of users is lower(email): an existing account wins.
    .onConflictDoNothing()
    .returning({ id: users.id });
  return inserted.length > 0;
}
