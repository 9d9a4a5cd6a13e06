/**
 * Which adapter serves a tenant: its active provider row of the kind, with the secret decrypted
 * here and handed only to the adapter. With PAYPAL_FAKE every PayPal call goes to the fake PayPal
 * started at boot instead of the row's apiUrl (development without a PayPal account).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { paymentProviders } from '../db/schema';
import { HttpError } from '../lib/http-error';
import type { SecretBox } from '../lib/secret-box';
import { providerMessages, type PaymentProviderAdapter } from './payment-provider';
import { createPayPalAdapter } from './paypal';

export interface TenantProvider {
  adapter: PaymentProviderAdapter;
  providerId: number;
  /** PayPal's id of the webhook (Configura PayPal); null when not set. */
  webhookId: string | null;
}

export interface ProviderRegistry {
  /** The tenant's active PayPal, or null when it has none. */
  findPaypal(tenantId: number): Promise<TenantProvider | null>;
  /** The same, or 409 'Configurazione PayPal non trovata per questo tenant.' */
  paypal(tenantId: number): Promise<TenantProvider>;
}

export interface ProviderRegistryOptions {
  connectionFor: (tenantId: number) => Database;
  secretBox: SecretBox;
  timeoutMs: number;
  now: () => Date;
  /** PAYPAL_FAKE: the base URL that replaces every row's apiUrl. */
  apiUrlOverride?: () => string | undefined;
}

export function createProviderRegistry(options: ProviderRegistryOptions): ProviderRegistry {
  async function findPaypal(tenantId: number): Promise<TenantProvider | null> {
    const [row] = await options
      .connectionFor(tenantId)
      .select({
        id: paymentProviders.id,
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
    const secret = options.secretBox.decrypt(row.secret);
    if (secret === null) throw new HttpError(409, providerMessages.noSecret);
    const adapter = createPayPalAdapter(
      { apiUrl: options.apiUrlOverride?.() ?? row.apiUrl, clientId: row.apiKey, secret },
      { timeoutMs: options.timeoutMs, now: () => options.now().getTime() },
    );
    return { adapter, providerId: row.id, webhookId: row.webhookId };
  }
  return {
    findPaypal,
    async paypal(tenantId) {
      const found = await findPaypal(tenantId);
      if (!found) throw new HttpError(409, providerMessages.notConfigured);
      return found;
    },
  };
}
