/**
 * Integration forms shared by the SPA and the server (issue 15): a tenant's rate limits for its
 * API keys, calls per minute per key and for the whole tenant, with the Italian field messages.
 */
import { z } from 'zod';
import { integrationMessages as m } from '../messages';

export const API_PER_KEY_MAX = 100_000;
export const API_PER_TENANT_MAX = 1_000_000;

const limit = (max: number, message: string) =>
  z
    .number({ error: message })
    .int({ error: message })
    .min(1, { error: message })
    .max(max, { error: message });

export const apiSettingsSchema = z
  .object({
    perKeyPerMinute: limit(API_PER_KEY_MAX, m.perKeyLimitRange),
    perTenantPerMinute: limit(API_PER_TENANT_MAX, m.perTenantLimitRange),
  })
  .refine((v) => v.perKeyPerMinute <= v.perTenantPerMinute, {
    path: ['perKeyPerMinute'],
    error: m.perKeyOverTenant,
  });

export type ApiSettingsInput = z.infer<typeof apiSettingsSchema>;

/** How a /api/v1 call names the tenant's customer: by e-mail or by id. */
export const v1CustomerQuery = z.object({
  customerEmail: z.string().trim().max(320).optional(),
  customerId: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
});
