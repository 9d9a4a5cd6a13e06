/**
 * Which adapter serves a tenant: its active provider row of the kind, with the secret decrypted
 * here and handed only to the adapter. With PAYPAL_FAKE (STRIPE_FAKE) every PayPal (Stripe) call goes
 * to the fake started at boot instead of the row's apiUrl (development without a provider account).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { paymentProviders } from '../db/schema';
import { HttpError } from '../lib/http-error';
import type { Outbound } from '../lib/outbound';
import { apiUrlProblem, providerHostMessages } from '../lib/outbound/provider-hosts';
import type { SecretBox } from '../lib/secret-box';
import {
  providerMessages,
  stripeProviderMessages,
  type PaymentProviderAdapter,
  type ProviderKind,
} from './payment-provider';
import { createPayPalAdapter } from './paypal';
import { createStripeAdapter, type StripeAdapter } from './stripe';

export interface TenantProvider {
  adapter: PaymentProviderAdapter;
  providerId: number;
  /** PayPal's id of the webhook (Configura PayPal); null when not set. */
  webhookId: string | null;
  /** The row's mode: which PayPal site the customer manages the subscription on. */
  mode: 'sandbox' | 'live';
}

export interface TenantStripe {
  adapter: StripeAdapter;
  providerId: number;
  publishableKey: string;
}

export interface ProviderRegistry {
  /** The tenant's active PayPal, or null when it has none. */
  findPaypal(tenantId: number): Promise<TenantProvider | null>;
  /** The same, or 409 'Configurazione PayPal non trovata per questo tenant.' */
  paypal(tenantId: number): Promise<TenantProvider>;
  /** The tenant's active Stripe, or null when it has none. */
  findStripe(tenantId: number): Promise<TenantStripe | null>;
  /** The same, or 409 'Configurazione Stripe non trovata per questo tenant.' */
  stripe(tenantId: number): Promise<TenantStripe>;
  /** The adapter of `kind` for the tenant (409 when not configured). */
  adapterOf(tenantId: number, kind: ProviderKind): Promise<PaymentProviderAdapter>;
}

export interface ProviderRegistryOptions {
  connectionFor: (tenantId: number) => Database;
  secretBox: SecretBox;
  /** The door every provider call goes through (lib/outbound); with its guard on, apiUrls are pinned. */
  outbound: Outbound;
  timeoutMs: number;
  now: () => Date;
  /** PAYPAL_FAKE: the base URL that replaces every row's apiUrl. */
  apiUrlOverride?: () => string | undefined;
  /** STRIPE_FAKE: the base URL that replaces every Stripe row's apiUrl. */
  stripeApiUrlOverride?: () => string | undefined;
}

export function createProviderRegistry(options: ProviderRegistryOptions): ProviderRegistry {
  /**
   * The row's apiUrl, or the fake's (development). With the outbound guard on, a row saved before
   * the official hosts were enforced is refused here, before its secret is sent anywhere.
   */
  function apiUrlOf(kind: ProviderKind, row: { mode: string; apiUrl: string }, fake: string | undefined) {
    if (fake !== undefined) return fake;
    const mode = row.mode === 'live' ? 'live' : 'sandbox';
    if (options.outbound.guard && apiUrlProblem(kind, mode, row.apiUrl) !== null)
      throw new HttpError(
        409,
        kind === 'stripe' ? providerHostMessages.storedStripe : providerHostMessages.storedPaypal,
      );
    return row.apiUrl;
  }

  async function activeRow(tenantId: number, kind: ProviderKind) {
    const [row] = await options
      .connectionFor(tenantId)
      .select({
        id: paymentProviders.id,
        mode: paymentProviders.mode,
        apiUrl: paymentProviders.apiUrl,
        apiKey: paymentProviders.apiKey,
        secret: paymentProviders.apiSecretEncrypted,
        webhookSecret: paymentProviders.webhookSecretEncrypted,
      })
      .from(paymentProviders)
      .where(
        and(
          eq(paymentProviders.tenantId, tenantId),
          eq(paymentProviders.kind, kind),
          eq(paymentProviders.isActive, true),
        ),
      )
      .orderBy(asc(paymentProviders.id))
      .limit(1);
    return row;
  }

  async function findStripe(tenantId: number): Promise<TenantStripe | null> {
    const row = await activeRow(tenantId, 'stripe');
    if (!row) return null;
    const secretKey = row.secret
      ? options.secretBox.open(row.secret, 'payment_providers.api_secret_encrypted', row.id)
      : null;
    if (!secretKey) throw new HttpError(409, stripeProviderMessages.noSecret);
    const webhookSecret = row.webhookSecret
      ? options.secretBox.open(row.webhookSecret, 'payment_providers.webhook_secret_encrypted', row.id)
      : null;
    const adapter = createStripeAdapter(
      { apiUrl: apiUrlOf('stripe', row, options.stripeApiUrlOverride?.()), secretKey, webhookSecret },
      {
        timeoutMs: options.timeoutMs,
        outbound: options.outbound,
        checkoutHostPinned: options.outbound.guard,
      },
    );
    return { adapter, providerId: row.id, publishableKey: row.apiKey };
  }

  async function findPaypal(tenantId: number): Promise<TenantProvider | null> {
    const [row] = await options
      .connectionFor(tenantId)
      .select({
        id: paymentProviders.id,
        mode: paymentProviders.mode,
        apiUrl: paymentProviders.apiUrl,
        apiKey: paymentProviders.apiKey,
        secret: paymentProviders.apiSecretEncrypted,
        webhookId: paymentProviders.webhookId,
      })
      .from(paymentProviders)
      .where(
        and(
          eq(paymentProviders.tenantId, tenantId),
          eq(paymentProviders.kind, 'paypal'),
          eq(paymentProviders.isActive, true),
        ),
      )
      .orderBy(asc(paymentProviders.id))
      .limit(1);
    if (!row) return null;
    if (!row.secret) throw new HttpError(409, providerMessages.noSecret);
    // null when the key material changed since the secret was stored (server/README 'Payment providers').
    const secret = options.secretBox.open(row.secret, 'payment_providers.api_secret_encrypted', row.id);
    if (secret === null) throw new HttpError(409, providerMessages.noSecret);
    const adapter = createPayPalAdapter(
      { apiUrl: apiUrlOf('paypal', row, options.apiUrlOverride?.()), clientId: row.apiKey, secret },
      {
        timeoutMs: options.timeoutMs,
        now: () => options.now().getTime(),
        fetch: options.outbound.fetch(options.timeoutMs),
      },
    );
    return {
      adapter,
      providerId: row.id,
      webhookId: row.webhookId,
      mode: row.mode === 'live' ? 'live' : 'sandbox',
    };
  }
  async function paypal(tenantId: number) {
    const found = await findPaypal(tenantId);
    if (!found) throw new HttpError(409, providerMessages.notConfigured);
    return found;
  }
  async function stripe(tenantId: number) {
    const found = await findStripe(tenantId);
    if (!found) throw new HttpError(409, stripeProviderMessages.notConfigured);
    return found;
  }
  return {
    findPaypal,
    paypal,
    findStripe,
    stripe,
    async adapterOf(tenantId, kind) {
      return kind === 'stripe' ? (await stripe(tenantId)).adapter : (await paypal(tenantId)).adapter;
    },
  };
}
