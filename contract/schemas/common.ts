import { z } from 'zod';

/** An id in a body: absent, 0 or null means "new". */
export const optionalId = z.coerce.number().int().nonnegative().optional().nullable();
export const requiredId = z.coerce.number().int().positive();

export const trimmed = (max: number) => z.string().trim().max(max);
