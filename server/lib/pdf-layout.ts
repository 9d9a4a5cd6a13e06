/**
 * What the server's PDFs share (pdfkit, A4, Italian; the monthly report and 'I miei dati'): text
 * safe for the standard fonts, euro amounts Italian style, Rome dates, section titles and tables
 * that continue on a new page with their header.
 */
import { TZDate } from '@date-fns/tz';
import { BILLING_TIME_ZONE } from '../../contract/billing-dates';
import { fromCents } from '../../contract/money';

const INK = '#1a1f36';
const MUTED = '#697386';
const LINE = '#e3e8ee';
const SOFT = '#f6f9fc';
export const MARGIN = 48;

type Doc = PDFKit.PDFDocument;

// pdfkit's standard fonts are WinAnsi: no narrow no-break spaces or minus signs.
export const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ').replace(/\u2212/g, '-');
const eurFormat = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
/** 1.234,56 € from cents. */
export const eur = (cents: number) => plain(eurFormat.format(fromCents(cents)));

const pad = (n: number) => String(n).padStart(2, '0');
/** dd/mm/yyyy and hh:mm on Rome's clock. */
export function romeDateTime(at: Date): { date: string; time: string } {
  const t = new TZDate(at.getTime(), BILLING_TIME_ZONE);
  return {
    date: `${pad(t.getDate())}/${pad(t.getMonth() + 1)}/${t.getFullYear()}`,
    time: `${pad(t.getHours())}:${pad(t.getMinutes())}`,
  };
}

export function sectionTitle(pdf: Doc, title: string, hint: string, y: number): number {
  if (y + 60 > pdf.page.height - MARGIN - 24) {
    pdf.addPage();
    y = MARGIN;
  }
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(12).text(title, MARGIN, y);
  pdf
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(8.5)
    .text(hint, MARGIN, pdf.y + 1);
  return pdf.y + 8;
}

export function emptyLine(pdf: Doc, text: string, y: number): number {
  pdf.fillColor(MUTED).font('Helvetica-Oblique').fontSize(9).text(text, MARGIN, y);
  return pdf.y;
}

export function drawTable(
  pdf: Doc,
  columns: { header: string; width: number; align?: 'right' }[],
  body: string[][],
  y: number,
  bottom: () => number,
): number {
  const left = MARGIN;
  const width = pdf.page.width - 2 * MARGIN;
  const rowH = 17;
  const header = () => {
    pdf.rect(left, y, width, rowH).fill(SOFT);
    let x = left;
    for (const c of columns) {
      pdf
        .fillColor(MUTED)
        .font('Helvetica-Bold')
        .fontSize(8)
        .text(c.header.toUpperCase(), x + 6, y + 5, {
          width: c.width * width - 12,
          align: c.align ?? 'left',
          lineBreak: false,
        });
      x += c.width * width;
    }
    y += rowH;
  };
  // A header never ends a page alone: it starts on the next one unless a row fits below it.
  if (body.length > 0 && y + 2 * rowH > bottom()) {
    pdf.addPage();
    y = MARGIN;
  }
  header();
  for (const row of body) {
    if (y + rowH > bottom()) {
      pdf.addPage();
      y = MARGIN;
      header();
    }
    let x = left;
    columns.forEach((c, i) => {
      pdf
        .fillColor(INK)
        .font('Helvetica')
        .fontSize(8.5)
        .text(plain(row[i] ?? ''), x + 6, y + 4.5, {
          width: c.width * width - 12,
          align: c.align ?? 'left',
          lineBreak: false,
          ellipsis: true,
          height: rowH - 4,
        });
      x += c.width * width;
    });
    pdf
      .moveTo(left, y + rowH)
      .lineTo(left + width, y + rowH)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    y += rowH;
  }
  return y;
}
