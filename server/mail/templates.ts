import { escapeHtml } from '../lib/html';
import type { MailMessage } from './mailer';
import { integrationMessages } from '../../contract/messages';
import {
  loginLinkMessages,
  MAILED_LOGIN_LINK_TTL_MS,
  REQUESTED_LOGIN_LINK_TTL_MS,
} from '../../contract/login-link';
import { LOGIN_PAGE_URL, SIGN_IN_CLOSE, SIGN_IN_OPEN, SIGN_IN_URL } from './sign-in-link';

const FOOTER =
  '<p style="color:#64748b;font-size:12px">Rinnova: pagamenti ricorrenti e gestione abbonamenti</p>';

export function layout(title: string, body: string): string {
  return (
    `<!doctype html><html lang="it"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">${body}` +
    `${FOOTER}</body></html>`
  );
}

const buttonStyle =
  'display:inline-block;background:#3b82f6;color:#ffffff;padding:10px 18px;border-radius:8px;' +
  'text-decoration:none;font-weight:600';

/** The link asked for on the login page ('Ricevi un link di accesso'): the message is the link. */
export function loginLinkMail(to: string, name: string | null, userId: number): MailMessage {
  const greeting = name ? `Ciao ${name},` : 'Ciao,';
  const validity = `valido ${REQUESTED_LOGIN_LINK_TTL_MS / 60_000} minuti, utilizzabile una sola volta`;
  const intro = 'ecco il link per entrare nella tua area clienti di Rinnova, senza password';
  const notYou =
    'Se non l’hai chiesto tu, ignora questa email: senza il link nessuno può entrare al tuo posto.';
  return {
    to,
    subject: loginLinkMessages.emailSubject,
    signIn: { userId, origin: 'request' },
    text: `${greeting}\n\n${intro} (${validity}):\n\n${SIGN_IN_URL}\n\n${notYou}\n`,
    html: layout(
      loginLinkMessages.emailSubject,
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}.</p>` +
        `<p><a href="${SIGN_IN_URL}" style="${buttonStyle}">Accedi alla tua area</a></p>` +
        `<p>Il link è ${escapeHtml(validity)}.</p>` +
        `<p>Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${SIGN_IN_URL}</p>` +
        `<p style="color:#475569">${escapeHtml(notYou)}</p>`,
    ),
  };
}

/**
 * Every e-mail Rinnova sends a customer (issue 28) ends with a fresh sign-in link to their area,
 * issued when it is sent (sign-in-link.ts); left out if the account is no customer by then.
 */
export function withSignInLink(message: MailMessage, userId: number): MailMessage {
  const validity = `valido ${MAILED_LOGIN_LINK_TTL_MS / 3_600_000} ore, utilizzabile una sola volta`;
  const area = 'La tua area clienti (abbonamenti e fatture)';
  return {
    ...message,
    signIn: { userId, origin: 'mail' },
    text:
      `${message.text}${SIGN_IN_OPEN}\n${area}: entra senza password da questo link personale (${validity}):\n` +
      `${SIGN_IN_URL}\nSe il link è scaduto, chiedine uno nuovo dalla pagina di accesso: ${LOGIN_PAGE_URL}\n` +
      SIGN_IN_CLOSE,
    html: message.html.replace(
      FOOTER,
      `${SIGN_IN_OPEN}<p style="border-top:1px solid #e2e8f0;padding-top:12px;margin-top:20px">` +
        `${escapeHtml(area)}: <a href="${SIGN_IN_URL}">entra senza password</a> con questo link ` +
        `personale (${escapeHtml(validity)}). Se il link è scaduto, chiedine uno nuovo dalla ` +
        `<a href="${LOGIN_PAGE_URL}">pagina di accesso</a>.</p>${SIGN_IN_CLOSE}${FOOTER}`,
    ),
  };
}

export function passwordResetMail(to: string, name: string | null, link: string): MailMessage {
  const greeting = name ? `Ciao ${name},` : 'Ciao,';
  return {
    to,
    subject: 'Rinnova: reimposta la tua password',
    text:
      `${greeting}\n\nabbiamo ricevuto una richiesta di reimpostare la password del tuo account Rinnova.\n` +
      `Apri questo link per sceglierne una nuova (valido 1 ora, utilizzabile una sola volta):\n\n${link}\n\n` +
      'Se non hai richiesto tu il reset, ignora questa email: la password attuale resta valida.\n',
    html: layout(
      'Reimposta la password',
      `<p>${escapeHtml(greeting)}</p><p>abbiamo ricevuto una richiesta di reimpostare la password del tuo account Rinnova.</p>` +
        `<p><a href="${escapeHtml(link)}">Reimposta la password</a> (valido 1 ora, utilizzabile una sola volta)</p>` +
        `<p>Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${escapeHtml(link)}</p>` +
        '<p>Se non hai richiesto tu il reset, ignora questa email: la password attuale resta valida.</p>',
    ),
  };
}

export function contactMail(
  to: string,
  from: { email: string; message: string; optIn: boolean; ip: string | null },
): MailMessage {
  const consent = from.optIn ? 'sì' : 'no';
  return {
    to,
    replyTo: from.email,
    subject: `Rinnova: nuovo messaggio dal modulo contatti (${from.email})`,
    text: `Nuovo messaggio dal modulo contatti del sito.\n\nEmail: ${from.email}\nConsenso privacy e ricontatto: ${consent}\n\n${from.message}\n`,
    html: layout(
      'Nuovo messaggio dal modulo contatti',
      `<p>Nuovo messaggio dal modulo contatti del sito.</p><p><strong>Email:</strong> ${escapeHtml(from.email)}<br>` +
        `<strong>Consenso privacy e ricontatto:</strong> ${consent}</p>` +
        `<p style="white-space:pre-wrap">${escapeHtml(from.message)}</p>`,
    ),
  };
}

/**
 * To an account created by an admin (user form or wizard): it has no password until the owner
 * chooses one through this link.
 */
export function setPasswordMail(
  to: string,
  name: string | null,
  link: string,
  tenantName: string,
  validHours: number,
): MailMessage {
  const greeting = name ? `Ciao ${name},` : 'Ciao,';
  const validity = `valido ${validHours} ore, utilizzabile una sola volta`;
  return {
    to,
    subject: 'Rinnova: imposta la password del tuo account',
    text:
      `${greeting}\n\n${tenantName} ha creato per te un account su Rinnova.\n` +
      `Per accedere scegli una password da questo link (${validity}):\n\n${link}\n\n` +
      'Se il link è scaduto, usa "Password dimenticata" nella pagina di accesso.\n',
    html: layout(
      'Imposta la password',
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(tenantName)} ha creato per te un account su Rinnova.</p>` +
        `<p><a href="${escapeHtml(link)}">Scegli la tua password</a> (${validity})</p>` +
        `<p>Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${escapeHtml(link)}</p>` +
        '<p>Se il link è scaduto, usa “Password dimenticata” nella pagina di accesso.</p>',
    ),
  };
}

/** The customer's bank-transfer instructions (subscription set to bank transfer). */
export function bankTransferInstructionsMail(
  to: string,
  name: string | null,
  details: {
    tenantName: string;
    planName: string;
    beneficiary: string;
    iban: string;
    amount: string;
    causale: string;
  },
): MailMessage {
  const greeting = name ? `Ciao ${name},` : 'Ciao,';
  const rows: [string, string][] = [
    ['Beneficiario', details.beneficiary],
    ['IBAN', details.iban],
    ['Importo', details.amount],
    ['Causale', details.causale],
  ];
  return {
    to,
    subject: `${details.tenantName}: istruzioni per il bonifico (${details.planName})`,
    text:
      `${greeting}\n\nper attivare l’abbonamento «${details.planName}» con ${details.tenantName} effettua un bonifico con questi dati:\n\n` +
      rows.map(([k, v]) => `${k}: ${v}`).join('\n') +
      '\n\nIndica la causale esattamente come scritta: ci permette di riconoscere il tuo pagamento.\n' +
      'L’abbonamento si attiva quando il bonifico è stato ricevuto e approvato.\n',
    html: layout(
      'Istruzioni per il bonifico',
      `<p>${escapeHtml(greeting)}</p><p>per attivare l’abbonamento «${escapeHtml(details.planName)}» con ${escapeHtml(details.tenantName)} effettua un bonifico con questi dati:</p>` +
        `<table style="border-collapse:collapse">${rows
          .map(
            ([k, v]) =>
              `<tr><td style="padding:4px 12px 4px 0;color:#64748b">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:600">${escapeHtml(v)}</td></tr>`,
          )
          .join('')}</table>` +
        '<p>Indica la causale esattamente come scritta: ci permette di riconoscere il tuo pagamento.</p>' +
        '<p>L’abbonamento si attiva quando il bonifico è stato ricevuto e approvato.</p>',
    ),
  };
}

/**
 * Renewal reminder (the renewal-reminders job): 7 days before the next billing date of a
 * subscription without automatic renewal, with a fresh payment link for the next period.
 */
export function renewalReminderMail(
  to: string,
  name: string | null,
  details: { tenantName: string; planName: string; endsOn: string; amount: string; link: string },
): MailMessage {
  const greeting = name ? `Ciao ${name},` : 'Ciao,';
  const intro =
    `il tuo abbonamento «${details.planName}» con ${details.tenantName} scade il ${details.endsOn} ` +
    'e non si rinnova automaticamente.';
  return {
    to,
    subject: `${details.tenantName}: il tuo abbonamento «${details.planName}» scade il ${details.endsOn}`,
    text:
      `${greeting}\n\n${intro}\n` +
      `Per continuare senza interruzioni rinnovalo da questo link (importo ${details.amount}):\n\n${details.link}\n\n` +
      'Il link è personale e vale per un tempo limitato: se è scaduto, contatta chi ti ha inviato questa email.\n',
    html: layout(
      'Il tuo abbonamento sta per scadere',
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>` +
        `<p><a href="${escapeHtml(details.link)}">Rinnova l’abbonamento</a> (importo ${escapeHtml(details.amount)})</p>` +
        `<p>Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${escapeHtml(details.link)}</p>` +
        '<p>Il link è personale e vale per un tempo limitato: se è scaduto, contatta chi ti ha inviato questa email.</p>',
    ),
  };
}

/**
 * Issue 29: a subscription that renews by bank transfer, 7 days before its next billing date: the
 * next period's transfer instructions (due on the billing date), how long the service stays on
 * while the transfer is awaited, and — when one can be made — a payment link to pay by card or
 * PayPal instead.
 */
export function renewalTransferMail(
  to: string,
  name: string | null,
  details: {
    tenantName: string;
    planName: string;
    /** dd/mm/yyyy: the next billing date, when the transfer is due. */
    dueOn: string;
    beneficiary: string;
    iban: string;
    amount: string;
    causale: string;
    /** dd/mm/yyyy: the last day of the grace while the transfer is awaited. */
    graceEndsOn: string;
    link: string | null;
  },
): MailMessage {
  const greeting = name ? `Ciao ${name},` : 'Ciao,';
  const intro =
    `il tuo abbonamento «${details.planName}» con ${details.tenantName} si rinnova il ${details.dueOn}: ` +
    `per rinnovarlo effettua entro quella data un bonifico con questi dati:`;
  const rows: [string, string][] = [
    ['Beneficiario', details.beneficiary],
    ['IBAN', details.iban],
    ['Importo', details.amount],
    ['Causale', details.causale],
  ];
  const causaleNote =
    'Indica la causale esattamente come scritta: ci permette di riconoscere il tuo pagamento.';
  const grace = `Mentre attendiamo il bonifico il servizio resta attivo fino al ${details.graceEndsOn}.`;
  const linkWords =
    'Preferisci pagare con carta o PayPal? Usa questo link personale (valido un’ora; per uno nuovo entra nella tua area clienti):';
  return {
    to,
    subject: `${details.tenantName}: rinnovo di «${details.planName}» del ${details.dueOn}, istruzioni per il bonifico`,
    text:
      `${greeting}\n\n${intro}\n\n` +
      rows.map(([k, v]) => `${k}: ${v}`).join('\n') +
      `\n\n${causaleNote}\n${grace}\n` +
      (details.link ? `\n${linkWords}\n\n${details.link}\n` : ''),
    html: layout(
      'Rinnovo con bonifico',
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>` +
        `<table style="border-collapse:collapse">${rows
          .map(
            ([k, v]) =>
              `<tr><td style="padding:4px 12px 4px 0;color:#64748b">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:600">${escapeHtml(v)}</td></tr>`,
          )
          .join('')}</table>` +
        `<p>${escapeHtml(causaleNote)}</p><p>${escapeHtml(grace)}</p>` +
        (details.link
          ? `<p>Preferisci pagare con carta o PayPal? <a href="${escapeHtml(details.link)}">Paga online</a> ` +
            '(link personale, valido un’ora; per uno nuovo entra nella tua area clienti)</p>' +
            `<p>Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${escapeHtml(details.link)}</p>`
          : ''),
    ),
  };
}

/** To a tenant's Admins: an outbound webhook endpoint was disabled after 24 hours of failures. */
export function webhookDisabledMail(to: string, details: { tenantName: string; url: string }): MailMessage {
  const body = integrationMessages.endpointDisabled(details.url);
  return {
    to,
    subject: `${details.tenantName}: ${integrationMessages.endpointDisabledSubject}`,
    text: `Ciao,\n\n${body}\n`,
    html: layout(integrationMessages.endpointDisabledSubject, `<p>Ciao,</p><p>${escapeHtml(body)}</p>`),
  };
}
