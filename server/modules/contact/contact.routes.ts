import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../../contract/messages';
import { contactSchema } from '../../../contract/schemas/contact';
import type { Database } from '../../db/client';
import { contactMessages } from '../../db/schema';
import { envelopeOf, ok } from '../../lib/envelope';
import type { Mailer } from '../../mail/mailer';
import { contactMail } from '../../mail/templates';
import { perIp } from '../../plugins/rate-limit';

export interface ContactRoutesOptions {
  db: Database;
  mailer: Mailer;
  supportEmail: string;
  rateLimit: { windowMs: number; contact: number };
  now: () => Date;
}

/**
 * The landing page's contact form: API key only, JSON or urlencoded, field names as the form's
 * (EMAIL, MESSAGGIO, OPT_IN...). Stored first, then forwarded to SUPPORT_EMAIL; a failed e-mail
 * is recorded on the row and the visitor still gets success, since the message is kept.
 * A filled honeypot (email_address_check) gets the same success and nothing is stored or sent.
 */
export function registerContactRoutes(fastify: FastifyInstance, opts: ContactRoutesOptions): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/contact',
    {
      config: { access: 'appKey', rateLimit: perIp(opts.rateLimit.contact, opts.rateLimit.windowMs) },
      schema: {
        tags: ['contact'],
        security: [{ apiKey: [] }],
        body: contactSchema,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      const body = request.body;
      if (body.email_address_check.trim() !== '') {
        request.log.info('contatto scartato: honeypot compilato');
        return ok(null, messages.contact.success);
      }
      const [stored] = await opts.db
        .insert(contactMessages)
        .values({
          email: body.EMAIL,
          message: body.MESSAGGIO,
          optIn: true,
          locale: body.locale,
          ip: request.ip,
        })
        .returning({ id: contactMessages.id });
      if (!stored) throw new Error('contact insert returned no row');
      try {
        await opts.mailer.send(
          contactMail(opts.supportEmail, {
            email: body.EMAIL,
            message: body.MESSAGGIO,
            optIn: true,
            ip: request.ip,
          }),
        );
        await opts.db
          .update(contactMessages)
          .set({ emailedAt: opts.now() })
          .where(eq(contactMessages.id, stored.id));
      } catch (error) {
        request.log.error({ err: error, contactMessageId: stored.id }, 'inoltro email del contatto fallito');
        const reason = error instanceof Error ? error.message : String(error);
        await opts.db
          .update(contactMessages)
          .set({ emailError: reason.slice(0, 1000) })
          .where(eq(contactMessages.id, stored.id));
      }
      return ok(null, messages.contact.success);
    },
  );
}
