import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { tenants } from '../db/schema';

/** The tenant's name (for file names and report headings); null for an unknown id. */
export async function tenantNameOf(db: Database, tenantId: number): Promise<string | null> {
  const [row] = await db
    .select({ name: tenants.name })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  return row?.name ?? null;
}
