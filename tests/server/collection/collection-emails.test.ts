/**
 * Issue 29, the ladder's e-mails per tenant ('Solleciti'): GET/PUT api/collection/settings carry
 * `emails` (null: Rinnova's wording), refused texts (an unknown placeholder, too long, more texts
 * than steps) change nothing, a PUT without `emails` keeps the texts by position, another tenant's
 * texts are never used, the dunning job and 'Sollecita ora' send the tenant's subject and opening
 * with the placeholders filled and escaped into the HTML, and the preview is what the job sends
 * for the same payment.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectionEmailMessages,
  defaultReminderEmail,
  DEFAULT_FINAL_EMAIL,
  type CollectionEmails,
  type CollectionPreview,
  type CollectionSettings,
} from '../../../contract/schemas/collection';
import { causaleOf } from '../../../contract/schemas/payment';
import type { Subscription } from '../../../contract/schemas/subscription';
import { userTenants } from '../../../server/db/schema';
import { fillPlaceholders } from '../../../server/mail/collection-templates';
import { JOB_NAMES } from '../../../server/modules/billing/billing-jobs';
import { addDays } from '../../../server/modules/billing/collection.service';
import { PREVIEW_SAMPLE } from '../../../server/modules/billing/collection-preview';
import { formatEur } from '../../../server/modules/billing/subscription.service';
import type { OutboxEntry } from '../../../server/mail/mailer';
import { createTestContext, type ApiClient, type TestContext } from '../helpers/test-app';
import { createSubscription, giveIban, movableClock, planId, userId } from '../billing/helpers';

const clock = movableClock('2026-05-04T08:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;
let other: ApiClient;
let demoId: number;
let sub: Subscription;
let customerName: string | null;

const LADDER = { steps: [0, 3, 7, 14], graceDays: 14, finalDay: 21 };
const STEP0 = {
  subject: '  Promemoria {piano} da {fornitore}  ',
  body: 'Gentile {cliente},\r\nil tuo pagamento di {importo} (scadenza {scadenza}, {giorni_ritardo} giorni) è atteso.\n\n<script>alert("x")</script> & grazie: accesso fino al {fine_tolleranza}, rif. {riferimento}.',
};
const FINAL = {
  subject: 'Sospeso: {piano}',
  body: 'Gentile {cliente},\nabbiamo sospeso «{piano}» dopo {giorni_ritardo} giorni.',
};

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  other = await ctx.as('superadmin', 'Studio Rossi');
  demoId = await ctx.tenantId('Demo Srl');
  await giveIban(ctx, 'Demo Srl');
  const customer = await userId(ctx, 'mario.rossi@example.com');
  const [membership] = await ctx.db
    .select({ name: userTenants.name })
    .from(userTenants)
    .where(and(eq(userTenants.userId, customer), eq(userTenants.tenantId, demoId)));
  customerName = membership?.name ?? null;
  sub = await createSubscription(admin, {
    userId: customer,
    planId: await planId(ctx, 'Demo Srl', 'Basic'),
  });
  expect((await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`)).status).toBe(200);
  sub = (await admin.get<Subscription>(`/api/subscription/GetById/${sub.id}`)).body.data!;
}, 60_000);
afterAll(async () => ctx?.close());

const settings = async (client: ApiClient = admin) =>
  (await client.get<CollectionSettings>('/api/collection/settings')).body.data!;

/** The reminders of this test's payment (its reference), oldest first. */
async function mailsOfPayment(): Promise<OutboxEntry[]> {
  const causale = sub.payments[0]!.causale;
  return (await ctx.outbox()).filter((m) => m.text.includes(`Riferimento del pagamento: ${causale}`));
}

/** The job's e-mail with this payment's own values replaced by the preview's sample ones. */
function asSample(mail: { subject: string; text: string; html: string }) {
  const p = sub.payments[0]!;
  const swaps: [string, string][] = [
    [p.causale, causaleOf(demoId, PREVIEW_SAMPLE.paymentId)],
    [formatEur(Math.round(p.amountDue * 100)), formatEur(PREVIEW_SAMPLE.amountCents)],
    ['«Basic»', `«${PREVIEW_SAMPLE.plan}»`],
    ['Sospeso: Basic', `Sospeso: ${PREVIEW_SAMPLE.plan}`],
    ['Promemoria Basic', `Promemoria ${PREVIEW_SAMPLE.plan}`],
  ];
  if (customerName) swaps.push([customerName, PREVIEW_SAMPLE.customer]);
  const swap = (s: string) =>
    swaps.reduce((acc, [from, to]) => acc.replaceAll(from, to), s).replace(/token=[^"&\s<]+/g, 'token=X');
  return { subject: swap(mail.subject), text: swap(mail.text), html: swap(mail.html) };
}
const withToken = (m: CollectionPreview) => ({
  subject: m.subject,
  text: m.text.replace(/token=[^"&\s<]+/g, 'token=X'),
  html: m.html.replace(/token=[^"&\s<]+/g, 'token=X'),
});

describe('the placeholders', () => {
  it('fills each one; without a name {cliente} goes with its space', () => {
    const values = {
      cliente: null,
      fornitore: 'Demo Srl',
      piano: 'Basic',
      importo: '€ 1,00',
      scadenza: '01/05/2026',
      giorni_ritardo: '3',
      fine_tolleranza: '15/05/2026',
      riferimento: 'RNV-1-000001',
    };
    expect(fillPlaceholders(defaultReminderEmail(0).body, values)).toMatch(
      /^Ciao,\n\nil pagamento di € 1,00/,
    );
    expect(fillPlaceholders('{piano}{riferimento} {giorni_ritardo}', { ...values, cliente: 'Anna' })).toBe(
      'BasicRNV-1-000001 3',
    );
  });
});

describe('GET/PUT api/collection/settings with emails', () => {
  it('answers the defaults (null), saves the texts and answers them back, trimmed', async () => {
    expect(await settings()).toEqual({
      ...LADDER,
      emails: { steps: [null, null, null, null], final: null },
    });
    const emails: CollectionEmails = {
      steps: [STEP0, null, { subject: '', body: '   ' }],
      final: FINAL,
    };
    const saved = await admin.put<CollectionSettings>('/api/collection/settings', { ...LADDER, emails });
    expect(saved.status, saved.raw).toBe(200);
    const expected = {
      ...LADDER,
      emails: {
        steps: [{ subject: STEP0.subject.trim(), body: STEP0.body.replace('\r\n', '\n') }, null, null, null],
        final: FINAL,
      },
    };
    expect(saved.body.data).toEqual(expected);
    expect(await settings()).toEqual(expected);
    // Studio Rossi keeps its own (the defaults).
    expect((await settings(other)).emails).toEqual({ steps: [null, null, null, null], final: null });
  });

  it('refuses an unknown placeholder, a text too long, more texts than steps: Italian field errors, nothing changed', async () => {
    const before = await settings();
    const bad = await admin.put('/api/collection/settings', {
      ...LADDER,
      emails: {
        steps: [
          { subject: 'Ciao {nome}', body: 'ok' },
          { subject: 'x'.repeat(201), body: 'Scaduto il {scadenza} {xyz}' },
        ],
        final: { subject: 'Riga\naltra', body: 'y'.repeat(2001) },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        'emails.steps.0.subject: Segnaposto sconosciuto: {nome}',
        `emails.steps.1.subject: ${collectionEmailMessages.subjectTooLong}`,
        'emails.steps.1.body: Segnaposto sconosciuto: {xyz}',
        `emails.final.subject: ${collectionEmailMessages.subjectOneLine}`,
        `emails.final.body: ${collectionEmailMessages.bodyTooLong}`,
      ]),
    );
    const tooMany = await admin.put('/api/collection/settings', {
      ...LADDER,
      steps: [0],
      emails: { steps: [null, STEP0], final: null },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toContain(`emails.steps: ${collectionEmailMessages.tooManyTexts}`);
    const preview = await admin.post('/api/collection/settings/preview', {
      step: 0,
      subject: '{boh}',
      body: '',
      method: 'card',
    });
    expect(preview.status).toBe(400);
    expect(preview.body.errors).toContain('subject: Segnaposto sconosciuto: {boh}');
    expect(await settings()).toEqual(before);
  });

  it('a PUT without emails keeps the texts, by position; a step removed takes its text away', async () => {
    const before = await settings();
    const fewer = await admin.put<CollectionSettings>('/api/collection/settings', {
      steps: [0],
      graceDays: 14,
      finalDay: 21,
    });
    expect(fewer.status, fewer.raw).toBe(200);
    expect(fewer.body.data!.emails).toEqual({ steps: [before.emails.steps[0]], final: FINAL });
    const more = await admin.put<CollectionSettings>('/api/collection/settings', LADDER);
    expect(more.body.data!.emails).toEqual(before.emails);
  });

  it('another tenant’s texts are its own: Studio Rossi saves its, Demo Srl’s stay', async () => {
    const theirs = await other.put<CollectionSettings>('/api/collection/settings', {
      ...LADDER,
      emails: { steps: [{ subject: 'Studio Rossi ricorda', body: 'Testo di Studio Rossi' }], final: null },
    });
    expect(theirs.status, theirs.raw).toBe(200);
    expect((await settings()).emails.steps[0]!.subject).toBe(STEP0.subject.trim());
  });
});

describe('the e-mails sent', () => {
  let reminder: OutboxEntry;

  it('the job sends the tenant’s text on day 0: placeholders filled, HTML escaped, the transfer and the sign-in link appended', async () => {
    const p = sub.payments[0]!;
    clock.set(`${p.dueDate}T08:00:00.000Z`);
    await ctx.app.jobs!.runJobNow(JOB_NAMES.dunning, { tenantId: demoId });
    const mails = await mailsOfPayment();
    expect(mails).toHaveLength(1);
    reminder = mails[0]!;
    expect(reminder.subject).toBe('Promemoria Basic da Demo Srl');
    const dueOn = p.dueDate.split('-').reverse().join('/');
    const graceOn = addDays(p.dueDate, 14).split('-').reverse().join('/');
    const amount = formatEur(Math.round(p.amountDue * 100));
    expect(reminder.text).toContain(`il tuo pagamento di ${amount} (scadenza ${dueOn}, 0 giorni) è atteso.`);
    expect(reminder.text).toContain(`accesso fino al ${graceOn}, rif. ${p.causale}.`);
    expect(reminder.text).toContain('<script>alert("x")</script>');
    expect(reminder.html).not.toContain('<script>');
    expect(reminder.html).toContain('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; grazie');
    // What the server always adds.
    expect(reminder.text).toContain('Effettua il bonifico con questi dati:');
    expect(reminder.text).toContain(`Riferimento del pagamento: ${p.causale}`);
    expect(reminder.text).toMatch(/\/login\/link\?token=/);
    // Never Studio Rossi's.
    expect(reminder.text).not.toContain('Studio Rossi');
  });

  it('the preview of the same text is exactly what the job sent, for the sample payment', async () => {
    const current = await settings();
    const preview = await admin.post<CollectionPreview>('/api/collection/settings/preview', {
      step: 0,
      subject: current.emails.steps[0]!.subject,
      body: current.emails.steps[0]!.body,
      method: 'bankTransfer',
    });
    expect(preview.status, preview.raw).toBe(200);
    expect(withToken(preview.body.data!)).toEqual(asSample(reminder));
    expect(preview.body.data!.html).toContain('Mario Rossi');
  });

  it('Sollecita ora sends the text of the step reached', async () => {
    const before = (await mailsOfPayment()).length;
    const res = await admin.post(`/api/collection/remind/${sub.payments[0]!.id}`);
    expect(res.status, res.raw).toBe(200);
    const mails = await mailsOfPayment();
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.subject).toBe('Promemoria Basic da Demo Srl');
  });

  it('step 2 has no text of its own: Rinnova’s default wording; its preview with empty texts is the same', async () => {
    const p = sub.payments[0]!;
    clock.set(`${addDays(p.dueDate, 3)}T08:00:00.000Z`);
    await ctx.app.jobs!.runJobNow(JOB_NAMES.dunning, { tenantId: demoId });
    const sent = (await mailsOfPayment()).at(-1)!;
    expect(sent.subject).toBe('Demo Srl: pagamento in sospeso per «Basic»');
    expect(sent.text).toContain('non risulta ancora ricevuto (3 giorni di ritardo).');
    expect(sent.text).toMatch(customerName ? new RegExp(`^Ciao ${customerName},\\n\\n`) : /^Ciao,\n\n/);
    const preview = await admin.post<CollectionPreview>('/api/collection/settings/preview', {
      step: 1,
      subject: '',
      body: '',
      method: 'bankTransfer',
    });
    expect(withToken(preview.body.data!)).toEqual(asSample(sent));
    // Its default, as the screen shows it, renders the same.
    const shown = await admin.post<CollectionPreview>('/api/collection/settings/preview', {
      step: 1,
      ...defaultReminderEmail(3),
      method: 'bankTransfer',
    });
    expect(shown.body.data).toEqual(preview.body.data);
  });

  it('the final action sends the tenant’s final text; the preview of it matches', async () => {
    const p = sub.payments[0]!;
    clock.set(`${addDays(p.dueDate, 21)}T08:00:00.000Z`);
    await ctx.app.jobs!.runJobNow(JOB_NAMES.dunning, { tenantId: demoId });
    const sent = (await ctx.outbox()).filter((m) => m.subject === 'Sospeso: Basic');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('abbiamo sospeso «Basic» dopo 21 giorni.');
    expect(sent[0]!.text).toMatch(/\/login\/link\?token=/);
    const preview = await admin.post<CollectionPreview>('/api/collection/settings/preview', {
      step: 'final',
      ...FINAL,
      method: 'card',
    });
    expect(preview.status, preview.raw).toBe(200);
    expect(withToken(preview.body.data!)).toEqual(asSample(sent[0]!));
    // The card preview of a reminder carries a payment link; the final one's default is Rinnova's.
    const card = await admin.post<CollectionPreview>('/api/collection/settings/preview', {
      step: 0,
      subject: '',
      body: '',
      method: 'card',
    });
    expect(card.body.data!.text).toContain('Paga da questo link personale');
    expect(card.body.data!.text).toContain('/payment?token=anteprima');
    const finalDefault = await admin.post<CollectionPreview>('/api/collection/settings/preview', {
      step: 'final',
      subject: '',
      body: '',
      method: 'card',
    });
    expect(finalDefault.body.data!.subject).toBe(
      DEFAULT_FINAL_EMAIL.subject.replace('{fornitore}', 'Demo Srl').replace('{piano}', PREVIEW_SAMPLE.plan),
    );
  });

  it('a customer may not read or preview the texts', async () => {
    const user = await ctx.as('cliente', 'Demo Srl');
    expect((await user.get('/api/collection/settings')).status).toBe(403);
    expect(
      (
        await user.post('/api/collection/settings/preview', {
          step: 0,
          subject: '',
          body: '',
          method: 'card',
        })
      ).status,
    ).toBe(403);
  });
});
