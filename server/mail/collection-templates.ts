/**
 * The collection e-mails (issue 29), in Italian: a ladder step's reminder (the transfer's
 * instructions, a fresh payment link, or — for a card or PayPal whose provider retries — the way
 * to update the payment method from the customer's area) and the notice that the ladder ended.
 * The caller wraps them with `withSignInLink` (the sign-in link to the customer's area).
 *
 * The subject and the opening paragraphs are the tenant's texts ('Solleciti', CollectionEmail:
 * plain text with the contract's placeholders), else Rinnova's default wording; what follows them
 * (how to pay, the reference, the sign-in link) is always the server's. The dunning job and the
 * screen's preview both render through these functions.
 */
import {
  DEFAULT_FINAL_EMAIL,
  defaultReminderEmail,
  PLACEHOLDER_PATTERN,
  type CollectionEmail,
  type CollectionPlaceholder,
} from '../../contract/schemas/collection';
import { escapeHtml } from '../lib/html';
import type { MailMessage } from './mailer';
import { layout } from './templates';

export interface ReminderDetails {
  tenantName: string;
  planName: string;
  /** dd/mm/yyyy. */
  dueOn: string;
  amount: string;
  /** The payment's causale: its reference, in every reminder. */
  reference: string;
  daysOverdue: number;
  /** dd/mm/yyyy: until then the customer keeps access. */
  graceEndsOn: string;
  how:
    | { kind: 'transfer'; beneficiary: string; iban: string; causale: string; link?: string | undefined }
    | { kind: 'link'; url: string }
    | { kind: 'provider'; provider: 'Stripe' | 'PayPal' }
    | { kind: 'area' };
}

/** What the placeholders stand for in one e-mail (`cliente` null: no name, the word goes with its space). */
export type PlaceholderValues = Record<Exclude<CollectionPlaceholder, 'cliente'>, string> & {
  cliente: string | null;
};

/** The text with its placeholders filled (an unknown one, refused on save, is left as written). */
export function fillPlaceholders(template: string, values: PlaceholderValues): string {
  const withName = values.cliente === null ? template.replace(/[ \t]?\{cliente\}/g, '') : template;
  return withName.replace(PLACEHOLDER_PATTERN, (whole, key: string) => {
    const value = (values as Record<string, string | null>)[key];
    return typeof value === 'string' ? value : whole;
  });
}

/** The tenant's text, else the default's, field by field (an empty subject or message: the default). */
function textOf(own: CollectionEmail | null | undefined, fallback: CollectionEmail): CollectionEmail {
  const subject = own?.subject.trim() ? own.subject.trim() : fallback.subject;
  const body = own?.body.trim() ? own.body.replace(/\r\n?/g, '\n').trim() : fallback.body;
  return { subject, body };
}

/** The message's paragraphs in HTML: each non-empty line one, escaped. */
const paragraphsHtml = (body: string) =>
  body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');

function valuesOf(name: string | null, d: Omit<ReminderDetails, 'how'>): PlaceholderValues {
  return {
    cliente: name,
    fornitore: d.tenantName,
    piano: d.planName,
    importo: d.amount,
    scadenza: d.dueOn,
    giorni_ritardo: String(d.daysOverdue),
    fine_tolleranza: d.graceEndsOn,
    riferimento: d.reference,
  };
}

const rowsHtml = (rows: [string, string][]) =>
  `<table style="border-collapse:collapse">${rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#64748b">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:600">${escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>`;

export function collectionReminderMail(
  to: string,
  name: string | null,
  d: ReminderDetails,
  own?: CollectionEmail | null,
): MailMessage {
  const values = valuesOf(name, d);
  const texts = textOf(own, defaultReminderEmail(d.daysOverdue));
  const subject = fillPlaceholders(texts.subject, values);
  const opening = fillPlaceholders(texts.body, values);
  let text: string;
  let html: string;
  if (d.how.kind === 'transfer') {
    const rows: [string, string][] = [
      ['Beneficiario', d.how.beneficiary],
      ['IBAN', d.how.iban],
      ['Importo', d.amount],
      ['Causale', d.how.causale],
    ];
    text =
      'Effettua il bonifico con questi dati:\n\n' +
      rows.map(([k, v]) => `${k}: ${v}`).join('\n') +
      '\n\nIndica la causale esattamente come scritta: ci permette di riconoscere il tuo pagamento.\n';
    html =
      '<p>Effettua il bonifico con questi dati:</p>' +
      rowsHtml(rows) +
      '<p>Indica la causale esattamente come scritta: ci permette di riconoscere il tuo pagamento.</p>';
    // Issue 29: paying by card or PayPal instead, when a link can be made.
    if (d.how.link) {
      text += `\nPreferisci pagare con carta o PayPal? Usa questo link personale (valido un’ora):\n\n${d.how.link}\n`;
      html += `<p>Preferisci pagare con carta o PayPal? <a href="${escapeHtml(d.how.link)}">Paga online</a> (link personale, valido un’ora)</p>`;
    }
  } else if (d.how.kind === 'link') {
    text = `Paga da questo link personale (valido un’ora; per uno nuovo entra nella tua area clienti):\n\n${d.how.url}\n`;
    html =
      `<p><a href="${escapeHtml(d.how.url)}">Paga ora</a> (link personale, valido un’ora; per uno nuovo entra nella tua area clienti)</p>` +
      `<p>Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${escapeHtml(d.how.url)}</p>`;
  } else if (d.how.kind === 'area') {
    const words = 'Entra nella tua area clienti con il link qui sotto e scegli «Paga ora».';
    text = `${words}\n`;
    html = `<p>${escapeHtml(words)}</p>`;
  } else {
    const words =
      `${d.how.provider} non è riuscito ad addebitare il pagamento e riproverà nei prossimi giorni. ` +
      'Controlla o aggiorna il metodo di pagamento dalla tua area clienti (Metodo di pagamento).';
    text = `${words}\n`;
    html = `<p>${escapeHtml(words)}</p>`;
  }
  return {
    to,
    subject,
    text: `${opening}\n\n${text}\nRiferimento del pagamento: ${d.reference}\n`,
    html: layout(
      'Pagamento in sospeso',
      `${paragraphsHtml(opening)}${html}` +
        `<p style="color:#64748b">Riferimento del pagamento: ${escapeHtml(d.reference)}</p>`,
    ),
  };
}

/** The ladder ended unpaid: the subscription is suspended. */
export function collectionExhaustedMail(
  to: string,
  name: string | null,
  d: Omit<ReminderDetails, 'how'>,
  own?: CollectionEmail | null,
): MailMessage {
  const values = valuesOf(name, d);
  const texts = textOf(own, DEFAULT_FINAL_EMAIL);
  const body = fillPlaceholders(texts.body, values);
  return {
    to,
    subject: fillPlaceholders(texts.subject, values),
    text: `${body}\n`,
    html: layout('Abbonamento sospeso', paragraphsHtml(body)),
  };
}
