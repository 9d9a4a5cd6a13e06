/**
 * 'I miei dati' as a PDF (pdfkit, A4, Italian, the monthly report's style and helpers): the same
 * content as the JSON file, for a person to read. 'Dati personali' and 'Accessi e sicurezza',
 * then one part per tenant (seller) with 'Dati di fatturazione', 'Indirizzi', 'Abbonamenti',
 * 'Pagamenti', 'Fatture', the invoices waiting for data, e-mails and webhooks; amounts in euro
 * Italian style (1.234,56 €), dates dd/mm/yyyy (Europe/Rome); "Pagina X di Y" on every page.
 */
import { toCents } from '../../../contract/money';
import type { MyDataExport, MyDataTenant } from '../../../contract/schemas/my-data';
import { loadPdfKit } from '../../lib/pdfkit';
import { drawTable, emptyLine, eur, plain, romeDateTime, sectionTitle } from '../../lib/pdf-layout';

const INK = '#1a1f36';
const MUTED = '#697386';
const LINE = '#e3e8ee';
const ACCENT = '#635bff';
const MARGIN = 48;

const money = (euros: number) => eur(toCents(euros));
const day = (at: string | null) => (at ? romeDateTime(new Date(at)).date : '-');
const dayTime = (at: string | null) => {
  if (!at) return '-';
  const t = romeDateTime(new Date(at));
  return `${t.date} ${t.time}`;
};
/** A calendar day '2026-03-10' as '10/03/2026'. */
const calendarDay = (d: string) => d.split('-').reverse().join('/');
const yesNo = (b: boolean | null) => (b === null ? '-' : b ? 'Sì' : 'No');
const orDash = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? '-' : v);

const roleLabels: Record<string, string> = {
  SuperAdmin: 'Amministratore della piattaforma',
  Admin: 'Amministratore',
  User: 'Cliente',
};
const methodLabels: Record<string, string> = {
  bankTransfer: 'Bonifico',
  paypal: 'PayPal',
  stripe: 'Carta (Stripe)',
};
const securityLabels: Record<string, string> = {
  enabled: 'Verifica in due passaggi attivata',
  disabled: 'Verifica in due passaggi disattivata',
  reset: 'Verifica in due passaggi azzerata',
};
/** Who acted, by kind only (a staff member is never named: another person's data). */
const actorLabels: Record<string, string> = {
  user: 'Persona',
  paymentToken: 'Link di pagamento',
  provider: 'Fornitore di pagamento',
  system: 'Sistema',
  apiKey: 'Integrazione (API)',
};
const linkStatusLabels = { active: 'Attivo', used: 'Usato', expired: 'Scaduto' } as const;
const deliveryLabels: Record<string, string> = {
  pending: 'In attesa',
  succeeded: 'Consegnato',
  failed: 'Non consegnato',
};

export async function renderMyDataPdf(data: MyDataExport): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const who = data.person.name ?? data.person.email;
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: plain(`I miei dati - ${who}`), Author: 'Rinnova' },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const left = MARGIN;
  const width = pdf.page.width - 2 * MARGIN;
  const bottom = () => pdf.page.height - MARGIN - 24;
  const generated = romeDateTime(new Date(data.generatedAt));
  let y = MARGIN;

  // ---- Heading
  pdf.rect(0, 0, pdf.page.width, 6).fill(ACCENT);
  pdf.fillColor(ACCENT).font('Helvetica-Bold').fontSize(10).text('I MIEI DATI', left, MARGIN);
  pdf
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(22)
    .text(plain(who), left, pdf.y + 4, { width });
  pdf
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(9)
    .text(
      plain(
        `Generato il ${generated.date} alle ${generated.time} (ora di Roma). Contiene i dati che Rinnova conserva su di te ` +
          'presso ciascun fornitore di cui sei cliente (art. 15 e 20 del GDPR). Non contiene password, codici di ' +
          'verifica né link di accesso. Gli stessi dati, in formato leggibile da un programma, sono nel file JSON.',
      ),
      { width },
    );
  y = pdf.y + 14;

  const section = (title: string, hint = '') => {
    y = sectionTitle(pdf, plain(title), plain(hint), y + 10);
  };
  const pairs = (rows: [string, string][]) => {
    for (const [k, v] of rows) {
      const text = plain(v);
      const h = Math.max(
        pdf
          .font('Helvetica')
          .fontSize(9)
          .heightOfString(text, { width: width * 0.62 }),
        11,
      );
      if (y + h + 4 > bottom()) {
        pdf.addPage();
        y = MARGIN;
      }
      pdf
        .fillColor(MUTED)
        .font('Helvetica')
        .fontSize(9)
        .text(plain(k), left, y, { width: width * 0.36 });
      pdf.fillColor(INK).text(text, left + width * 0.38, y, { width: width * 0.62 });
      y += h + 4;
    }
  };
  const table = (
    columns: { header: string; width: number; align?: 'right' }[],
    rows: string[][],
    empty: string,
  ) => {
    if (rows.length === 0) {
      y = emptyLine(pdf, empty, y);
      return;
    }
    y = drawTable(pdf, columns, rows, y, bottom);
  };

  // ---- Dati personali
  const p = data.person;
  section('Dati personali', 'L’account con cui accedi a Rinnova');
  pairs([
    ['Nome', orDash(p.name)],
    ['Email', p.email],
    ['Ruolo', roleLabels[p.role] ?? p.role],
    ['Account attivo', yesNo(p.active)],
    ['Password impostata', yesNo(p.passwordSet)],
    [
      'Verifica in due passaggi',
      p.twoFactor.enabled ? `Attiva dal ${day(p.twoFactor.enabledAt)}` : 'Non attiva',
    ],
    ['Codici di recupero non usati', String(p.twoFactor.recoveryCodesLeft)],
    ['Account creato il', day(p.createdAt)],
    ['Ultima modifica', day(p.updatedAt)],
  ]);

  // ---- Accessi e sicurezza
  const s = data.signIns;
  section(
    'Accessi e sicurezza',
    'Link di accesso e di reimpostazione della password (mai il link stesso), reti da cui hai effettuato l’accesso',
  );
  table(
    [
      { header: 'Tipo', width: 0.34 },
      { header: 'Creato', width: 0.22 },
      { header: 'Scadenza', width: 0.22 },
      { header: 'Usato', width: 0.22 },
    ],
    [
      ...s.signInLinks.map((l) => [
        l.origin === 'mail' ? 'Link di accesso (in una email)' : 'Link di accesso (richiesto)',
        dayTime(l.createdAt),
        dayTime(l.expiresAt),
        dayTime(l.usedAt),
      ]),
      ...s.passwordResets.map((r) => [
        'Reimpostazione password',
        dayTime(r.createdAt),
        dayTime(r.expiresAt),
        dayTime(r.usedAt),
      ]),
      ...s.secondFactorChallenges.map((c) => [
        'Secondo passaggio di accesso',
        dayTime(c.createdAt),
        dayTime(c.expiresAt),
        dayTime(c.usedAt),
      ]),
    ],
    'Nessun link di accesso o di reimpostazione registrato.',
  );
  if (s.securityEvents.length > 0) {
    y += 6;
    table(
      [
        { header: 'Evento di sicurezza', width: 0.5 },
        { header: 'Data', width: 0.25 },
        { header: 'Da chi', width: 0.25 },
      ],
      s.securityEvents.map((e) => [
        securityLabels[e.kind] ?? e.kind,
        dayTime(e.at),
        e.byYou ? 'Da te' : 'Da un amministratore',
      ]),
      '',
    );
  }
  y += 6;
  pairs([
    [
      'Accessi non riusciti di seguito',
      s.failedSignIns
        ? `${s.failedSignIns.failures} (l’ultimo il ${dayTime(s.failedSignIns.lastFailureAt)})`
        : 'Nessuno',
    ],
    [
      'Reti da cui hai effettuato l’accesso',
      s.knownNetworks.length === 0
        ? 'Nessuna'
        : s.knownNetworks.map((n) => `${n.network} (ultimo accesso ${dayTime(n.lastSignInAt)})`).join('\n'),
    ],
  ]);

  if (data.emails.length > 0) {
    section(
      'Email di Rinnova',
      'Email di accesso e di password inviate al tuo indirizzo (oggetto e date, non il testo)',
    );
    emailTable(data.emails);
  }
  if (data.contactMessages.length > 0) {
    section('Messaggi dal modulo di contatto', 'Inviati dalla pagina di Rinnova con il tuo indirizzo email');
    for (const m of data.contactMessages) {
      pairs([
        ['Inviato il', dayTime(m.createdAt)],
        ['Consenso a essere ricontattato', yesNo(m.optIn)],
        ['Messaggio', m.message],
      ]);
      y += 4;
    }
  }

  // ---- One part per tenant
  if (data.tenants.length === 0) {
    section('Fornitori', 'I fornitori di cui sei cliente');
    y = emptyLine(pdf, 'Non risulti cliente di alcun fornitore.', y);
  }
  for (const t of data.tenants) tenantPart(t);

  function emailTable(emails: MyDataExport['emails']) {
    table(
      [
        { header: 'Oggetto', width: 0.46 },
        { header: 'Destinatario', width: 0.26 },
        { header: 'Inviata', width: 0.28 },
      ],
      emails.map((e) => [
        e.subject + (e.attachments.length ? ` (allegati: ${e.attachments.join(', ')})` : ''),
        e.to,
        e.sentAt ? dayTime(e.sentAt) : `In coda dal ${dayTime(e.queuedAt)}`,
      ]),
      'Nessuna email.',
    );
  }

  function tenantPart(t: MyDataTenant) {
    pdf.addPage();
    y = MARGIN;
    pdf.fillColor(ACCENT).font('Helvetica-Bold').fontSize(10).text('FORNITORE', left, y);
    pdf
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(18)
      .text(plain(t.tenant.name), left, pdf.y + 2, { width });
    pdf
      .moveTo(left, pdf.y + 6)
      .lineTo(left + width, pdf.y + 6)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    y = pdf.y + 10;
    if (!t.available) {
      y = emptyLine(
        pdf,
        'I dati di questo fornitore non sono leggibili in questo momento (manutenzione in corso): riprova più tardi.',
        y,
      );
      return;
    }

    const c = t.customer;
    section('Dati di fatturazione', 'Ciò che il fornitore registra di te e riporta sulle fatture');
    if (!c) y = emptyLine(pdf, 'Nessun dato.', y);
    else {
      const a = c.billingAddress;
      pairs([
        ['Nome o ragione sociale', orDash(c.name)],
        ['Email', c.email],
        ['Tipo', c.publicAdministration ? 'Pubblica amministrazione' : c.isCompany ? 'Azienda' : 'Privato'],
        ['Codice fiscale', orDash(c.fiscalCode)],
        ['Partita IVA', orDash(c.vatCode)],
        ['Codice SDI', orDash(c.sdi)],
        ['PEC', orDash(c.pec)],
        ['Telefono', orDash(c.phone)],
        ['Paese', c.countryCode],
        [
          'Indirizzo di fatturazione',
          a
            ? [
                a.street,
                [a.zip, a.municipality, a.provinceAbbreviation ? `(${a.provinceAbbreviation})` : null]
                  .filter(Boolean)
                  .join(' '),
                a.region,
              ]
                .filter(Boolean)
                .join(', ') || '-'
            : c.billingCity
              ? c.billingCity
              : '-',
        ],
        ...(c.publicAdministration
          ? ([
              ['Codice univoco ufficio', orDash(c.paOfficeCode)],
              ['CIG', orDash(c.cig)],
            ] as [string, string][])
          : []),
        ['Cliente attivo presso il fornitore', yesNo(c.active)],
        ['Cliente dal', day(c.createdAt)],
      ]);
    }

    if (t.addresses.length > 0) {
      section('Indirizzi', 'Altri indirizzi registrati a tuo nome');
      table(
        [
          { header: 'Via', width: 0.5 },
          { header: 'CAP', width: 0.12 },
          { header: 'Comune', width: 0.38 },
        ],
        t.addresses.map((a) => [a.street, a.zip, `${a.municipality} (${a.province})`]),
        '',
      );
    }

    section('Abbonamenti', 'Importi IVA inclusa, per periodo');
    table(
      [
        { header: 'Piano', width: 0.26 },
        { header: 'Stato', width: 0.22 },
        { header: 'Inizio', width: 0.15 },
        { header: 'Prossimo rinnovo', width: 0.19 },
        { header: 'Importo', width: 0.18, align: 'right' },
      ],
      t.subscriptions.map((sub) => [
        sub.plan.name,
        sub.statusLabel,
        day(sub.startDate),
        day(sub.nextBillingDate),
        money(sub.amountDue),
      ]),
      'Nessun abbonamento.',
    );

    const pays = t.subscriptions.flatMap((sub) => sub.payments.map((pay) => ({ sub, pay })));
    section('Pagamenti', 'Un pagamento per periodo di ogni abbonamento, con i bonifici ricevuti');
    table(
      [
        { header: 'Piano', width: 0.15 },
        { header: 'Periodo', width: 0.24 },
        { header: 'Metodo', width: 0.11 },
        { header: 'Pagato il', width: 0.13 },
        { header: 'Causale', width: 0.23 },
        { header: 'Importo', width: 0.14, align: 'right' },
      ],
      pays.map(({ sub, pay }) => [
        sub.plan.name,
        `${day(pay.periodStart)} - ${day(pay.periodEnd)}`,
        pay.method ? (methodLabels[pay.method] ?? pay.method) : '-',
        pay.paidAt ? day(pay.paidAt) : 'Non pagato',
        pay.causale,
        money(pay.amountDue),
      ]),
      'Nessun pagamento.',
    );
    const transfers = pays.flatMap(({ pay }) => pay.bankTransfers.map((b) => ({ pay, b })));
    if (transfers.length > 0) {
      y += 6;
      table(
        [
          { header: 'Bonifico per causale', width: 0.35 },
          { header: 'Registrato il', width: 0.22 },
          { header: 'Approvato il', width: 0.22 },
          { header: 'Importo', width: 0.21, align: 'right' },
        ],
        transfers.map(({ pay, b }) => [pay.causale, day(b.createdAt), day(b.approvedAt), money(b.amount)]),
        '',
      );
    }
    const links = pays.flatMap(({ sub, pay }) => pay.paymentLinks.map((l) => ({ sub, l })));
    if (links.length > 0) {
      y += 6;
      table(
        [
          { header: 'Link di pagamento (piano)', width: 0.3 },
          { header: 'Creato', width: 0.2 },
          { header: 'Scadenza', width: 0.2 },
          { header: 'Stato', width: 0.12 },
          { header: 'Importo', width: 0.18, align: 'right' },
        ],
        links.map(({ sub, l }) => [
          sub.plan.name,
          dayTime(l.createdAt),
          dayTime(l.expiresAt),
          linkStatusLabels[l.status],
          money(l.amount),
        ]),
        '',
      );
    }

    // Issue 29: the collection of each payment that had one (reminders, failed charges, late payments).
    const collection = pays.flatMap(({ pay }) => pay.collection.map((c) => ({ pay, c })));
    if (collection.length > 0) {
      y += 6;
      table(
        [
          { header: 'Incasso (causale)', width: 0.26 },
          { header: 'Scadenza', width: 0.13 },
          { header: 'Evento', width: 0.35 },
          { header: 'Da', width: 0.1 },
          { header: 'Quando', width: 0.16 },
        ],
        collection.map(({ pay, c }) => [
          pay.causale,
          calendarDay(pay.dueDate),
          c.note ? `${c.label} (${c.note})` : c.label,
          actorLabels[c.by] ?? c.by,
          dayTime(c.at),
        ]),
        '',
      );
    }

    section('Fatture', 'Fatture e note di credito intestate a te');
    table(
      [
        { header: 'Numero', width: 0.18 },
        { header: 'Tipo', width: 0.18 },
        { header: 'Data', width: 0.14 },
        { header: 'Stato', width: 0.18 },
        { header: 'Imponibile', width: 0.16, align: 'right' },
        { header: 'Totale', width: 0.16, align: 'right' },
      ],
      t.invoices.map((i) => [
        i.number,
        i.documentTypeName,
        calendarDay(i.date),
        i.statusName,
        money(i.taxable),
        money(i.total),
      ]),
      'Nessuna fattura.',
    );
    if (t.invoicesWaiting.length > 0) {
      section('Fatture in attesa', 'Pagamenti la cui fattura attende dati mancanti');
      for (const w of t.invoicesWaiting) pairs([[`Pagamento del ${day(w.at)}`, w.messages.join('\n')]]);
    }

    const history = t.subscriptions.flatMap((sub) => sub.history.map((h) => ({ sub, h })));
    if (history.length > 0) {
      section('Storico degli abbonamenti', 'Ogni cambio di stato, con chi lo ha fatto (per tipo)');
      table(
        [
          { header: 'Piano', width: 0.22 },
          { header: 'Data', width: 0.18 },
          { header: 'Evento', width: 0.2 },
          { header: 'Nuovo stato', width: 0.2 },
          { header: 'Da', width: 0.2 },
        ],
        history.map(({ sub, h }) => [sub.plan.name, dayTime(h.at), h.event, h.to, actorLabels[h.by] ?? h.by]),
        '',
      );
    }

    if (t.emails.length > 0) {
      section('Email inviate', 'Email inviate dal fornitore al tuo indirizzo (oggetto e date, non il testo)');
      emailTable(t.emails);
    }
    if (t.widgetRequests.length > 0) {
      section('Richieste di abbonamento', 'Fatte dalla pagina del piano con il tuo indirizzo email');
      table(
        [
          { header: 'Piano', width: 0.4 },
          { header: 'Richiesta il', width: 0.2 },
          { header: 'Confermata il', width: 0.2 },
          { header: 'Email inviate', width: 0.2, align: 'right' },
        ],
        t.widgetRequests.map((r) => [
          r.plan,
          dayTime(r.createdAt),
          dayTime(r.confirmedAt),
          String(r.emailsSent),
        ]),
        '',
      );
    }
    if (t.webhookDeliveries.length > 0) {
      section(
        'Comunicazioni ai sistemi del fornitore',
        'Eventi sui tuoi abbonamenti inviati ai sistemi del fornitore (webhook)',
      );
      table(
        [
          { header: 'Evento', width: 0.3 },
          { header: 'Data', width: 0.2 },
          { header: 'Destinatario', width: 0.32 },
          { header: 'Esito', width: 0.18 },
        ],
        t.webhookDeliveries.map((d) => [
          d.eventType,
          dayTime(d.createdAt),
          d.recipient,
          deliveryLabels[d.status] ?? d.status,
        ]),
        '',
      );
    }
  }

  // ---- Footer on every page
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    pdf.page.margins.bottom = 0;
    const footY = pdf.page.height - MARGIN + 8;
    pdf
      .moveTo(left, footY - 6)
      .lineTo(left + width, footY - 6)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    pdf
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(8)
      .text(plain(`Rinnova - I miei dati - ${who}`), left, footY, { width: width * 0.7, lineBreak: false })
      .text(`Pagina ${i - range.start + 1} di ${range.count}`, left + width * 0.7, footY, {
        width: width * 0.3,
        align: 'right',
        lineBreak: false,
      });
  }
  pdf.end();
  return done;
}
