import { z } from 'zod';
import { validationMessages } from '../validation/italian';
import { optionalId } from './common';
import { requiredText } from './fields';

export interface Tenant {
  id: number;
  name: string;
  configuration: string | null;
}
export const tenantInputSchema = z.object({
  id: optionalId,
  name: requiredText(150, validationMessages.tenantNameRequired),
  configuration: z.string().max(10_000).optional().nullable(),
});
export type TenantInput = z.infer<typeof tenantInputSchema>;
