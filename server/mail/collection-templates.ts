/**
 * The collection e-mails (issue 29), in Italian: a ladder step's reminder (the transfer's
 * instructions, a fresh payment link, or — for a card or PayPal whose provider retries — the way
 * to update the payment method from the customer's area) and the notice that the ladder ended.
 * The caller wraps them with `withSignInLink` (the sign-in link to the customer's area).
 */
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

const rowsHtml = (rows: [string, string][]) =>
  `<table style="border-collapse:collapse">${rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#64748b">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:600">${escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>`;

export function collectionReminderMail(to: string, name: string | null, d: ReminderDetails): MailMessage {
  const greeting = name ? `Ciao ${name},` : 'Ciao,';
  const late =
    d.daysOverdue <= 0
      ? `il pagamento di ${d.amount} per l’abbonamento «${d.planName}» con ${d.tenantName} scade oggi (${d.dueOn}) e non risulta ancora ricevuto.`
      : `il pagamento di ${d.amount} per l’abbonamento «${d.planName}» con ${d.tenantName}, scaduto il ${d.dueOn}, non risulta ancora ricevuto (${d.daysOverdue} giorni di ritardo).`;
  const access = `Il servizio resta attivo fino al ${d.graceEndsOn}: paga entro quella data per non interromperlo.`;
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
    subject: `${d.tenantName}: pagamento in sospeso per «${d.planName}»`,
    text: `${greeting}\n\n${late}\n${access}\n\n${text}\nRiferimento del pagamento: ${d.reference}\n`,
    html: layout(
      'Pagamento in sospeso',
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(late)}</p><p>${escapeHtml(access)}</p>${html}` +
        `<p style="color:#64748b">Riferimento del pagamento: ${escapeHtml(d.reference)}</p>`,
    ),
  };
}

/** The ladder ended unpaid: the subscription is suspended. */
export function collectionExhaustedMail(
  to: string,
  name: string | null,
  d: { tenantName: string; planName: string; dueOn: string; amount: string },
): MailMessage {
  const greeting = name ? `Ciao ${name},` : 'Ciao,';
  const body =
    `il pagamento di ${d.amount} per l’abbonamento «${d.planName}» con ${d.tenantName}, scaduto il ${d.dueOn}, ` +
    'non è arrivato nonostante i nostri solleciti: l’abbonamento è stato sospeso.';
  const next = `Per riattivarlo contatta ${d.tenantName}.`;
  return {
    to,
    subject: `${d.tenantName}: abbonamento «${d.planName}» sospeso per mancato pagamento`,
    text: `${greeting}\n\n${body}\n${next}\n`,
    html: layout(
      'Abbonamento sospeso',
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p><p>${escapeHtml(next)}</p>`,
    ),
  };
}
