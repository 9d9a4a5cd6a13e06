/**
 * What the recurring jobs need from the payment side (payment tokens, the PayPal adapter),
 * which the payments issue builds. app.ts injects the implementations; a job whose dependency is
 * not injected is not registered (the server logs which), never run with a fake.
 */
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';

export interface PaymentHooks {
  /**
   * Marks the tenant's payment tokens whose expiry (1 hour after creation) has passed as
   * Expired, inside the job's unit of work; answers how many changed. Running it twice changes
   * nothing the second time.
   */
  expireTokens(uow: UnitOfWork): Promise<number>;
  /**
   * Tenants that have PayPal configured (the sync job runs once for each). Optional: without it,
   * the tenants with a payment provider named like 'paypal'.
   */
  paypalTenants?(): Promise<number[]>;
  /**
   * The tenant's PayPal sync (what `POST api/subscription/sync-paypal` does): reads each provider
   * subscription and moves statuses through the state machine; answers how many changed. Calls
   * the network, so it runs outside any transaction and opens its own units of work.
   */
  syncPaypal(tenantId: number): Promise<number>;
  /**
   * A fresh payment link (`{origin}/payment?token=...&bypassTenant=true`) for the period of
   * `subscriptionId` that starts at `periodStart` (its next billing date): the payment of that
   * period and its token, written in the reminder's unit of work (no network call).
   */
  /**
   * Issue 29, the dunning job's end of a ladder: stops a provider subscription at its provider
   * (PayPal: suspended; Stripe: cancelled), outside any transaction. Optional: without it the
   * job leaves the provider side pending (retried once it is given).
   */
  stopProviderSubscription?(
    tenantId: number,
    kind: 'paypal' | 'stripe',
    providerSubscriptionId: string,
  ): Promise<void>;
  createRenewalPaymentLink(
    uow: UnitOfWork,
    input: { subscriptionId: number; periodStart: Date },
  ): Promise<string>;
}
