import { z } from 'zod';
import type { Envelope } from '../../contract/envelope';

/** A successful envelope. `message` is for people (Italian); reads carry none. */
export function ok<T>(data: T, message: string | null = null): Envelope<T> & { data: T } {
  return { success: true, message, data };
}

/** Response schema of a successful envelope, for serialization and the OpenAPI document. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ success: z.boolean(), message: z.string().nullable(), data });
}

/** Schema of an error envelope (documentation only; errors are not serialized through it). */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  data: z.unknown().nullable(),
  errors: z.array(z.string()).optional(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});
