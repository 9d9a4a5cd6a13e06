import { z } from 'zod';
import { messages } from '../messages';

/** The landing page's contact form (spec §3, §5). Field names are the form's own. */
export const contactSchema = z.object({
  EMAIL: z
    .string({ error: messages.contact.required })
    .trim()
    .min(1, messages.contact.required)
    .pipe(z.email({ error: messages.contact.invalid })),
  MESSAGGIO: z
    .string({ error: messages.contact.required })
    .trim()
    .min(1, messages.contact.required)
    .max(5000, messages.contact.invalid),
  OPT_IN: z.literal(['1', 1, true], { error: messages.contact.required }),
  email_address_check: z.string().optional().default(''),
  locale: z.string().optional().default('it'),
});
export type ContactInput = z.input<typeof contactSchema>;
