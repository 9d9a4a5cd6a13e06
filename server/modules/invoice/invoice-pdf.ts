/**
 * The courtesy PDF of an invoice (pdfkit, A4, Italian layout): seller and buyer, SdI routing,
 * lines with their period, VAT summary, totals and payment. Rendered on request from the stored
 * document model, so it always shows what the FatturaPA file says.
 */
import { naturaCodes } from '../../../contract/invoice/fatturapa';
import { routingLabel } from '../../../contract/schemas/invoice';
import { fromCents } from '../../../contract/money';
import type { InvoiceDocument, InvoiceParty } from './fatturapa';
import { loadPdfKit } from '../../lib/pdfkit';

const eur = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
const money = (cents: number) => eur.format(fromCents(cents)).replace(/\u00a0/g, ' ');
const pct = (vat: number) => `${(vat / 100).toLocaleString('it-IT', { minimumFractionDigits: 2 })} %`;
const itDate = (iso: string | null) => (iso ? iso.split('-').reverse().join('/') : '');
const nameOf = (p: InvoiceParty) => ('company' in p.name ? p.name.company : `${p.name.first} ${p.name.last}`);

const INK = '#1a1f36';
const MUTED = '#697386';
const LINE = '#e3e8ee';
const ACCENT = '#635bff';

function partyLines(p: InvoiceParty): string[] {
  const a = p.address;
  const lines = [
    a.street,
    `${a.zip === '00000' && a.country !== 'IT' ? '' : `${a.zip} `}${a.city}${a.province ? ` (${a.province})` : ''}${a.country !== 'IT' ? ` - ${a.country}` : ''}`,
  ];
  if (p.vat) lines.push(`${p.vat.country === 'IT' ? 'Partita IVA' : 'VAT'} ${p.vat.country}${p.vat.code}`);
  if (p.fiscalCode) lines.push(`Codice fiscale ${p.fiscalCode}`);
  return lines;
}

export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: {
      Title: `${doc.documentType === 'TD04' ? 'Nota di credito' : 'Fattura'} ${doc.number}`,
      Author: nameOf(doc.seller),
    },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const left = 48;
  const right = pdf.page.width - 48;
  const width = right - left;

  // Header: seller on the left, document title on the right.
  pdf
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(nameOf(doc.seller), left, 48, { width: width * 0.6 });
  pdf.font('Helvetica').fontSize(9).fillColor(MUTED);
  for (const l of partyLines(doc.seller)) pdf.text(l, { width: width * 0.6 });
  pdf.text(`Regime fiscale ${doc.seller.taxRegime}`, { width: width * 0.6 });
  if (doc.seller.pec) pdf.text(`PEC ${doc.seller.pec}`, { width: width * 0.6 });
  const headerBottom = pdf.y;

  const title = doc.documentType === 'TD04' ? 'NOTA DI CREDITO' : 'FATTURA';
  pdf
    .font('Helvetica-Bold')
    .fontSize(18)
    .fillColor(ACCENT)
    .text(title, left + width * 0.55, 48, {
      width: width * 0.45,
      align: 'right',
    });
  pdf.font('Helvetica').fontSize(10).fillColor(INK);
  pdf.text(`N. ${doc.number}`, { width: width * 0.45, align: 'right' });
  pdf.text(`del ${itDate(doc.date)}`, { width: width * 0.45, align: 'right' });
  pdf
    .fontSize(8)
    .fillColor(MUTED)
    .text(`${doc.documentType} - ${doc.format}`, { width: width * 0.45, align: 'right' });
  if (doc.related)
    pdf.text(`Storno della fattura ${doc.related.number} del ${itDate(doc.related.date)}`, {
      width: width * 0.45,
      align: 'right',
    });

  // Buyer and routing boxes.
  let y = Math.max(headerBottom, pdf.y) + 20;
  const boxH = 92;
  pdf
    .roundedRect(left, y, width * 0.58, boxH, 6)
    .strokeColor(LINE)
    .stroke();
  pdf.roundedRect(left + width * 0.62, y, width * 0.38, boxH, 6).stroke();
  pdf
    .font('Helvetica-Bold')
    .fontSize(8)
    .fillColor(MUTED)
    .text('CLIENTE', left + 12, y + 10);
  pdf
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(INK)
    .text(nameOf(doc.buyer), left + 12, y + 22, {
      width: width * 0.58 - 24,
    });
  pdf.font('Helvetica').fontSize(9).fillColor(INK);
  for (const l of partyLines(doc.buyer)) pdf.text(l, { width: width * 0.58 - 24 });
  const rx = left + width * 0.62 + 12;
  pdf
    .font('Helvetica-Bold')
    .fontSize(8)
    .fillColor(MUTED)
    .text('RECAPITO SDI', rx, y + 10);
  pdf.font('Helvetica').fontSize(9).fillColor(INK);
  pdf.text(routingLabel(doc.format, doc.recipientCode, doc.recipientPec), rx, y + 22, {
    width: width * 0.38 - 24,
  });
  pdf.fillColor(MUTED).text(`Codice destinatario ${doc.recipientCode}`, { width: width * 0.38 - 24 });
  pdf.text(`File ${doc.fileName}`, { width: width * 0.38 - 24 });

  // Lines.
  y += boxH + 24;
  const cols = [
    { title: 'Descrizione', x: left, w: width * 0.46, align: 'left' as const },
    { title: 'Q.tà', x: left + width * 0.46, w: width * 0.08, align: 'right' as const },
    { title: 'Prezzo unitario', x: left + width * 0.54, w: width * 0.16, align: 'right' as const },
    { title: 'IVA', x: left + width * 0.7, w: width * 0.12, align: 'right' as const },
    { title: 'Importo', x: left + width * 0.82, w: width * 0.18, align: 'right' as const },
  ];
  pdf.rect(left, y, width, 20).fill('#f6f9fc');
  pdf.font('Helvetica-Bold').fontSize(8).fillColor(MUTED);
  for (const c of cols) pdf.text(c.title.toUpperCase(), c.x + 6, y + 6, { width: c.w - 12, align: c.align });
  y += 26;
  pdf.font('Helvetica').fontSize(9).fillColor(INK);
  for (const line of doc.lines) {
    const cells = [
      line.description,
      String(line.quantity),
      money(line.unitPriceCents),
      line.natura ? `0 % ${line.natura}` : pct(line.vat),
      money(line.totalCents),
    ];
    const h = Math.max(...cells.map((t, i) => pdf.heightOfString(t, { width: cols[i]!.w - 12 })));
    cells.forEach((t, i) =>
      pdf.text(t, cols[i]!.x + 6, y, { width: cols[i]!.w - 12, align: cols[i]!.align }),
    );
    y += h + 10;
    // A coupon's discount (ScontoMaggiorazione SC), under its line: what it is and what it takes
    // off; the line's Importo is already the discounted total, as in the file.
    if (line.discount) {
      const what =
        line.discount.percent !== null
          ? pct(line.discount.percent)
          : `${money(line.discount.unitAmountCents ?? 0)} sul prezzo unitario`;
      pdf.fillColor(MUTED).text(`Sconto ${what}`, cols[0]!.x + 6, y - 6, { width: cols[0]!.w - 12 });
      pdf.text(`-${money(line.discount.cents)}`, cols[4]!.x + 6, y - 6, {
        width: cols[4]!.w - 12,
        align: 'right',
      });
      pdf.fillColor(INK);
      y += 14;
    }
    pdf
      .moveTo(left, y - 5)
      .lineTo(right, y - 5)
      .strokeColor(LINE)
      .stroke();
  }

  // VAT summary (left) and totals (right).
  y += 14;
  const sy = y;
  pdf.font('Helvetica-Bold').fontSize(8).fillColor(MUTED).text('RIEPILOGO IVA', left, y);
  y += 14;
  const sc = [left, left + 150, left + 230];
  pdf.text('Aliquota / Natura', sc[0]!, y, { width: 145 });
  pdf.text('Imponibile', sc[1]!, y, { width: 75, align: 'right' });
  pdf.text('Imposta', sc[2]!, y, { width: 60, align: 'right' });
  y += 14;
  pdf.font('Helvetica').fontSize(9).fillColor(INK);
  for (const s of doc.summaries) {
    const label = s.natura ? `${s.natura} - ${naturaCodes[s.natura]}` : pct(s.vat);
    const h = pdf.heightOfString(label, { width: 145 });
    pdf.text(label, sc[0]!, y, { width: 145 });
    pdf.text(money(s.taxableCents), sc[1]!, y, { width: 75, align: 'right' });
    pdf.text(money(s.taxCents), sc[2]!, y, { width: 60, align: 'right' });
    y += h + 6;
  }
  // The norm of each 0 % summary (RiferimentoNormativo): the forfettario's wording, the reverse
  // charge, OSS… as the file says it.
  const references = [...new Set(doc.summaries.map((s) => s.legalReference).filter((r): r is string => !!r))];
  if (references.length > 0) {
    pdf.font('Helvetica').fontSize(7.5).fillColor(MUTED);
    for (const r of references) {
      pdf.text(r, left, y, { width: 290 });
      y += pdf.heightOfString(r, { width: 290 }) + 3;
    }
    pdf.fontSize(9).fillColor(INK);
  }
  const tx = left + width * 0.6;
  const tw = width * 0.4;
  let ty = sy;
  const total = (label: string, value: string, bold = false) => {
    pdf
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 12 : 9)
      .fillColor(INK);
    pdf.text(label, tx, ty, { width: tw * 0.55 });
    pdf.text(value, tx + tw * 0.45, ty, { width: tw * 0.55, align: 'right' });
    ty += bold ? 20 : 15;
  };
  // Lines that are not fees: the bollo charged to the customer, an OSS line of foreign VAT.
  const linesOf = (kind: 'stampDuty' | 'foreignVat') => (doc.lines ?? []).filter((l) => l.kind === kind);
  const chargedBollo = linesOf('stampDuty').reduce((a, l) => a + l.totalCents, 0);
  const foreignVat = linesOf('foreignVat');
  const notFees = chargedBollo + foreignVat.reduce((a, l) => a + l.totalCents, 0);
  total('Imponibile', money(doc.taxableCents - notFees));
  for (const c of doc.pensionFund ?? [])
    total(
      c.type === 'TC22' ? `di cui rivalsa INPS ${pct(c.rate)}` : `di cui cassa ${c.type} ${pct(c.rate)}`,
      money(c.amountCents),
    );
  total('IVA', money(doc.taxCents));
  for (const l of foreignVat) total(l.description, money(l.totalCents));
  if (chargedBollo > 0) total('Imposta di bollo', money(chargedBollo));
  // A bollo the seller bears is paid by them, not added to the total: said, not summed.
  const bolloNote = doc.stampDuty
    ? chargedBollo > 0
      ? 'Imposta di bollo assolta in modo virtuale (art. 6 DM 17/06/2014).'
      : 'Imposta di bollo di 2,00 € assolta in modo virtuale dal fornitore (art. 6 DM 17/06/2014).'
    : null;
  pdf.moveTo(tx, ty).lineTo(right, ty).strokeColor(LINE).stroke();
  ty += 6;
  total('Totale documento', money(doc.totalCents), true);
  // What the customer pays: less the ritenuta they withhold and any VAT a public body pays itself.
  if (doc.withholding)
    total(`Ritenuta d'acconto ${pct(doc.withholding.rate)}`, `- ${money(doc.withholding.amountCents)}`);
  const split = doc.summaries.some((s) => s.chargeability === 'S');
  if (split) total('IVA in split payment (art. 17-ter)', `- ${money(doc.taxCents)}`);
  if (doc.withholding || split) total('Netto a pagare', money(doc.payment.amountCents), true);
  if (bolloNote) {
    pdf.font('Helvetica').fontSize(7.5).fillColor(MUTED).text(bolloNote, tx, ty, { width: tw });
    ty += pdf.heightOfString(bolloNote, { width: tw }) + 4;
    pdf.fontSize(9).fillColor(INK);
  }

  // Payment.
  y = Math.max(y, ty) + 20;
  pdf.font('Helvetica-Bold').fontSize(8).fillColor(MUTED).text('PAGAMENTO', left, y);
  pdf.font('Helvetica').fontSize(9).fillColor(INK);
  const method =
    doc.payment.method === 'MP05' ? 'Bonifico bancario (MP05)' : 'Carta di pagamento / PayPal (MP08)';
  pdf.text(
    `${method}: ${money(doc.payment.amountCents)}${doc.payment.paidOn ? `, pagato il ${itDate(doc.payment.paidOn)}` : ''}`,
    left,
    y + 12,
    { width },
  );
  if (doc.payment.iban) pdf.text(`IBAN ${doc.payment.iban}`, { width });
  if (doc.causale) pdf.fillColor(MUTED).text(doc.causale, { width });

  // Footer.
  pdf
    .font('Helvetica')
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(
      `Copia di cortesia, senza valore fiscale. Il documento fiscalmente valido è il file XML ${doc.fileName} trasmesso al Sistema di Interscambio (SdI).`,
      left,
      pdf.page.height - 72,
      { width, align: 'center' },
    );
  pdf.end();
  return done;
}
