import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../../contract/messages';
import { contactSchema } from '../../../contract/schemas/contact';
import { envelopeOf, ok } from '../../lib/envelope';
import { perIp } from '../../plugins/rate-limit';
import { receiveContact } from './contact.service';

export interface ContactRoutesOptions {
  supportEmail: string;
  rateLimit: { windowMs: number; contact: number };
}

/**
 * The landing page's contact form: API key only, JSON or urlencoded, field names as the form's
 * (EMAIL, MESSAGGIO, OPT_IN...). Stored and forwarded to SUPPORT_EMAIL through the outbox in one
 * unit of work; a failed e-mail stays in the outbox with its error (retried by the outbox sweep) and
 * the visitor still gets success, since the message is kept.
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
      await request.globalUnitOfWork(
        (w) => receiveContact(w, body, { ip: request.ip, supportEmail: opts.supportEmail }),
        { kind: 'system', job: 'modulo contatti' },
      );
      return ok(null, messages.contact.success);
    },
  );
}
