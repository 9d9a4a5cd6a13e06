import { z } from 'zod';
import { optionalId, trimmed } from './common';

export interface Tenant {
  id: number;
  name: string;
  configuration: string | null;
}
export const tenantInputSchema = z.object({
  id: optionalId,
  name: trimmed(150).min(1),
  configuration: z.string().max(10_000).optional().nullable(),
});
export type TenantInput = z.infer<typeof tenantInputSchema>;
