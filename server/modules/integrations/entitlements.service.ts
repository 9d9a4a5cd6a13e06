/**
 * The entitlement API: what a customer of the tenant may use now. A subscription is live when
 * Active, or ActiveNoRenewal until its next billing date (exclusive), at the unit-of-work clock —
 * or, renewing by bank transfer (issue 29), past it while the transfer of the period starting
 * there is still in collection, through the tenant's grace (pastDue, its last day included);
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
import { DEFAULT_LADDER } from '../../../contract/schemas/collection';
import { addDays, romeDay } from '../../../contract/billing-dates';

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
  const now = sql.placeholder('now');
  const today = sql.placeholder('today');
  const graceDays = sql`coalesce((select cs.grace_days from collection_settings cs where cs.tenant_id = ${subscriptions.tenantId}), ${DEFAULT_LADDER.graceDays})`;
  /**
   * Payment `p` is the bank transfer an ActiveNoRenewal waits for (issue 29): of the period that
   * starts at its next billing date, by bank transfer, still in collection.
   */
  const awaitedTransfer = sql`(${subscriptions.status} = ${SubscriptionStatus.ActiveNoRenewal} and p.period_start = ${subscriptions.nextBillingDate} and p.method = 'bankTransfer' and p.collection_status in ('due', 'overdue'))`;
  return db
    .select({
      subscriptionId: subscriptions.id,
      planId: plans.id,
      planName: plans.name,
      until: subscriptions.nextBillingDate,
      trialEndsAt: subscriptions.trialEndsAt,
      trialState: subscriptions.trialState,
      /**
       * Issue 29: the due date of its oldest overdue payment (the grace counts from it), or null;
       * past the next billing date of an ActiveNoRenewal, its transfer of the period starting there
       * counts from its due date even before the dunning job marked it overdue.
       */
      overdueSince: sql<
        string | null
      >`(select min(p.due_date)::text from payments p where p.tenant_id = ${subscriptions.tenantId} and p.subscription_id = ${subscriptions.id} and p.paid_at is null and (p.collection_status = 'overdue' or (${awaitedTransfer} and ${subscriptions.nextBillingDate} <= ${sql.placeholder('nowIso')}::timestamptz)))`,
      graceDays: sql<number>`${graceDays}`,
      pauseFrom: subscriptions.pauseFrom,
      pausedUntil: subscriptions.pausedUntil,
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
          gt(subscriptions.nextBillingDate, now),
          // Issue 29: renewing by bank transfer, through the grace of the period's transfer.
          sql`exists (select 1 from payments p where p.tenant_id = ${subscriptions.tenantId} and p.subscription_id = ${subscriptions.id} and p.paid_at is null and ${awaitedTransfer} and p.due_date + ${graceDays}::int >= ${today}::date)`,
        ),
        // Issue 29: an overdue payment keeps access only through the tenant's grace (its last day
        // included, Europe/Rome).
        sql`not exists (select 1 from payments p where p.tenant_id = ${subscriptions.tenantId} and p.subscription_id = ${subscriptions.id} and p.paid_at is null and p.collection_status = 'overdue' and p.due_date + ${graceDays}::int < ${today}::date)`,
        // Issue 30: a pause of collection that suspends the entitlements gives none within it.
        sql`not (${subscriptions.pauseEntitlements} is not distinct from 'suspend' and ${subscriptions.pauseFrom} <= ${sql.placeholder('nowIso')}::timestamptz and ${subscriptions.pausedUntil} > ${sql.placeholder('nowIso')}::timestamptz)`,
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
  const rows = await query.execute({
    tenantId,
    customer: value,
    now,
    nowIso: now.toISOString(),
    today: romeDay(now),
  });
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
      pastDue: r.overdueSince !== null,
      graceEndsOn: r.overdueSince === null ? null : addDays(r.overdueSince, Number(r.graceDays)),
      ...pauseOf(r, now),
      trial: r.trialState === 'running',
      trialEndsAt: r.trialState === 'running' ? (r.trialEndsAt?.toISOString() ?? null) : null,
    };
    const seen = byKey.get(key);
    // The subscription that lasts longest; one paid up before one past due.
    if (
      !seen ||
      (seen.pastDue && !item.pastDue) ||
      (seen.pastDue === item.pastDue && seen.until < item.until)
    )
      byKey.set(key, item);
  }
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** Issue 30: paused now (within [pause_from, paused_until)), and until when. */
function pauseOf(
  r: { pauseFrom: Date | null; pausedUntil: Date | null },
  now: Date,
): { paused: boolean; pausedUntil: string | null } {
  const paused =
    r.pauseFrom !== null &&
    r.pausedUntil !== null &&
    r.pauseFrom.getTime() <= now.getTime() &&
    now.getTime() < r.pausedUntil.getTime();
  return { paused, pausedUntil: paused ? r.pausedUntil!.toISOString() : null };
}
