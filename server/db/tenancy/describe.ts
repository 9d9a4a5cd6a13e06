import { sql } from 'drizzle-orm';
import type { Database } from '../client';
import { executeRows } from '../rows';
import type { TenantDatabases } from './tenant-databases';
import { CONTROL_SERVER } from './tenant-databases';

/** Where a tenant's database lives, as `GET api/tenant/GetById` answers it to a SuperAdmin (contract 'Tenancy'). */
export interface TenantDatabaseView {
  server: string;
  name: string;
  /** Its size; null while the tenant's rows are in the control database (not separable). */
  sizeBytes: number | null;
}

export async function describeTenantDatabase(
  control: Database,
  tenancy: TenantDatabases | undefined,
  tenantId: number,
): Promise<TenantDatabaseView> {
  const placement = tenancy ? await tenancy.placementOf(tenantId) : undefined;
  if (placement?.database) {
    const sizeBytes = await tenancy?.sizeOf(tenantId).catch(() => null);
    return { server: placement.server, name: placement.database, sizeBytes: sizeBytes ?? null };
  }
  const [row] = await executeRows<{ name: string }>(control, sql`select current_database() as name`);
  return { server: CONTROL_SERVER, name: row?.name ?? 'postgres', sizeBytes: null };
}
