import { count, desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../contract/messages';
import { contactMessages, outbox } from '../../server/db/schema';
import { API_KEY, client, createTestContext, failingMailer } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ env: { SUPPORT_EMAIL: 'supporto@test.rinnova.it' } });
});
afterAll(() => ctx.close());

const valid = {
  EMAIL: 'visitatore@example.it',
  MESSAGGIO: 'Vorrei una demo.',
  OPT_IN: '1',
  email_address_check: '',
  locale: 'it',
};
const stored = async () => (await ctx.db.select({ n: count() }).from(contactMessages))[0]?.n ?? 0;
const latest = async () =>
  (await ctx.db.select().from(contactMessages).orderBy(desc(contactMessages.id)).limit(1))[0];

describe('POST api/contact', () => {
  it('stores the message, e-mails SUPPORT_EMAIL and answers the Italian success', async () => {
    const before = await stored();
    const res = await ctx.api.post('/api/contact', valid);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: messages.contact.success, data: null });
    expect(await stored()).toBe(before + 1);
    const row = await latest();
    expect(row).toMatchObject({
      email: 'visitatore@example.it',
      message: 'Vorrei una demo.',
      optIn: true,
      locale: 'it',
    });
    // Forwarded through the outbox, sent after commit.
    const [sent] = await ctx.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1);
    expect(sent).toMatchObject({ kind: 'email', lastError: null });
    expect(sent?.sentAt).toBeInstanceOf(Date);
    expect(row?.ip).toBe('127.0.0.1');
    const mail = (await ctx.outbox()).at(-1);
    expect(mail).toMatchObject({ to: 'supporto@test.rinnova.it', replyTo: 'visitatore@example.it' });
    expect(mail?.text).toContain('Vorrei una demo.');
  });

  it('needs no sign-in but does need the API key', async () => {
    const res = await client(ctx.app, {}, null).post('/api/contact', valid);
    expect(res.status).toBe(401);
  });

  it('accepts a urlencoded form post too', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...valid, MESSAGGIO: 'Dal modulo <b>HTML</b>' }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect((await latest())?.message).toBe('Dal modulo <b>HTML</b>');
    // Escaped in the HTML e-mail.
    expect((await ctx.outbox()).at(-1)?.html).toContain('Dal modulo &lt;b&gt;HTML&lt;/b&gt;');
  });

  it('binds field names case-insensitively to the form spelling', async () => {
    const res = await ctx.api.post('/api/contact', {
      email: 'minuscolo@example.it',
      messaggio: 'ciao',
      opt_in: '1',
    });
    expect(res.status).toBe(200);
    expect((await latest())?.email).toBe('minuscolo@example.it');
  });

  it.each([
    ['EMAIL missing', { EMAIL: undefined }, [`EMAIL: ${messages.contact.required}`]],
    ['EMAIL empty', { EMAIL: '  ' }, [`EMAIL: ${messages.contact.required}`]],
    ['EMAIL invalid', { EMAIL: 'non-una-email' }, [`EMAIL: ${messages.contact.invalid}`]],
    ['MESSAGGIO missing', { MESSAGGIO: undefined }, [`MESSAGGIO: ${messages.contact.required}`]],
    ['MESSAGGIO too long', { MESSAGGIO: 'x'.repeat(5001) }, [`MESSAGGIO: ${messages.contact.invalid}`]],
    ['OPT_IN missing', { OPT_IN: undefined }, [`OPT_IN: ${messages.contact.required}`]],
    ['OPT_IN not given', { OPT_IN: '0' }, [`OPT_IN: ${messages.contact.required}`]],
    [
      'everything missing',
      { EMAIL: undefined, MESSAGGIO: undefined, OPT_IN: undefined },
      [
        `EMAIL: ${messages.contact.required}`,
        `MESSAGGIO: ${messages.contact.required}`,
        `OPT_IN: ${messages.contact.required}`,
      ],
    ],
  ])('%s: 400 with the contract message and nothing stored or sent', async (_name, change, errors) => {
    const before = await stored();
    const mails = (await ctx.outbox()).length;
    const body: Record<string, unknown> = { ...valid, ...change };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const res = await ctx.api.post('/api/contact', body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toEqual(errors);
    expect(await stored()).toBe(before);
    expect(await ctx.outbox()).toHaveLength(mails);
  });

  it('a filled honeypot gets the same success but nothing is stored or sent', async () => {
    const before = await stored();
    const mails = (await ctx.outbox()).length;
    const res = await ctx.api.post('/api/contact', { ...valid, email_address_check: 'bot@spam.example' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: messages.contact.success, data: null });
    expect(await stored()).toBe(before);
    expect(await ctx.outbox()).toHaveLength(mails);
  });

  it('when the e-mail fails the message stays stored, its e-mail waits in the outbox with the error, and the answer is still success', async () => {
    const app = await ctx.buildAnotherApp({}, { mailer: failingMailer });
    const res = await client(app, {}).post('/api/contact', { ...valid, MESSAGGIO: 'Mail in errore' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(await latest()).toMatchObject({ message: 'Mail in errore' });
    const [waiting] = await ctx.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1);
    expect(waiting).toMatchObject({
      kind: 'email',
      sentAt: null,
      lastError: 'SMTP non raggiungibile (test)',
    });
    expect((waiting?.payload as { text?: string }).text).toContain('Mail in errore');
  });
});
