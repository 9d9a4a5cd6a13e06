import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { paymentProviders } from '../../db/schema';

/** The PayPal client id the payment page loads the SDK with (public), or undefined. */
export async function paypalClientIdOf(
  db: Database,
  tenantId: number,
): Promise<{ apiKey: string } | undefined> {
  const [provider] = await db
    .select({ apiKey: paymentProviders.apiKey })
    .from(paymentProviders)
    .where(eq(paymentProviders.tenantId, tenantId))
    .orderBy(
      // The active PayPal of the tenant first; then the older rule (named like 'paypal').
      asc(
        sql`case when ${paymentProviders.kind} = 'paypal' and ${paymentProviders.isActive} then 0 else 1 end`,
      ),
      asc(sql`case when ${paymentProviders.name} ilike '%paypal%' then 0 else 1 end`),
      asc(paymentProviders.id),
    )
    .limit(1);
  return provider;
}

/** The public keys of the tenant's active providers (never a secret). */
export async function activePublicKeysOf(db: Database, tenantId: number) {
  return db
    .select({ kind: paymentProviders.kind, apiKey: paymentProviders.apiKey })
    .from(paymentProviders)
    .where(and(eq(paymentProviders.tenantId, tenantId), eq(paymentProviders.isActive, true)))
    .orderBy(asc(paymentProviders.id));
}
