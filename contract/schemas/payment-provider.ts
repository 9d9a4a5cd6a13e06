import { z } from 'zod';
import { validationMessages } from '../validation/italian';
import { optionalId } from './common';
import { blankToNull, requiredText } from './fields';

/**
 * What every response shows in place of a stored secret. `apiSecret` is write-only (api-contract):
 * a response carries this mask when a secret is stored and null when none is.
 */
export const SECRET_MASK = '••••••••';

/** A payment-provider configuration as the server answers it (tenant-scoped). */
export const paymentProviderKinds = ['paypal', 'stripe'] as const;
export type PaymentProviderKind = (typeof paymentProviderKinds)[number];
export const paymentProviderModes = ['sandbox', 'live'] as const;
export type PaymentProviderMode = (typeof paymentProviderModes)[number];
/** PayPal's REST hosts of each mode. */
export const PAYPAL_API_URLS: Record<PaymentProviderMode, string> = {
  sandbox: 'https://api-m.sandbox.paypal.com',
  live: 'https://api-m.paypal.com',
};
/** Stripe's API host (the same for both modes: the key decides test or live). */
export const STRIPE_API_URL = 'https://api.stripe.com';

export interface PaymentProvider {
  id: number;
  name: string;
  /** Which provider: PayPal now, Stripe later. */
  kind: PaymentProviderKind;
  mode: PaymentProviderMode;
  /** PayPal's id of the webhook pointing at `/api/webhooks/paypal/{tenantId}` (its signature check needs it). */
  webhookId: string | null;
  /** At most one active provider of a kind per tenant: the one payments use. */
  isActive: boolean;
  apiUrl: string;
  /** The provider's public client id (PayPal 'Client ID'). */
  apiKey: string;
  /** Always `SECRET_MASK` or null, never the secret. */
  apiSecret: string | null;
  /** Stripe's webhook signing secret (whsec_…): write-only like `apiSecret`, `SECRET_MASK` or null. */
  webhookSecret: string | null;
}

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * Body of `POST api/paymentprovider/Create` and `PUT api/paymentprovider/Update` (with `id`).
 * `apiSecret`: required on create; on update absent, null, '' or the mask keep the stored secret.
 * `kind`, `mode`, `isActive`: absent on create → paypal, sandbox, active; absent on update → kept.
 */
export const paymentProviderInputSchema = z
  .object({
    id: optionalId,
    name: requiredText(100, validationMessages.providerNameRequired),
    apiUrl: requiredText(500, validationMessages.apiUrlRequired).refine(isHttpUrl, {
      message: validationMessages.apiUrlInvalid,
    }),
    apiKey: requiredText(500, validationMessages.apiKeyRequired),
    kind: z
      .preprocess(
        blankToNull,
        z.enum(paymentProviderKinds, 'Tipo di fornitore non valido (paypal o stripe).').nullable().optional(),
      )
      .transform((v) => v ?? undefined),
    mode: z
      .preprocess(
        blankToNull,
        z.enum(paymentProviderModes, 'Modalità non valida (sandbox o live).').nullable().optional(),
      )
      .transform((v) => v ?? undefined),
    webhookId: z.preprocess(blankToNull, z.string().trim().max(100).nullable().optional()),
    isActive: z
      .preprocess(
        (v) => (v === '' ? null : v),
        z
          .union([z.boolean(), z.enum(['true', 'false']).transform((t) => t === 'true')])
          .nullable()
          .optional(),
      )
      .transform((v) => v ?? undefined),
    apiSecret: z.preprocess((v) => {
      const b = blankToNull(v);
      return b === SECRET_MASK ? null : b;
    }, z.string().max(500).nullable().optional()),
    webhookSecret: z.preprocess((v) => {
      const b = blankToNull(v);
      return b === SECRET_MASK ? null : b;
    }, z.string().max(500).nullable().optional()),
  })
  .superRefine((v, ctx) => {
    if (!v.id && !v.apiSecret) {
      ctx.addIssue({ code: 'custom', path: ['apiSecret'], message: validationMessages.apiSecretRequired });
    }
  });
export type PaymentProviderInput = z.input<typeof paymentProviderInputSchema>;

/** `GET api/paymentprovider/GetPayPalSettingsByTenant/{tenantId}` (public): only the client id. */
export interface PayPalPublicSettings {
  apiKey: string;
}

/**
 * `GET api/paymentprovider/GetPublicSettingsByTenant/{tenantId}` (public): the public keys of the
 * tenant's active providers, null for a provider it has not configured. Never a secret.
 */
export interface PublicProviderSettings {
  paypal: { apiKey: string; sdkBaseUrl?: string } | null;
  stripe: { publishableKey: string } | null;
}
