/** The provider sync (the button and the nightly job): each provider subscription's status read at the provider, then applied. */
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import { payments, subscriptions } from '../../db/schema';
import { ProviderError, type ProviderKind } from '../../providers/payment-provider';

import { applyProviderStatus, providerLabel, type ProviderDeps } from './provider-payments';

/** The tenant's subscriptions paid through a provider: id, status and the provider's id (first payment's). */
async function providerSubscriptionsOf(db: Database, tenantId: number, kind: ProviderKind) {
  const first = db
    .selectDistinctOn([payments.subscriptionId], {
      subscriptionId: payments.subscriptionId,
      providerId: payments.providerSubscriptionId,
    })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, tenantId),
        isNotNull(payments.providerSubscriptionId),
        kind === 'stripe' ? eq(payments.method, 'stripe') : sql`${payments.method} is distinct from 'stripe'`,
      ),
    )
    .orderBy(asc(payments.subscriptionId), asc(payments.id))
    .as('first_provider_payment');
  return db
    .select({ id: subscriptions.id, status: subscriptions.status, providerId: first.providerId })
    .from(subscriptions)
    .innerJoin(first, eq(first.subscriptionId, subscriptions.id))
    .where(
      and(
        eq(subscriptions.tenantId, tenantId),
        inArray(subscriptions.status, [SubscriptionStatus.Active, SubscriptionStatus.NotActive]),
      ),
    )
    .orderBy(asc(subscriptions.id));
}

export interface SyncResult {
  /** How many subscriptions changed status. */
  changed: number;
  /** How many PayPal was asked about. */
  checked: number;
  /** Ids PayPal does not know (left as they are). */
  unknown: string[];
}

/**
 * `POST api/subscription/sync-paypal`, and the job's call (issue 10), for one tenant: reads every
 * provider subscription of the tenant at PayPal first (any failure but 'unknown id' stops the sync
 * with nothing changed), then applies ACTIVE → Active, SUSPENDED → NotActive, CANCELLED or
 * EXPIRED → Canceled in one unit of work as the system job 'sync-paypal'.
 */
export async function syncPaypal(
  deps: ProviderDeps,
  tenantId: number,
  options: { by?: string } = {},
): Promise<SyncResult> {
  return syncProvider(deps, tenantId, 'paypal', options);
}

/** The same sync for one provider kind: `POST api/subscription/sync-stripe` and the job use 'stripe'. */
export async function syncProvider(
  deps: ProviderDeps,
  tenantId: number,
  kind: ProviderKind,
  options: { by?: string } = {},
): Promise<SyncResult> {
  const rows = await providerSubscriptionsOf(deps.connectionFor(tenantId), tenantId, kind);
  if (rows.length === 0) return { changed: 0, checked: 0, unknown: [] };
  const adapter = await deps.providers.adapterOf(tenantId, kind);
  const label = providerLabel(kind);
  const remote = new Map<string, string>();
  const unknown: string[] = [];
  // A few at a time: PayPal answers each in a few hundred ms and limits bursts.
  const queue = [...new Set(rows.map((r) => r.providerId!))];
  const workers = Array.from({ length: Math.min(4, queue.length) }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        remote.set(id, (await adapter.getSubscription(id)).status);
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'notFound') unknown.push(id);
        else throw error;
      }
    }
  });
  await Promise.all(workers);
  const changed = await deps.uow.run(
    { tenantId, actor: { kind: 'system', job: kind === 'stripe' ? 'sync-stripe' : 'sync-paypal' } },
    async (w) => {
      let n = 0;
      for (const row of rows) {
        const status = remote.get(row.providerId!);
        if (!status) continue;
        const reason = `${label} ${row.providerId}: ${status}${options.by ? ` (sincronizzazione avviata da ${options.by})` : ''}`;
        if ((await applyProviderStatus(w, row.id, status, reason)) === 'applied') n++;
      }
      return n;
    },
  );
  return { changed, checked: rows.length, unknown: unknown.sort() };
}

// ---- Webhooks
