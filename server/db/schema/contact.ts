import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

/** Messages from the landing page's contact form; kept even when forwarding by e-mail fails. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: id(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    optIn: boolean('opt_in').notNull(),
    locale: text('locale'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt)],
);
