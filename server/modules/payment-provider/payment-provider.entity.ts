import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { PaymentProvider } from '../../../contract/schemas/payment-provider';
import {
  paymentProviderInputSchema,
  paymentProviderKinds,
  paymentProviderModes,
  SECRET_MASK,
} from '../../../contract/schemas/payment-provider';
import { paymentProviders } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import { serverMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';
import { apiUrlProblem, sameEndpoint, secretRetypeMessages } from '../../lib/outbound/provider-hosts';
import type { EntityDefinition } from '../../crud/entity';
import { entityRoles } from '../../../contract/access';
import { paymentProviderList } from '../../../contract/lists/payment-provider';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';
import { byName, windowed } from '../../crud/window';
import { textSort } from '../../crud/sort';

const paymentProviderItem: z.ZodType<PaymentProvider> = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(paymentProviderKinds),
  mode: z.enum(paymentProviderModes),
  webhookId: z.string().nullable(),
  isActive: z.boolean(),
  apiUrl: z.string(),
  apiKey: z.string(),
  // The response schema itself allows only the mask: a secret cannot slip into an answer.
  apiSecret: z.literal(SECRET_MASK).nullable(),
  webhookSecret: z.literal(SECRET_MASK).nullable(),
});

/**
 * Payment-provider settings of the tenant. `apiSecret` is write-only: stored encrypted (sealed to
 * the row), never selected for an answer (which shows SECRET_MASK when one is stored); an Update
 * whose secret is absent, empty or the mask keeps the stored one, unless it changes `apiUrl`:
 * then the secret must be typed again (400 on apiSecret), so a stored secret never goes to an
 * address chosen after it. In production `apiUrl` is one of the provider's official hosts for
 * its mode (400 on apiUrl).
 */
export function paymentProviderEntity(
  box: SecretBox,
  options: {
    /** The outbound guard is on (production): apiUrl only on the provider's official hosts. */
    pinHosts: boolean;
  },
): EntityDefinition<typeof paymentProviders, PaymentProvider, typeof paymentProviderInputSchema> {
  return {
    name: 'paymentprovider',
    table: paymentProviders,
    id: paymentProviders.id,
    scope: { kind: 'tenant', column: paymentProviders.tenantId },
    searchColumns: [paymentProviders.name, paymentProviders.apiUrl, paymentProviders.apiKey],
    filters: bindFilters(paymentProviderList, {
      name: paymentProviders.name,
      isActive: paymentProviders.isActive,
      apiUrl: paymentProviders.apiUrl,
    }),
    naturalOrder: textSort(paymentProviders.name), // the list's byName order: exports seek on it
    sortable: bindSorts(paymentProviderList, {
      name: textSort(paymentProviders.name),
      apiUrl: textSort(paymentProviders.apiUrl),
    }),
    item: paymentProviderItem,
    input: paymentProviderInputSchema,
    label: (p) => p.name,
    list: async (db, window) => {
      const rows = await windowed(
        db
          .select({
            id: paymentProviders.id,
            name: paymentProviders.name,
            kind: paymentProviders.kind,
            mode: paymentProviders.mode,
            webhookId: paymentProviders.webhookId,
            isActive: paymentProviders.isActive,
            apiUrl: paymentProviders.apiUrl,
            apiKey: paymentProviders.apiKey,
            hasSecret: sql<boolean>`${paymentProviders.apiSecretEncrypted} is not null`,
            hasWebhookSecret: sql<boolean>`${paymentProviders.webhookSecretEncrypted} is not null`,
          })
          .from(paymentProviders)
          .orderBy(...byName(paymentProviders.name, paymentProviders.id))
          .$dynamic(),
        window,
      );
      return rows.map(({ hasSecret, hasWebhookSecret, ...row }) => ({
        ...row,
        kind: row.kind as PaymentProvider['kind'],
        mode: row.mode as PaymentProvider['mode'],
        apiSecret: hasSecret ? SECRET_MASK : null,
        webhookSecret: hasWebhookSecret ? SECRET_MASK : null,
      }));
    },
    toRow: (input, now) => ({
      name: input.name,
      kind: input.kind,
      mode: input.mode,
      ...(input.webhookId !== undefined ? { webhookId: input.webhookId } : {}),
      isActive: input.isActive,
      apiUrl: input.apiUrl,
      apiKey: input.apiKey,
      updatedAt: now,
    }),
    afterWrite: async (w, id, input, previous) => {
      const [row] = await w.tx
        .select({ kind: paymentProviders.kind, mode: paymentProviders.mode, apiUrl: paymentProviders.apiUrl })
        .from(paymentProviders)
        .where(eq(paymentProviders.id, id));
      if (!row) return;
      const errors: string[] = [];
      // Production: PayPal's or Stripe's own hosts only (lib/outbound/provider-hosts.ts).
      const mode = row.mode === 'live' ? 'live' : 'sandbox';
      const hostProblem = options.pinHosts
        ? apiUrlProblem(row.kind === 'stripe' ? 'stripe' : 'paypal', mode, row.apiUrl)
        : null;
      if (hostProblem) errors.push(`apiUrl: ${hostProblem}`);
      // A stored secret is never sent to an address chosen after it was stored.
      if (previous?.apiSecretEncrypted && !input.apiSecret && !sameEndpoint(previous.apiUrl, row.apiUrl))
        errors.push(`apiSecret: ${secretRetypeMessages.apiSecret}`);
      if (errors.length > 0) throw new HttpError(400, serverMessages.validation, { errors });
      // The secrets are sealed to the row (its id known only after the insert): lib/secret-box.ts.
      const sealed = {
        ...(input.apiSecret
          ? { apiSecretEncrypted: box.seal(input.apiSecret, 'payment_providers.api_secret_encrypted', id) }
          : {}),
        ...(input.webhookSecret
          ? {
              webhookSecretEncrypted: box.seal(
                input.webhookSecret,
                'payment_providers.webhook_secret_encrypted',
                id,
              ),
            }
          : {}),
      };
      if (Object.keys(sealed).length > 0)
        await w.tx.update(paymentProviders).set(sealed).where(eq(paymentProviders.id, id));
    },
    export: bindExport<PaymentProvider, typeof paymentProviderList>(paymentProviderList, {
      // The item holds the mask at most (its schema allows nothing else): the secret never leaves.
      apiSecret: (p) => (p.apiSecret ? SECRET_MASK : ''),
    }),
    roles: entityRoles('paymentprovider'),
  };
}
