import { escapeHtml } from '../lib/html';
import type { MailMessage } from './mailer';
import { layout } from './templates';

/** 'al mese', 'ogni 3 mesi', 'all’anno' (the widget's and the payment page's words). */
export function periodWords(months: number): string {
  if (months === 1) return 'al mese';
  if (months === 12) return 'all’anno';
  return `ogni ${months} mesi`;
}

/**
 * The plan widget's confirmation (issue 23). The same message whoever the address belongs to (a
 * new address, a customer, a staff account): nothing in it depends on what Rinnova knows of the
 * address, and the name typed in the widget is left out (a stranger's text is never mailed to
 * someone else).
 */
export function widgetConfirmMail(
  to: string,
  details: {
    tenantName: string;
    planName: string;
    /** '12,08 €' (VAT included). */
    amount: string;
    recurrenceMonths: number;
    /** Issue 30: the plan's free trial (0: none); it starts with the confirmation. */
    trialDays?: number;
    link: string;
    validMinutes: number;
  },
): MailMessage {
  const trial = details.trialDays && details.trialDays > 0 ? details.trialDays : 0;
  const price =
    (trial > 0 ? `prova gratuita di ${trial} ${trial === 1 ? 'giorno' : 'giorni'}, poi ` : '') +
    `${details.amount} ${periodWords(details.recurrenceMonths)}, IVA inclusa`;
  const validity =
    details.validMinutes % 60 === 0
      ? `${details.validMinutes / 60 === 1 ? '1 ora' : `${details.validMinutes / 60} ore`}`
      : `${details.validMinutes} minuti`;
  const intro =
    `è stata chiesta l’iscrizione di questo indirizzo all’abbonamento «${details.planName}» di ` +
    `${details.tenantName} (${price}).`;
  const how = `Per confermare apri questo link (valido ${validity}, utilizzabile una sola volta): poi potrai completare il pagamento.`;
  const notYou = 'Se non sei stato tu, ignora questa email: senza la conferma non viene creato nulla.';
  const latest = 'Se hai ricevuto più email per lo stesso abbonamento, usa il link dell’ultima.';
  return {
    to,
    subject: `${details.tenantName}: conferma l’abbonamento «${details.planName}»`,
    text: `Ciao,\n\n${intro}\n${how}\n\n${details.link}\n\n${notYou}\n${latest}\n`,
    html: layout(
      'Conferma l’abbonamento',
      `<p>Ciao,</p><p>${escapeHtml(intro)}</p>` +
        `<p><a href="${escapeHtml(details.link)}" style="display:inline-block;background:#3b82f6;color:#ffffff;` +
        `padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">Conferma l’abbonamento</a></p>` +
        `<p>Il link è valido ${escapeHtml(validity)} e si può usare una sola volta; dopo la conferma potrai completare il pagamento.</p>` +
        `<p>Se il pulsante non funziona, copia questo indirizzo nel browser:<br>${escapeHtml(details.link)}</p>` +
        `<p style="color:#475569">${escapeHtml(notYou)} ${escapeHtml(latest)}</p>`,
    ),
  };
}
