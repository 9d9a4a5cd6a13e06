/**
 * FatturaPA rules the schema cannot hold, shared by the server (builder, checks) and the SPA
 * (plan form, invoice list): Natura codes of 0 % VAT, totals and VAT summary in integer cents with
 * one half-up rounding per summary (as the SdI checks them), decimals with two digits, and the
 * Latin-1 text the schema's `…LatinType`s accept.
 */
import { divideHalfUp, sumCents, vatOf, type Cents, type PercentHundredths } from '../money';
import { discountedLine, type LineDiscount } from './fiscal-document';

/** Natura of an operation without VAT (FatturaPA 1.2.2, NaturaType), with its Italian meaning. */
export const naturaCodes = {
  N1: 'Escluse ex art. 15 del DPR 633/72',
  'N2.1': 'Non soggette ad IVA ai sensi degli artt. da 7 a 7-septies del DPR 633/72',
  'N2.2': 'Non soggette - altri casi',
  'N3.1': 'Non imponibili - esportazioni',
  'N3.2': 'Non imponibili - cessioni intracomunitarie',
  'N3.3': 'Non imponibili - cessioni verso San Marino',
  'N3.4': 'Non imponibili - operazioni assimilate alle cessioni all’esportazione',
  'N3.5': 'Non imponibili - a seguito di dichiarazioni d’intento',
  'N3.6': 'Non imponibili - altre operazioni che non concorrono alla formazione del plafond',
  N4: 'Esenti',
  N5: 'Regime del margine / IVA non esposta in fattura',
  'N6.1': 'Inversione contabile - cessione di rottami e altri materiali di recupero',
  'N6.2': 'Inversione contabile - cessione di oro e argento ai sensi della legge 7/2000',
  'N6.3': 'Inversione contabile - subappalto nel settore edile',
  'N6.4': 'Inversione contabile - cessione di fabbricati',
  'N6.5': 'Inversione contabile - cessione di telefoni cellulari',
  'N6.6': 'Inversione contabile - cessione di prodotti elettronici',
  'N6.7': 'Inversione contabile - prestazioni comparto edile e settori connessi',
  'N6.8': 'Inversione contabile - operazioni settore energetico',
  'N6.9': 'Inversione contabile - altri casi',
  N7: 'IVA assolta in altro stato UE',
} as const;
export type Natura = keyof typeof naturaCodes;
export const naturaIds = Object.keys(naturaCodes) as Natura[];
export function isNatura(value: unknown): value is Natura {
  return typeof value === 'string' && Object.hasOwn(naturaCodes, value);
}

/** One invoice line: unit price before VAT (cents), integer quantity, VAT rate, Natura when 0 %. */
export interface InvoiceLineInput {
  unitPriceCents: Cents;
  quantity: number;
  vat: PercentHundredths;
  natura: Natura | null;
  /** A coupon's discount (ScontoMaggiorazione SC), computed as computeDocument does. */
  discount?: LineDiscount | null;
}

export interface VatSummary {
  vat: PercentHundredths;
  natura: Natura | null;
  /** ImponibileImporto: the sum of the lines' totals at this rate/natura. */
  taxableCents: Cents;
  /** Imposta: taxable × rate, rounded half-up once per summary. */
  taxCents: Cents;
}

export interface InvoiceTotals {
  lines: { totalCents: Cents }[];
  summaries: VatSummary[];
  taxableCents: Cents;
  taxCents: Cents;
  /** ImportoTotaleDocumento. */
  totalCents: Cents;
}

/** Line totals, one VAT summary per (rate, natura) in first-seen order, and the document total. */
export function computeTotals(lines: readonly InvoiceLineInput[]): InvoiceTotals {
  const lineTotals = lines.map((l) => {
    if (!Number.isSafeInteger(l.quantity) || l.quantity <= 0) throw new RangeError('quantity');
    return {
      totalCents: discountedLine({
        description: '',
        quantity: l.quantity,
        unitPriceCents: l.unitPriceCents,
        discount: l.discount ?? null,
      }).totalCents,
    };
  });
  const groups = new Map<string, VatSummary>();
  lines.forEach((l, i) => {
    const key = `${l.vat}|${l.natura ?? ''}`;
    const g = groups.get(key) ?? { vat: l.vat, natura: l.natura, taxableCents: 0, taxCents: 0 };
    g.taxableCents += lineTotals[i]!.totalCents;
    groups.set(key, g);
  });
  const summaries = [...groups.values()].map((g) => ({ ...g, taxCents: vatOf(g.taxableCents, g.vat) }));
  const taxableCents = sumCents(summaries.map((s) => s.taxableCents));
  const taxCents = sumCents(summaries.map((s) => s.taxCents));
  return { lines: lineTotals, summaries, taxableCents, taxCents, totalCents: taxableCents + taxCents };
}

/** 1208 → '12.08', -5 → '-0.05': FatturaPA amounts (Amount2DecimalType) from integer cents. */
export function decimal2(cents: Cents): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not integer cents: ${cents}`);
  const abs = Math.abs(cents);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return cents < 0 ? `-${text}` : text;
}

/** '12.08' → 1208 (exactly two decimals, as decimal2 writes them); NaN for anything else. */
export function parseDecimal2(text: string): number {
  const m = /^(-)?(\d+)\.(\d{2})$/.exec(text.trim());
  if (!m) return Number.NaN;
  const v = Number(m[2]) * 100 + Number(m[3]);
  return m[1] ? -v : v;
}

/** One ScontoMaggiorazione of a line as written: Tipo SC (sconto) or MG (maggiorazione). */
export interface SdiDiscountFigures {
  type: string;
  percent: string | null;
  amount: string | null;
}

/** A parsed line and summary as the SdI reads them from the file (decimal strings). */
export interface SdiDocumentFigures {
  lines: {
    quantity: string;
    unitPrice: string;
    total: string;
    vatRate: string;
    natura: string | null;
    /** ScontoMaggiorazione, in the file's order (absent: none). */
    discounts?: SdiDiscountFigures[];
  }[];
  summaries: { vatRate: string; natura: string | null; taxable: string; tax: string }[];
  /** DatiCassaPrevidenziale: each contribution joins the summary of its rate and Natura. */
  pensionFund?: { vatRate: string; natura: string | null; amount: string }[];
  documentTotal: string | null;
  /**
   * What is asked (issue 30): DettaglioPagamento/ImportoPagamento, DatiRitenuta/ImportoRitenuta, the
   * summaries' tax under split payment (EsigibilitaIVA 'S') and the Causale lines. Absent: not checked.
   */
  payment?: { amounts: string[]; withholding: string[]; splitTax: string[]; causali: string[] };
}

/**
 * A documented set-off in a Causale (docs/fiscal-rules.md 'Credito residuo'): the credit note's
 * credit compensated (art. 1241 c.c.) is not asked. `EUR` is how toLatin1 writes '€'. A proration's
 * own credit note set off beside a residual credit reads 'Compensato credito di …' (no 'residuo').
 */
const SET_OFF = /^Compensato credito (?:residuo )?di (?:EUR|€) (\d+),(\d{2})\b/;

/** An exact decimal as a fraction of integers: '12.50' → 1250 / 100; null when not a decimal. */
interface Fraction {
  n: bigint;
  d: bigint;
}
function parseDecimal(text: string): Fraction | null {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const fraction = m[3] ?? '';
  const n = BigInt(`${m[2]}${fraction}`) * (m[1] ? BigInt(-1) : BigInt(1));
  return { n, d: BigInt(10) ** BigInt(fraction.length) };
}

/**
 * The unit price after its ScontoMaggiorazione blocks, applied in the file's order ('a cascata',
 * FatturaPA specifications 2.2.1.10), exactly: SC takes off, MG adds; a Percentuale is of the price
 * reached so far, an Importo an amount of it (the Importo is read when both are written). In euros.
 */
function discountedPrice(price: Fraction, discounts: readonly SdiDiscountFigures[]): Fraction | null {
  let { n, d } = price;
  for (const s of discounts) {
    const sign = s.type === 'MG' ? BigInt(1) : BigInt(-1);
    const amount = s.amount !== null ? parseDecimal(s.amount) : null;
    const percent = s.percent !== null ? parseDecimal(s.percent) : null;
    if (amount) {
      n = n * amount.d + sign * amount.n * d;
      d = d * amount.d;
    } else if (percent) {
      // price × (1 ± p/100) = price × (100·pd ± pn) / (100·pd)
      const hundred = BigInt(100) * percent.d;
      n = n * (hundred + sign * percent.n);
      d = d * hundred;
    } else return null;
  }
  return { n, d };
}

/** |unit × quantity − total| ≤ 0,01 € (the SdI's tolerance of one cent, check 00423). */
function withinOneCent(unit: Fraction, qty: Fraction, totalCents: number): boolean {
  // unit·qty in euros = (un·qn)/(ud·qd); in cents ×100.
  const den = unit.d * qty.d;
  const diff = BigInt(100) * unit.n * qty.n - BigInt(totalCents) * den;
  return (diff < BigInt(0) ? -diff : diff) <= den;
}

/**
 * The SdI's arithmetic checks (errors 00421–00425, 00400–00401, 00443–00445, 00429, 00437 of its
 * specifications), on the decimals written in the file: each line total is price (less its
 * ScontoMaggiorazione, check 00423, one cent of tolerance; a block with neither Percentuale nor
 * Importo is 00437) × quantity; 0 %
 * needs a Natura and a Natura needs 0 %; each summary's taxable is the sum of its lines and of its
 * cassa contributions, and its tax
 * is taxable × rate within one cent; the document total is taxable + tax. Answers Italian messages.
 */
export function sdiArithmeticErrors(doc: SdiDocumentFigures): string[] {
  const errors: string[] = [];
  const rate = (text: string) => Math.round(Number(text) * 100);
  const sums = new Map<string, number>();
  const labels = new Map<string, string>();
  doc.lines.forEach((l, i) => {
    const qty = parseDecimal(l.quantity);
    const price = parseDecimal(l.unitPrice);
    const total = parseDecimal2(l.total);
    const discounts = l.discounts ?? [];
    const blank = discounts.findIndex((d) => d.percent === null && d.amount === null);
    if (blank >= 0)
      errors.push(`Linea ${i + 1}: ScontoMaggiorazione ${blank + 1} senza Percentuale né Importo.`);
    if (price === null || Number.isNaN(total) || qty === null)
      errors.push(`Linea ${i + 1}: importi non nel formato con due decimali.`);
    else if (blank < 0) {
      const net = discountedPrice(price, discounts);
      if (net === null) errors.push(`Linea ${i + 1}: ScontoMaggiorazione non nel formato previsto.`);
      else if (!withinOneCent(net, qty, total))
        errors.push(
          discounts.length > 0
            ? `Linea ${i + 1}: PrezzoTotale diverso da PrezzoUnitario, al netto di ScontoMaggiorazione, × Quantita.`
            : `Linea ${i + 1}: PrezzoTotale diverso da PrezzoUnitario × Quantita.`,
        );
    }
    if (rate(l.vatRate) === 0 && !l.natura) errors.push(`Linea ${i + 1}: aliquota 0 senza Natura.`);
    if (rate(l.vatRate) !== 0 && l.natura) errors.push(`Linea ${i + 1}: Natura con aliquota diversa da 0.`);
    const key = `${rate(l.vatRate)}|${l.natura ?? ''}`;
    sums.set(key, (sums.get(key) ?? 0) + total);
    labels.set(key, l.natura ? `${l.vatRate} ${l.natura}` : l.vatRate);
  });
  // The SdI adds ImportoContributoCassa to its rate's ImponibileImporto (check 00422).
  (doc.pensionFund ?? []).forEach((c, i) => {
    const amount = parseDecimal2(c.amount);
    if (Number.isNaN(amount)) {
      errors.push(`Cassa ${i + 1}: importo non nel formato con due decimali.`);
      return;
    }
    if (rate(c.vatRate) === 0 && !c.natura) errors.push(`Cassa ${i + 1}: aliquota 0 senza Natura.`);
    const key = `${rate(c.vatRate)}|${c.natura ?? ''}`;
    sums.set(key, (sums.get(key) ?? 0) + amount);
    labels.set(key, c.natura ? `${c.vatRate} ${c.natura}` : c.vatRate);
  });
  let grand = 0;
  const seen = new Set<string>();
  for (const s of doc.summaries) {
    const key = `${rate(s.vatRate)}|${s.natura ?? ''}`;
    seen.add(key);
    const taxable = parseDecimal2(s.taxable);
    const tax = parseDecimal2(s.tax);
    if (Number.isNaN(taxable) || Number.isNaN(tax)) {
      errors.push(`Riepilogo ${s.vatRate}: importi non nel formato con due decimali.`);
      continue;
    }
    if (taxable !== (sums.get(key) ?? 0))
      errors.push(`Riepilogo ${s.vatRate}: ImponibileImporto diverso dalla somma delle linee.`);
    // |Imposta − Imponibile × Aliquota / 100| ≤ 0,01 €, computed in hundredths of a cent.
    if (Math.abs(tax * 10_000 - taxable * rate(s.vatRate)) > 10_000)
      errors.push(`Riepilogo ${s.vatRate}: Imposta diversa da ImponibileImporto × AliquotaIVA.`);
    grand += taxable + tax;
  }
  for (const key of sums.keys())
    if (!seen.has(key)) errors.push(`Manca il riepilogo IVA dell’aliquota ${labels.get(key) ?? key}.`);
  if (doc.documentTotal !== null && parseDecimal2(doc.documentTotal) !== grand)
    errors.push('ImportoTotaleDocumento diverso da imponibile più imposta.');
  if (doc.payment && doc.documentTotal !== null)
    errors.push(...paymentErrors(doc.documentTotal, doc.payment));
  return errors;
}

/**
 * ImportoPagamento: never negative nor above the document's total. With a set-off documented in
 * Causale, exactly what the document asks (total − ritenuta − VAT under split payment) less the
 * credits compensated: the set-off must add up, to the cent.
 */
function paymentErrors(total: string, p: NonNullable<SdiDocumentFigures['payment']>): string[] {
  const errors: string[] = [];
  const documentTotal = parseDecimal2(total);
  const sum = (values: string[]) => values.reduce((a, v) => a + parseDecimal2(v), 0);
  for (const amount of p.amounts) {
    const value = parseDecimal2(amount);
    if (Number.isNaN(value) || value < 0 || value > documentTotal)
      errors.push('ImportoPagamento negativo o maggiore di ImportoTotaleDocumento.');
  }
  const setOff = p.causali.reduce((a, c) => {
    const m = SET_OFF.exec(c);
    return m ? a + Number(m[1]) * 100 + Number(m[2]) : a;
  }, 0);
  if (setOff > 0 && p.amounts.length > 0) {
    const asked = documentTotal - sum(p.withholding) - sum(p.splitTax);
    if (sum(p.amounts) + setOff !== asked)
      errors.push('ImportoPagamento più il credito compensato in Causale diverso da quanto dovuto.');
  }
  return errors;
}

/** Re-exported for property tests: the only rounding of money. */
export { divideHalfUp };

/**
 * Text for the schema's Latin types (Basic Latin + Latin-1 Supplement): typographic quotes and
 * dashes become ASCII, € becomes 'EUR', anything else outside Latin-1 becomes '?'; control
 * characters become spaces.
 */
export function toLatin1(text: string): string {
  return (
    text
      .replace(/€/g, 'EUR')
      .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
      .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/\u2026/g, '...')
      .replace(/[\u00A0\u2000-\u200B\u202F]/g, ' ')
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u001F\u007F]/g, ' ')
      .replace(/[^\u0020-\u007E\u00A0-\u00FF]/gu, '?')
  );
}
