/**
 * `npm run tenants -- split`: a tenant whose rows are still in the control database (an install
 * made before databases per tenant, or a tenant created without one) moves into a database of its
 * own (issue 25).
 *
 * 1. The tenant's database is created and migrated, its directory entry 'unavailable': the tenant's
 *    calls answer 503 until the split ends (a year of a busy tenant's rows takes seconds), every
 *    other tenant works. The split then waits for the other app instances' cached placements to
 *    expire, so none writes the tenant's rows in the control database any more.
 * 2. One transaction in the tenant's database copies, with their ids: the copies of its members'
 *    identities (no secret), their memberships with the tenant's record of them, then every
 *    tenant-owned table in reference order (TENANT_TABLES), the running totals too, with the
 *    tables' triggers off (the rows arrive as they are, the totals with them), and moves the
 *    sequences past the copied ids. Its plans are listed in `public_ids`.
 * 3. One transaction in the control database removes the tenant's rows from the tenant-owned tables
 *    (the append-only history lets that one tenant's rows go: migration 0022) and empties the
 *    tenant's record in the memberships, which keep who may sign in where.
 * 4. The entry becomes 'ready'.
 *
 * A failure before step 3 commits drops the new database and its entry: the tenant is back where
 * it was, nothing removed.
 */
import { and, asc, eq, getTableColumns, getTableName, gt, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../client';
import {
  addresses,
  apiKeys,
  apiRequestLogs,
  apiSettings,
  bankTransfers,
  collectionEvents,
  collectionSettings,
  couponRedemptions,
  coupons,
  dashboardLivePlans,
  dashboardMonths,
  features,
  invoiceCounters,
  invoiceIssues,
  invoiceSends,
  invoices,
  outbox,
  paymentProviders,
  paymentTokens,
  payments,
  paypalCouponRevisions,
  stripeCheckoutSessions,
  oneOffCharges,
  planChanges,
  planFeatures,
  subscriptionCredits,
  plans,
  providerWebhookEvents,
  subscriptionEvents,
  subscriptionReminders,
  subscriptions,
  users,
  userTenants,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  widgetRequests,
} from '../schema';
import { IDENTITY_COPY } from '../members';
import { PLAN_KIND, recordPublicId } from './public-home';
import type { TenantDatabases } from './tenant-databases';

/**
 * Every table a tenant owns besides its memberships, parents before children: what a split copies
 * (in this order) and removes from the control database (in the reverse one). A test checks that
 * every table with a `tenant_id` is here or named as the control database's own.
 */
export const TENANT_TABLES: readonly PgTable[] = [
  plans,
  features,
  planFeatures,
  paymentProviders,
  addresses,
  subscriptions,
  coupons,
  couponRedemptions,
  paypalCouponRevisions,
  payments,
  planChanges,
  oneOffCharges,
  subscriptionCredits,
  bankTransfers,
  subscriptionEvents,
  subscriptionReminders,
  collectionEvents,
  collectionSettings,
  paymentTokens,
  stripeCheckoutSessions,
  providerWebhookEvents,
  invoiceCounters,
  invoices,
  invoiceIssues,
  invoiceSends,
  apiKeys,
  apiRequestLogs,
  apiSettings,
  webhookEndpoints,
  webhookDeliveries,
  webhookAttempts,
  widgetRequests,
  dashboardMonths,
  dashboardLivePlans,
  outbox,
];

/** Tables with a `tenant_id` that stay in the control database (directories, memberships). */
export const CONTROL_TENANT_TABLES = ['tenant_databases', 'public_ids', 'user_tenants', 'api_key_directory'];

/** The tenant's record of a member: the membership's columns the control database then leaves empty. */
const RECORD_COLUMNS = {
  name: null,
  pec: null,
  phone: null,
  sdi: null,
  vatCode: null,
  fiscalCode: null,
  billingCity: null,
  paOfficeCode: null,
  cig: null,
  withholdingAgent: null,
  billingStreet: null,
  billingZip: null,
  billingRegionId: null,
  billingProvinceId: null,
  billingMunicipalityId: null,
  firstLiveAt: null,
} as const;

const BATCH = 1_000;

export interface SplitReport {
  tenantId: number;
  /** Rows copied per table. */
  rows: Record<string, number>;
}

export class SplitRefused extends Error {}

function tenantColumnOf(table: PgTable): PgColumn {
  const column = getTableColumns(table)['tenantId'];
  if (!column) throw new Error(`${getTableName(table)} has no tenant_id`);
  return column;
}

/** Copies the rows `where` selects from `from` into `to`, in batches (by id where the table has one). */
async function copyRows(from: Executor, to: Executor, table: PgTable, where: ReturnType<typeof eq>) {
  const id = getTableColumns(table)['id'];
  let copied = 0;
  if (!id) {
    const rows = await from.select().from(table).where(where);
    if (rows.length > 0) await to.insert(table).values(rows);
    return rows.length;
  }
  let after = 0;
  for (;;) {
    const rows = (await from
      .select()
      .from(table)
      .where(and(where, gt(id, after)))
      .orderBy(asc(id))
      .limit(BATCH)) as Array<Record<string, unknown>>;
    if (rows.length === 0) break;
    await to.insert(table).values(rows);
    copied += rows.length;
    after = Number(rows[rows.length - 1]?.['id']);
    if (rows.length < BATCH) break;
  }
  if (copied > 0) {
    const name = getTableName(table);
    await to.execute(
      sql.raw(`select setval(pg_get_serial_sequence('${name}', 'id'), (select max(id) from ${name}))`),
    );
  }
  return copied;
}

/** The user triggers of `tables` in the tenant's database, off (true) or back on. */
async function triggers(db: Executor, tables: readonly PgTable[], off: boolean) {
  for (const table of tables)
    await db.execute(
      sql.raw(`alter table ${getTableConfig(table).name} ${off ? 'disable' : 'enable'} trigger user`),
    );
}

export async function splitTenant(
  deps: { control: Database; tenancy: TenantDatabases; wait?: (ms: number) => Promise<void> },
  tenantId: number,
  server?: string,
): Promise<SplitReport> {
  const { control, tenancy } = deps;
  const placement = await tenancy.placementOf(tenantId);
  if (placement.database !== null) throw new SplitRefused(`Il tenant ${tenantId} ha già il suo database.`);
  await tenancy.create(tenantId, server, { state: 'unavailable' });
  const report: SplitReport = { tenantId, rows: {} };
  try {
    // Other app instances may still hold the placement they read (the control database).
    const wait = deps.wait ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
    await wait(tenancy.directoryTtlMs);
    const own = tenancy.maintenanceConnection(tenantId);
    const all = [users, userTenants, ...TENANT_TABLES];
    await own.transaction(async (tx) => {
      await triggers(tx, all, true);
      const memberIds = (
        await control
          .select({ id: userTenants.userId })
          .from(userTenants)
          .where(eq(userTenants.tenantId, tenantId))
      ).map((r) => r.id);
      for (let i = 0; i < memberIds.length; i += BATCH) {
        const ids = memberIds.slice(i, i + BATCH);
        const identities = await control.select(IDENTITY_COPY).from(users).where(inArray(users.id, ids));
        if (identities.length > 0) await tx.insert(users).values(identities);
        const records = await control
          .select()
          .from(userTenants)
          .where(and(eq(userTenants.tenantId, tenantId), inArray(userTenants.userId, ids)));
        if (records.length > 0) await tx.insert(userTenants).values(records);
      }
      report.rows['user_tenants'] = memberIds.length;
      for (const table of TENANT_TABLES)
        report.rows[getTableName(table)] = await copyRows(
          control,
          tx,
          table,
          eq(tenantColumnOf(table), tenantId),
        );
      await triggers(tx, all, false);
    });
    await control.transaction(async (tx) => {
      const planIds = await tx.select({ id: plans.id }).from(plans).where(eq(plans.tenantId, tenantId));
      for (const plan of planIds) await recordPublicId(tx, PLAN_KIND, plan.id, tenantId);
      await tx.execute(sql`select set_config('rinnova.moving_tenant', ${String(tenantId)}, true)`);
      for (const table of [...TENANT_TABLES].reverse())
        await tx.delete(table).where(eq(tenantColumnOf(table), tenantId));
      // The running totals once more: removing the payments and subscriptions moved them again.
      for (const table of [dashboardMonths, dashboardLivePlans])
        await tx.delete(table).where(eq(tenantColumnOf(table), tenantId));
      await tx.update(userTenants).set(RECORD_COLUMNS).where(eq(userTenants.tenantId, tenantId));
    });
  } catch (error) {
    await tenancy.drop(tenantId).catch(() => undefined);
    throw error;
  }
  await tenancy.setState(tenantId, 'ready');
  return report;
}
