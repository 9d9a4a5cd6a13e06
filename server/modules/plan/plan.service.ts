import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { serverMessages } from '../../../contract/messages';
import type { associateFeaturesSchema } from '../../../contract/schemas/plan';
import type { Database } from '../../db/client';
import { planFeatures, plans } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import { featuresOfPlans } from './plan.entity';

/**
 * `associateFeatures`: the plan's feature list replaced by `list`, in the call's unit, in the order
 * sent. Locking the plan serializes two concurrent replacements of the same list.
 */
export async function replacePlanFeatures(
  w: UnitOfWork,
  planId: number,
  list: z.output<typeof associateFeaturesSchema>,
) {
  const [plan] = await w.tx
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.id, planId), eq(plans.tenantId, w.tenantId)))
    .for('update');
  if (!plan) throw new HttpError(404, serverMessages.notFound);
  await w.tx
    .delete(planFeatures)
    .where(and(eq(planFeatures.tenantId, w.tenantId), eq(planFeatures.planId, planId)));
  if (list.length > 0) {
    await w.tx.insert(planFeatures).values(
      list.map((f) => ({
        tenantId: w.tenantId,
        planId,
        featureName: f.featureName,
        description: f.description ?? null,
      })),
    );
  }
  return (await featuresOfPlans(w.tx, [planId])).get(planId) ?? [];
}

/** The tenant's plan (id and name), or a 404. */
export async function planOfTenant(db: Database, tenantId: number, planId: number) {
  const [plan] = await db
    .select({ id: plans.id, name: plans.name })
    .from(plans)
    .where(and(eq(plans.id, planId), eq(plans.tenantId, tenantId)));
  if (!plan) throw new HttpError(404, serverMessages.notFound);
  return plan;
}
