/**
 * Where a public call's rows are, when the call names no tenant (issue 25): the payment page and the
 * plan widget carry a token or a plan id only.
 *
 * - A token made since tenant databases (payment link, widget confirmation) starts with its
 *   tenant's id: `t<tenantId>_<random>` (base64url characters only, like the random part, so a link
 *   keeps its shape). Its rows are in that tenant's database; the random part
 *   keeps it unguessable (a forged prefix only sends the lookup of an unknown hash elsewhere). An
 *   older token (no prefix) is looked up in the control database, where its tenant's rows still are.
 * - A plan id is unique across databases (a plan in a tenant's own database takes its id from the
 *   control database's sequence) and `public_ids` names the tenant that has it; a plan not listed
 *   there is in the control database.
 */
import { and, eq } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { publicIds } from '../schema';

export const PLAN_KIND = 'plan';

export interface PublicHome {
  /** The database of a payment or confirmation link's token. */
  ofToken(token: string): Database;
  /** The database of a plan named by its id alone. */
  ofPlan(planId: number): Promise<Database>;
}

/** A token of `tenantId`'s links: its tenant's id, then the random part. */
export function tokenOfTenant(tenantId: number, random: string): string {
  return `t${tenantId}_${random}`;
}

/** The tenant a token names, or null for a token made before tenant databases. */
export function tenantOfToken(token: string): number | null {
  const match = /^t([1-9]\d{0,8})_/.exec(token);
  return match ? Number(match[1]) : null;
}

export function createPublicHome(
  control: Database,
  connectionFor: ((tenantId: number) => Database) | undefined,
): PublicHome {
  return {
    ofToken(token) {
      const tenantId = tenantOfToken(token);
      return tenantId !== null && connectionFor ? connectionFor(tenantId) : control;
    },
    async ofPlan(planId) {
      if (!connectionFor) return control;
      const [row] = await control
        .select({ tenantId: publicIds.tenantId })
        .from(publicIds)
        .where(and(eq(publicIds.kind, PLAN_KIND), eq(publicIds.id, planId)));
      return row ? connectionFor(row.tenantId) : control;
    },
  };
}

/** Records in the control database which tenant has a public id (a tenant with its own database). */
export async function recordPublicId(
  control: Executor,
  kind: string,
  id: number,
  tenantId: number,
): Promise<void> {
  await control.insert(publicIds).values({ kind, id, tenantId }).onConflictDoNothing();
}

export async function forgetPublicId(control: Executor, kind: string, id: number): Promise<void> {
  await control.delete(publicIds).where(and(eq(publicIds.kind, kind), eq(publicIds.id, id)));
}
