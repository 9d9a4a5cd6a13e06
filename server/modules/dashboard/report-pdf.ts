/**
 * The monthly report as a PDF (pdfkit, A4, Italian): the tenant, the period and the generation
 * time (Europe/Rome); the four KPIs with their definitions; the 12-month revenue and
 * active-subscription charts drawn as vector graphics; subscriptions by plan; the month's new,
 * churned and pending-bank-transfer subscriptions as tables; "Pagina X di Y" on every page.
 */
import { subscriptionStatusLabels } from '../../../contract/subscription-status';
import { slugify } from '../../crud/export';
import type { MonthlyReport, ReportTable } from './report.service';
import { loadPdfKit } from '../../lib/pdfkit';
import { drawTable, emptyLine, eur, plain, romeDateTime, sectionTitle } from '../../lib/pdf-layout';

const INK = '#1a1f36';
const MUTED = '#697386';
const LINE = '#e3e8ee';
const SOFT = '#f6f9fc';
const ACCENT = '#635bff';
const TEAL = '#0ea5e9';
const MARGIN = 48;

const eurShort = new Intl.NumberFormat('it-IT', {
  style: 'currency',
  currency: 'EUR',
  notation: 'compact',
  maximumFractionDigits: 1,
});
const integer = new Intl.NumberFormat('it-IT');
const oneDecimal = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const monthName = new Intl.DateTimeFormat('it-IT', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** 'novembre 2026'. */
export function periodLabel(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return monthName.format(new Date(Date.UTC(y, m - 1, 15)));
}

/** `report-demo-srl-2026-11.pdf`: what, whose, which month. */
export function reportFileName(tenantName: string, month: string): string {
  return `report-${slugify(tenantName)}-${month}.pdf`;
}

type Doc = PDFKit.PDFDocument;

export async function renderReportPdf(report: MonthlyReport): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: `Report ${periodLabel(report.month)} - ${report.tenantName}`, Author: 'Rinnova' },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const left = MARGIN;
  const right = pdf.page.width - MARGIN;
  const width = right - left;
  const bottom = () => pdf.page.height - MARGIN - 24;
  const s = report.summary;
  const current = s.months[s.months.length - 1];
  const period = periodLabel(report.month);
  const generated = romeDateTime(report.generatedAt);

  // ---- Heading
  pdf.rect(0, 0, pdf.page.width, 6).fill(ACCENT);
  pdf.fillColor(ACCENT).font('Helvetica-Bold').fontSize(10).text('REPORT MENSILE', left, MARGIN);
  pdf
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(22)
    .text(report.tenantName, left, pdf.y + 4, { width });
  pdf
    .font('Helvetica')
    .fontSize(11)
    .fillColor(INK)
    .text(`Periodo: ${period}`, { width })
    .fillColor(MUTED)
    .fontSize(9)
    .text(
      `Generato il ${generated.date} alle ${generated.time} (ora di Roma) - importi in euro, IVA esclusa`,
      {
        width,
      },
    );
  let y = pdf.y + 16;

  // ---- KPIs: a 2 × 2 grid of cards, each with its definition.
  const activeAtEnd = current?.active ?? s.activeSubscriptions;
  const kpis = [
    {
      label: 'Entrate ricorrenti mensili (MRR)',
      value: eur(s.mrrCents),
      definition: `Somma, sulle sottoscrizioni attive, del costo IVA esclusa diviso per i mesi di ricorrenza del piano, arrotondata al centesimo sul totale.${report.past ? ' Valore alla data di generazione.' : ''}`,
    },
    {
      label: report.past ? 'Abbonamenti attivi a fine mese' : 'Abbonamenti attivi',
      value: integer.format(activeAtEnd),
      definition: 'Sottoscrizioni in stato Attivo o Attivo senza rinnovo.',
    },
    {
      label: 'Tasso di churn del mese',
      value: s.churnRate === null ? '-' : `${oneDecimal.format(s.churnRate)} %`,
      definition:
        'Sottoscrizioni uscite da uno stato attivo nel mese diviso (attive a fine mese + quelle uscite) x 100.',
    },
    {
      label: 'Nuovi clienti nel mese',
      value: integer.format(s.newCustomersThisMonth),
      definition: 'Clienti la cui prima attivazione (di qualunque loro sottoscrizione) cade nel mese.',
    },
  ];
  const gap = 12;
  const cardW = (width - gap) / 2;
  const cardH = 92;
  kpis.forEach((k, i) => {
    const x = left + (i % 2) * (cardW + gap);
    const top = y + Math.floor(i / 2) * (cardH + gap);
    pdf.roundedRect(x, top, cardW, cardH, 6).fillAndStroke(SOFT, LINE);
    pdf
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(9)
      .text(k.label, x + 12, top + 10, { width: cardW - 24 });
    pdf
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(20)
      .text(k.value, x + 12, top + 24, { width: cardW - 24 });
    pdf
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(7.5)
      .text(k.definition, x + 12, top + 52, {
        width: cardW - 24,
        height: cardH - 56,
        ellipsis: true,
      });
  });
  y += 2 * cardH + gap + 20;
  if (s.momChange !== null) {
    pdf
      .fillColor(MUTED)
      .fontSize(8.5)
      .text(
        `Variazione degli abbonamenti attivi rispetto al mese precedente: ${s.momChange > 0 ? '+' : ''}${twoDecimals.format(s.momChange)} %`,
        left,
        y - 12,
        { width },
      );
    y += 6;
  }

  // ---- Charts
  const chartH = 150;
  y = barChart(pdf, {
    title: 'Fatturato ultimi 12 mesi',
    hint: 'Pagamenti incassati nel mese, IVA esclusa',
    x: left,
    y,
    width,
    height: chartH,
    labels: s.months.map((m) => m.label),
    values: s.months.map((m) => m.revenueCents),
    format: (v) => plain(eurShort.format(v / 100)),
  });
  y = lineChart(pdf, {
    title: 'Abbonamenti attivi (ultimi 12 mesi)',
    hint: 'Attivi a fine mese',
    x: left,
    y: y + 18,
    width,
    height: chartH,
    labels: s.months.map((m) => m.label),
    values: s.months.map((m) => m.active),
  });

  // ---- Page 2: plans and the month's tables
  pdf.addPage();
  y = MARGIN;
  y = sectionTitle(
    pdf,
    'Abbonamenti per piano',
    report.past ? 'Sottoscrizioni attive alla data di generazione' : 'Sottoscrizioni attive ora',
    y,
  );
  const totalPlans = s.plans.reduce((sum, p) => sum + p.value, 0);
  if (s.plans.length === 0) {
    y = emptyLine(pdf, 'Nessuna sottoscrizione attiva.', y);
  } else {
    const maxPlan = Math.max(...s.plans.map((p) => p.value), 1);
    for (const p of s.plans) {
      if (y + 18 > bottom()) {
        pdf.addPage();
        y = MARGIN;
      }
      pdf
        .fillColor(INK)
        .font('Helvetica')
        .fontSize(9)
        .text(p.name, left, y + 3, { width: 150, ellipsis: true, lineBreak: false });
      const barX = left + 160;
      const barW = Math.max(2, ((width - 260) * p.value) / maxPlan);
      pdf.roundedRect(barX, y + 2, barW, 11, 2).fill(ACCENT);
      const share = totalPlans > 0 ? (p.value / totalPlans) * 100 : 0;
      pdf
        .fillColor(MUTED)
        .fontSize(9)
        .text(`${integer.format(p.value)} (${oneDecimal.format(share)} %)`, right - 90, y + 3, {
          width: 90,
          align: 'right',
        });
      y += 18;
    }
  }

  const columns = [
    { header: 'Cliente', width: 0.27 },
    { header: 'Piano', width: 0.16 },
    { header: 'Data', width: 0.13 },
    { header: 'Stato', width: 0.3 },
    { header: 'Importo', width: 0.14, align: 'right' as const },
  ];
  const tableOf = (title: string, hint: string, t: ReportTable, empty: string) => {
    y = sectionTitle(pdf, title, hint, y + 18);
    if (t.rows.length === 0) {
      y = emptyLine(pdf, empty, y);
      return;
    }
    y = drawTable(
      pdf,
      columns,
      t.rows.map((r) => [
        r.customer,
        r.plan,
        romeDateTime(r.at).date,
        subscriptionStatusLabels[r.status],
        eur(r.amountDueCents),
      ]),
      y,
      bottom,
    );
    if (t.more > 0) {
      pdf
        .fillColor(MUTED)
        .fontSize(8)
        .text(`... e altre ${integer.format(t.more)}`, left, y + 4);
      y = pdf.y;
    }
  };
  tableOf(
    'Nuove sottoscrizioni del mese',
    'Passaggi a uno stato attivo nel mese',
    report.newSubscriptions,
    'Nessuna nuova sottoscrizione nel mese.',
  );
  tableOf(
    'Sottoscrizioni perse nel mese (churn)',
    'Uscite da uno stato attivo nel mese: cancellate, sospese o scadute senza rinnovo',
    report.churned,
    'Nessuna sottoscrizione persa nel mese.',
  );
  tableOf(
    'Bonifici in attesa',
    'Sottoscrizioni in attesa di bonifico alla data di generazione, con la data di creazione',
    report.pendingBankTransfers,
    'Nessun bonifico in attesa.',
  );

  // ---- Footer on every page
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // Writing inside the bottom margin must not start a new page.
    pdf.page.margins.bottom = 0;
    const footY = pdf.page.height - MARGIN + 8;
    pdf
      .moveTo(left, footY - 6)
      .lineTo(right, footY - 6)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    pdf
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(8)
      .text(`Rinnova - ${report.tenantName} - Report di ${period}`, left, footY, {
        width: width * 0.7,
        lineBreak: false,
      })
      .text(`Pagina ${i - range.start + 1} di ${range.count}`, left + width * 0.7, footY, {
        width: width * 0.3,
        align: 'right',
        lineBreak: false,
      });
  }
  pdf.end();
  return done;
}

interface ChartOptions {
  title: string;
  hint: string;
  x: number;
  y: number;
  width: number;
  height: number;
  labels: string[];
  values: number[];
  format?: (v: number) => string;
}

/** A "nice" axis maximum and step (1, 2, 5 × 10^n) with about four gridlines. */
function niceScale(max: number): { top: number; step: number } {
  if (max <= 0) return { top: 4, step: 1 };
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  return { top: Math.ceil(max / step) * step, step };
}

/** Title, then the plot area (gridlines with their values); returns the plot's geometry. */
function chartFrame(pdf: Doc, o: ChartOptions) {
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(11).text(o.title, o.x, o.y);
  pdf
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(8)
    .text(o.hint, o.x, pdf.y + 1);
  const axisW = 54;
  const plot = { x: o.x + axisW, y: pdf.y + 8, w: o.width - axisW, h: o.height - 40 };
  const { top, step } = niceScale(Math.max(...o.values, 0));
  const format = o.format ?? ((v: number) => integer.format(v));
  for (let v = 0; v <= top + 1e-9; v += step) {
    const gy = plot.y + plot.h - (v / top) * plot.h;
    pdf
      .moveTo(plot.x, gy)
      .lineTo(plot.x + plot.w, gy)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    pdf
      .fillColor(MUTED)
      .fontSize(7)
      .text(format(v), o.x, gy - 3.5, { width: axisW - 6, align: 'right', lineBreak: false });
  }
  const slot = plot.w / Math.max(o.labels.length, 1);
  o.labels.forEach((label, i) => {
    pdf
      .fillColor(MUTED)
      .fontSize(7)
      .text(label, plot.x + i * slot, plot.y + plot.h + 5, {
        width: slot,
        align: 'center',
        lineBreak: false,
      });
  });
  return { plot, top, slot };
}

function barChart(pdf: Doc, o: ChartOptions): number {
  const { plot, top, slot } = chartFrame(pdf, o);
  const barW = Math.min(26, slot * 0.6);
  o.values.forEach((v, i) => {
    const h = (v / top) * plot.h;
    const bx = plot.x + i * slot + (slot - barW) / 2;
    if (h > 0)
      pdf
        .roundedRect(bx, plot.y + plot.h - h, barW, h, Math.min(3, h / 2))
        .fill(i === o.values.length - 1 ? ACCENT : '#a5a1ff');
  });
  return plot.y + plot.h + 18;
}

function lineChart(pdf: Doc, o: ChartOptions): number {
  const { plot, top, slot } = chartFrame(pdf, o);
  const points = o.values.map((v, i) => ({
    x: plot.x + i * slot + slot / 2,
    y: plot.y + plot.h - (v / top) * plot.h,
  }));
  const first = points[0];
  if (first) {
    pdf.moveTo(first.x, first.y);
    for (const p of points.slice(1)) pdf.lineTo(p.x, p.y);
    pdf.lineWidth(2).strokeColor(TEAL).stroke();
    for (const p of points) pdf.circle(p.x, p.y, 2.5).fill(TEAL);
    const last = points[points.length - 1] as { x: number; y: number };
    pdf
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(8)
      .text(integer.format(o.values[o.values.length - 1] ?? 0), last.x - 30, last.y - 14, {
        width: 60,
        align: 'center',
        lineBreak: false,
      })
      .font('Helvetica');
  }
  pdf.lineWidth(1);
  return plot.y + plot.h + 18;
}
