/** What the public API (/api/v1, tenant keys) shows of a customer's subscriptions. */
import { and, eq, sql } from 'drizzle-orm';
import { subscriptionStatusNames } from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import { plans, subscriptions } from '../../db/schema';

export interface ApiSubscription {
  id: number;
  status: string;
  planId: number;
  planName: string;
  startDate: string;
  nextBillingDate: string;
}

const apiSubscriptionColumns = {
  id: subscriptions.id,
  status: subscriptions.status,
  planId: plans.id,
  planName: plans.name,
  startDate: subscriptions.startDate,
  nextBillingDate: subscriptions.nextBillingDate,
};

function apiSubscriptionOf(r: {
  id: number;
  status: number;
  planId: number;
  planName: string;
  startDate: Date;
  nextBillingDate: Date;
}): ApiSubscription {
  return {
    id: r.id,
    status: subscriptionStatusNames[r.status as keyof typeof subscriptionStatusNames] ?? String(r.status),
    planId: r.planId,
    planName: r.planName,
    startDate: r.startDate.toISOString(),
    nextBillingDate: r.nextBillingDate.toISOString(),
  };
}

/** The customer's subscriptions, newest first (the `read` scope). */
export async function subscriptionsOf(
  db: Database,
  tenantId: number,
  customerId: number,
): Promise<ApiSubscription[]> {
  const rows = await db
    .select(apiSubscriptionColumns)
    .from(subscriptions)
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .where(and(eq(subscriptions.tenantId, tenantId), eq(subscriptions.userId, customerId)))
    .orderBy(sql`${subscriptions.id} desc`)
    .limit(100);
  return rows.map(apiSubscriptionOf);
}

/** One subscription of the tenant, as the API shows it; undefined when not the tenant's. */
export async function subscriptionOf(
  db: Database,
  tenantId: number,
  id: number,
): Promise<ApiSubscription | undefined> {
  const [row] = await db
    .select(apiSubscriptionColumns)
    .from(subscriptions)
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .where(and(eq(subscriptions.tenantId, tenantId), eq(subscriptions.id, id)));
  return row ? apiSubscriptionOf(row) : undefined;
}
