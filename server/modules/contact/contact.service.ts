import type { z } from 'zod';
import type { contactSchema } from '../../../contract/schemas/contact';
import { contactMessages } from '../../db/schema';
import { contactMail } from '../../mail/templates';
import type { GlobalUnitOfWork } from '../../unit-of-work/unit-of-work';

/**
 * A visitor's message: stored, and forwarded to SUPPORT_EMAIL through the outbox in the same
 * unit (sent after commit; a failed send stays in the outbox with its error and is retried).
 */
export async function receiveContact(
  w: GlobalUnitOfWork,
  input: z.output<typeof contactSchema>,
  meta: { ip: string; supportEmail: string },
): Promise<void> {
  await w.tx.insert(contactMessages).values({
    email: input.EMAIL,
    message: input.MESSAGGIO,
    optIn: true,
    locale: input.locale,
    ip: meta.ip,
    createdAt: w.now,
  });
  await w.outbox.email(
    contactMail(meta.supportEmail, {
      email: input.EMAIL,
      message: input.MESSAGGIO,
      optIn: true,
      ip: meta.ip,
    }),
  );
}
