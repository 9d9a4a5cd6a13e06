/**
 * The entitlement API: what a customer of the tenant may use now. A subscription is live when
 * Active, or ActiveNoRenewal until its next billing date (exclusive), at the unit-of-work clock;
 * its plan's features (plan_features rows) are the entitlements, each with the machine key of
 * the catalogue feature of the same name (features.key), or the slug of its name when the
 * catalogue has none.
 */
import { and, eq, gt, inArray, ne, or, sql } from 'drizzle-orm';
import { featureKeyOf, type Entitlement } from '../../../contract/integrations';
import { liveStatuses, SubscriptionStatus } from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import { features, planFeatures, plans, subscriptions, users, userTenants } from '../../db/schema';
import { preparedOnce } from '../../db/prepared';
import type { CustomerRef } from '../../db/customers';

/** How the entitlement query names the customer: a member's id, or an id / e-mail to resolve. */
type CustomerVariant = 'member' | 'id' | 'email';

/**
 * The entitlement query, prepared once per database and variant (planned once per connection).
 * The customer given by id or e-mail is resolved within the same statement among the tenant's
 * members (an unknown e-mail or a non-member: no rows).
 */
function prepareEntitlements(db: Database, variant: CustomerVariant, name: string) {
  const tenant = sql.placeholder('tenantId');
  const customer = sql.placeholder('customer');
  const customerCondition =
    variant === 'member'
      ? eq(subscriptions.userId, customer)
      : sql`${subscriptions.userId} = (select ${users.id} from ${users} inner join ${userTenants}
          on ${userTenants.userId} = ${users.id} and ${userTenants.tenantId} = ${tenant}
          where ${variant === 'email' ? sql`lower(${users.email}) = ${customer}` : sql`${users.id} = ${customer}`}
          limit 1)`;
  return db
    .select({
      subscriptionId: subscriptions.id,
      planId: plans.id,
      planName: plans.name,
      until: subscriptions.nextBillingDate,
      name: planFeatures.featureName,
      key: features.key,
    })
    .from(subscriptions)
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .innerJoin(
      planFeatures,
      and(eq(planFeatures.planId, subscriptions.planId), eq(planFeatures.tenantId, subscriptions.tenantId)),
    )
    .leftJoin(
      features,
      and(
        eq(features.tenantId, subscriptions.tenantId),
        sql`lower(${features.featureName}) = lower(${planFeatures.featureName})`,
      ),
    )
    .where(
      and(
        eq(subscriptions.tenantId, tenant),
        customerCondition,
        // Live (the contract's set), and a subscription without renewal only until its next
        // billing date.
        inArray(subscriptions.status, [...liveStatuses]),
        or(
          ne(subscriptions.status, SubscriptionStatus.ActiveNoRenewal),
          gt(subscriptions.nextBillingDate, sql.placeholder('now')),
        ),
      ),
    )
    .prepare(name);
}

/**
 * The customer's entitlements now (one query). `customer` is a member's id, or a reference
 * resolved within the same statement (an unknown e-mail or a non-member: none).
 */
export async function entitlementsOf(
  db: Database,
  tenantId: number,
  customer: number | CustomerRef,
  now: Date,
): Promise<Entitlement[]> {
  const [variant, value]: [CustomerVariant, number | string] =
    typeof customer === 'number'
      ? ['member', customer]
      : customer.customerId !== undefined
        ? ['id', customer.customerId]
        : ['email', (customer.customerEmail ?? '').trim().toLowerCase()];
  const query = preparedOnce(db, `entitlements_by_${variant}`, (name) =>
    prepareEntitlements(db, variant, name),
  );
  const rows = await query.execute({ tenantId, customer: value, now });
  // One entry per key: the subscription that lasts longest.
  const byKey = new Map<string, Entitlement>();
  for (const r of rows) {
    const key = r.key ?? featureKeyOf(r.name);
    const item: Entitlement = {
      key,
      name: r.name,
      planId: r.planId,
      planName: r.planName,
      subscriptionId: r.subscriptionId,
      until: r.until.toISOString(),
    };
    const seen = byKey.get(key);
    if (!seen || seen.until < item.until) byKey.set(key, item);
  }
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
}
