/**
 * The trial e-mails (issue 30, 'Prove'), in Italian: the reminder three days before a free trial
 * ends, with a payment link for the first period, and the notice that it ended unpaid. The caller
 * wraps them with `withSignInLink` (the sign-in link to the customer's area).
 */
import { escapeHtml } from '../lib/html';
import type { MailMessage } from './mailer';
import { layout } from './templates';

const greetingOf = (name: string | null) => (name ? `Ciao ${name},` : 'Ciao,');

/** Three days before the trial ends: pay the first period from the link to keep the service. */
export function trialEndingMail(
  to: string,
  name: string | null,
  details: { tenantName: string; planName: string; endsOn: string; amount: string; link: string | null },
): MailMessage {
  if (details.link === null) return trialEndingWithoutLink(to, name, details);
  const greeting = greetingOf(name);
  const intro =
    `il periodo di prova gratuito del tuo abbonamento «${details.planName}» con ${details.tenantName} ` +
    `termina il ${details.endsOn}.`;
  const ask = `Per continuare senza interruzioni attiva l’abbonamento da questo link (importo ${details.amount}):`;
  return {
    to,
    subject: `${details.tenantName}: la tua prova di «${details.planName}» termina il ${details.endsOn}`,
    text:
      `${greeting}\n\n${intro}\n${ask}\n\n${details.link}\n\n` +
      'Il primo periodo a pagamento inizia alla fine della prova: i giorni gratuiti restano tuoi.\n' +
      'Il link è personale e vale per un tempo limitato: se è scaduto, accedi alla tua area cliente.\n',
    html: layout(
      'La tua prova sta per terminare',
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>` +
        `<p><a href="${escapeHtml(details.link)}">Attiva l’abbonamento</a> (importo ${escapeHtml(details.amount)})</p>` +
        '<p>Il primo periodo a pagamento inizia alla fine della prova: i giorni gratuiti restano tuoi.</p>' +
        `<p>Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${escapeHtml(details.link)}</p>` +
        '<p>Il link è personale e vale per un tempo limitato: se è scaduto, accedi alla tua area cliente.</p>',
    ),
  };
}

/** The same reminder when no payment link can be made: the customer pays from their area. */
function trialEndingWithoutLink(
  to: string,
  name: string | null,
  details: { tenantName: string; planName: string; endsOn: string; amount: string },
): MailMessage {
  const greeting = greetingOf(name);
  const intro =
    `il periodo di prova gratuito del tuo abbonamento «${details.planName}» con ${details.tenantName} ` +
    `termina il ${details.endsOn}.`;
  const ask = `Per continuare senza interruzioni attiva l’abbonamento (importo ${details.amount}) dalla tua area cliente.`;
  return {
    to,
    subject: `${details.tenantName}: la tua prova di «${details.planName}» termina il ${details.endsOn}`,
    text: `${greeting}\n\n${intro}\n${ask}\n`,
    html: layout(
      'La tua prova sta per terminare',
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p><p>${escapeHtml(ask)}</p>`,
    ),
  };
}

/** The trial ended without its first payment: the subscription is no longer active. */
export function trialEndedMail(
  to: string,
  name: string | null,
  details: { tenantName: string; planName: string; endedOn: string },
): MailMessage {
  const greeting = greetingOf(name);
  const intro =
    `il periodo di prova del tuo abbonamento «${details.planName}» con ${details.tenantName} ` +
    `è terminato il ${details.endedOn} senza pagamento: l’abbonamento non è più attivo.`;
  const next = `Per riattivarlo contatta ${details.tenantName} o accedi alla tua area cliente.`;
  return {
    to,
    subject: `${details.tenantName}: la tua prova di «${details.planName}» è terminata`,
    text: `${greeting}\n\n${intro}\n${next}\n`,
    html: layout(
      'La tua prova è terminata',
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p><p>${escapeHtml(next)}</p>`,
    ),
  };
}
