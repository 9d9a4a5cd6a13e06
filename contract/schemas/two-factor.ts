/** The bodies of the two-factor calls (contract/two-factor.ts holds the texts and shapes). */
import { z } from 'zod';
import { twoFactorMessages } from '../two-factor';

/** A 6-digit TOTP code, or a recovery code (`XXXX-XXXX`, case and dash optional). */
export const secondFactorCodeSchema = z
  .string({ error: twoFactorMessages.codeRequired })
  .trim()
  .min(1, twoFactorMessages.codeRequired)
  .max(20, twoFactorMessages.codeInvalid);

export const secondFactorLoginSchema = z.object({
  challenge: z.string().trim().min(1, twoFactorMessages.challengeInvalid).max(200),
  code: secondFactorCodeSchema,
});

export const twoFactorCodeBodySchema = z.object({ code: secondFactorCodeSchema });
