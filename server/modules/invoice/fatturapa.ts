/**
 * FatturaPA 1.2.2 files: the document model an invoice is built from, the XML written by
 * xmlbuilder2 (never by string concatenation), the official XSD check (xmllint-wasm, offline: the
 * XML-DSig schema the FatturaPA schema imports by its w3.org address is preloaded under that very
 * name) and the SdI's arithmetic checks read back from the file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { create } from 'xmlbuilder2';
import { validateXML } from 'xmllint-wasm';
import {
  decimal2,
  sdiArithmeticErrors,
  toLatin1,
  type Natura,
  type SdiDocumentFigures,
} from '../../../contract/invoice/fatturapa';
import type {
  AppliedDiscount,
  FiscalDocument,
  LineKind,
  PensionFundBlock,
  WithholdingType,
} from '../../../contract/invoice/fiscal-document';
import type { Cents, PercentHundredths } from '../../../contract/money';

export const FATTURAPA_NAMESPACE = 'http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2';
const DSIG_NAMESPACE = 'http://www.w3.org/2000/09/xmldsig#';
/** The `schemaLocation` of the FatturaPA schema's `xs:import`: the preloaded file's name. */
export const DSIG_SCHEMA_LOCATION =
  'http://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd';

export interface PostalAddress {
  street: string;
  zip: string;
  city: string;
  /** Province abbreviation (Italy only). */
  province: string | null;
  country: string;
}

export interface InvoiceParty {
  /** IdFiscaleIVA: country and code, or null (a consumer has only a codice fiscale). */
  vat: { country: string; code: string } | null;
  fiscalCode: string | null;
  /** Denominazione, or Nome + Cognome of a person. */
  name: { company: string } | { first: string; last: string };
  address: PostalAddress;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  unitPriceCents: Cents;
  totalCents: Cents;
  vat: PercentHundredths;
  natura: Natura | null;
  /** Period of the service, YYYY-MM-DD. */
  periodStart: string | null;
  periodEnd: string | null;
  /** Ritenuta=SI: the line is part of the withholding's base. */
  withholding?: boolean;
  /** A charge, the bollo charged to the customer or an OSS line of foreign VAT (absent: a charge). */
  kind?: LineKind;
  /** A coupon's discount: ScontoMaggiorazione Tipo SC (absent or null: none). */
  discount?: AppliedDiscount | null;
}

/** One VAT summary (DatiRiepilogo). */
export interface InvoiceSummary {
  vat: PercentHundredths;
  natura: Natura | null;
  taxableCents: Cents;
  taxCents: Cents;
  /** EsigibilitaIVA: 'S' under split payment; default 'I' when VAT is charged. */
  chargeability?: 'I' | 'S' | null;
  /** RiferimentoNormativo of a 0 % summary. */
  legalReference?: string | null;
}

/** Everything an invoice file and its courtesy PDF show (stored as `invoices.document`). */
export interface InvoiceDocument {
  documentType: 'TD01' | 'TD04';
  format: 'FPR12' | 'FPA12';
  /** ProgressivoInvio, also the file name's suffix (at most 5 letters or digits). */
  progressive: string;
  fileName: string;
  number: string;
  date: string;
  transmitter: { country: string; code: string };
  recipientCode: string;
  recipientPec: string | null;
  seller: InvoiceParty & { taxRegime: string; pec: string | null };
  buyer: InvoiceParty & { email: string | null };
  lines: InvoiceLine[];
  summaries: InvoiceSummary[];
  /** DatiRitenuta (documents issued before the fiscal profiles have none). */
  withholding?: { type: WithholdingType; rate: PercentHundredths; amountCents: Cents } | null;
  /** DatiBollo: the 2,00 € virtual bollo. */
  stampDuty?: boolean;
  /** DatiCassaPrevidenziale. */
  pensionFund?: PensionFundBlock[];
  /** DatiOrdineAcquisto of an FPA12: the public body's order and its CIG. */
  order?: { id: string; cig: string | null } | null;
  taxableCents: Cents;
  taxCents: Cents;
  totalCents: Cents;
  /** MP05 bank transfer, MP08 card / PayPal. */
  payment: { method: 'MP05' | 'MP08'; amountCents: Cents; iban: string | null; paidOn: string | null };
  /** The invoice a credit note reverses. */
  related: { number: string; date: string } | null;
  causale: string | null;
}

/**
 * The parts of a document the one computation decides (contract/invoice/fiscal-document.ts): its
 * lines (each charge over `period`), VAT summaries, ritenuta, bollo, cassa and totals.
 */
export function fiscalParts(
  fd: FiscalDocument,
  /** `chargeLines`: how many charge lines (the first ones) carry the period; all when absent. */
  period: { start: string | null; end: string | null; chargeLines?: number },
): Pick<
  InvoiceDocument,
  | 'lines'
  | 'summaries'
  | 'withholding'
  | 'stampDuty'
  | 'pensionFund'
  | 'taxableCents'
  | 'taxCents'
  | 'totalCents'
> {
  let charges = 0;
  const dated = (kind: string) =>
    kind === 'charge' && (period.chargeLines === undefined || charges++ < period.chargeLines);
  return {
    lines: fd.lines.map((l) => ({
      kind: l.kind,
      description: l.description,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      discount: l.discount,
      totalCents: l.totalCents,
      vat: l.vat,
      natura: l.natura,
      ...(dated(l.kind)
        ? { periodStart: period.start, periodEnd: period.end }
        : { periodStart: null, periodEnd: null }),
      withholding: l.withholding,
    })),
    summaries: fd.summaries.map((s) => ({
      vat: s.vat,
      natura: s.natura,
      taxableCents: s.taxableCents,
      taxCents: s.taxCents,
      chargeability: s.chargeability,
      legalReference: s.legalReference,
    })),
    withholding: fd.withholding
      ? { type: fd.withholding.type, rate: fd.withholding.rate, amountCents: fd.withholding.amountCents }
      : null,
    stampDuty: fd.stampDuty,
    pensionFund: fd.pensionFund,
    taxableCents: fd.summaries.reduce((a, s) => a + s.taxableCents, 0),
    taxCents: fd.vatCents,
    totalCents: fd.totalCents,
  };
}

/** 2200 → '22.00' (RateType). */
export const rate2 = (vat: PercentHundredths) => decimal2(vat);

const clip = (text: string, max: number) => toLatin1(text).trim().slice(0, max);

function party(parent: ReturnType<typeof create>, p: InvoiceParty, regime?: string) {
  const data = parent.ele('DatiAnagrafici');
  if (p.vat) {
    const id = data.ele('IdFiscaleIVA');
    id.ele('IdPaese').txt(p.vat.country);
    id.ele('IdCodice').txt(p.vat.code);
  }
  if (p.fiscalCode) data.ele('CodiceFiscale').txt(p.fiscalCode);
  const anagrafica = data.ele('Anagrafica');
  if ('company' in p.name) anagrafica.ele('Denominazione').txt(clip(p.name.company, 80));
  else {
    anagrafica.ele('Nome').txt(clip(p.name.first, 60));
    anagrafica.ele('Cognome').txt(clip(p.name.last, 60));
  }
  if (regime) data.ele('RegimeFiscale').txt(regime);
  const sede = parent.ele('Sede');
  sede.ele('Indirizzo').txt(clip(p.address.street, 60));
  sede.ele('CAP').txt(p.address.zip);
  sede.ele('Comune').txt(clip(p.address.city, 60));
  if (p.address.province) sede.ele('Provincia').txt(p.address.province);
  sede.ele('Nazione').txt(p.address.country);
}

/** The FatturaPA file of a document (UTF-8, pretty-printed). */
export function buildFatturaXml(doc: InvoiceDocument): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(
    FATTURAPA_NAMESPACE,
    'p:FatturaElettronica',
    {
      versione: doc.format,
      'xmlns:ds': DSIG_NAMESPACE,
    },
  );
  const header = root.ele('FatturaElettronicaHeader');
  const dt = header.ele('DatiTrasmissione');
  const idt = dt.ele('IdTrasmittente');
  idt.ele('IdPaese').txt(doc.transmitter.country);
  idt.ele('IdCodice').txt(doc.transmitter.code);
  dt.ele('ProgressivoInvio').txt(doc.progressive);
  dt.ele('FormatoTrasmissione').txt(doc.format);
  dt.ele('CodiceDestinatario').txt(doc.recipientCode);
  if (doc.recipientPec) dt.ele('PECDestinatario').txt(doc.recipientPec);

  party(header.ele('CedentePrestatore'), doc.seller, doc.seller.taxRegime);
  party(header.ele('CessionarioCommittente'), doc.buyer);

  const body = root.ele('FatturaElettronicaBody');
  const general = body.ele('DatiGenerali');
  const gd = general.ele('DatiGeneraliDocumento');
  gd.ele('TipoDocumento').txt(doc.documentType);
  gd.ele('Divisa').txt('EUR');
  gd.ele('Data').txt(doc.date);
  gd.ele('Numero').txt(doc.number);
  if (doc.withholding) {
    // Ritenuta d'acconto on self-employment income (art. 25 DPR 600/73): CausalePagamento A.
    const r = gd.ele('DatiRitenuta');
    r.ele('TipoRitenuta').txt(doc.withholding.type);
    r.ele('ImportoRitenuta').txt(decimal2(doc.withholding.amountCents));
    r.ele('AliquotaRitenuta').txt(rate2(doc.withholding.rate));
    r.ele('CausalePagamento').txt('A');
  }
  if (doc.stampDuty) {
    const b = gd.ele('DatiBollo');
    b.ele('BolloVirtuale').txt('SI');
    b.ele('ImportoBollo').txt('2.00');
  }
  for (const c of doc.pensionFund ?? []) {
    const cassa = gd.ele('DatiCassaPrevidenziale');
    cassa.ele('TipoCassa').txt(c.type);
    cassa.ele('AlCassa').txt(rate2(c.rate));
    cassa.ele('ImportoContributoCassa').txt(decimal2(c.amountCents));
    cassa.ele('ImponibileCassa').txt(decimal2(c.baseCents));
    cassa.ele('AliquotaIVA').txt(rate2(c.vat));
    if (c.withholding) cassa.ele('Ritenuta').txt('SI');
    if (c.natura) cassa.ele('Natura').txt(c.natura);
  }
  gd.ele('ImportoTotaleDocumento').txt(decimal2(doc.totalCents));
  // One Causale per line (the XSD: 200 characters each, as many as needed).
  for (const line of (doc.causale ?? '').split('\n'))
    if (line.trim() !== '') gd.ele('Causale').txt(clip(line, 200));
  if (doc.order) {
    const o = general.ele('DatiOrdineAcquisto');
    o.ele('IdDocumento').txt(clip(doc.order.id, 20));
    if (doc.order.cig) o.ele('CodiceCIG').txt(clip(doc.order.cig, 15));
  }
  if (doc.related) {
    const rel = general.ele('DatiFattureCollegate');
    rel.ele('IdDocumento').txt(doc.related.number);
    rel.ele('Data').txt(doc.related.date);
  }

  const goods = body.ele('DatiBeniServizi');
  doc.lines.forEach((line, i) => {
    const l = goods.ele('DettaglioLinee');
    l.ele('NumeroLinea').txt(String(i + 1));
    l.ele('Descrizione').txt(clip(line.description, 1000));
    l.ele('Quantita').txt(`${line.quantity}.00`);
    if (line.periodStart) l.ele('DataInizioPeriodo').txt(line.periodStart);
    if (line.periodEnd) l.ele('DataFinePeriodo').txt(line.periodEnd);
    l.ele('PrezzoUnitario').txt(decimal2(line.unitPriceCents));
    // A coupon (issue 30): after PrezzoUnitario, before PrezzoTotale (DettaglioLineeType's order),
    // Tipo SC with its Percentuale or its Importo off the unit price; PrezzoTotale is the
    // discounted total, so the SdI's check 00423 and the VAT summary hold.
    if (line.discount) {
      const sc = l.ele('ScontoMaggiorazione');
      sc.ele('Tipo').txt('SC');
      if (line.discount.percent !== null) sc.ele('Percentuale').txt(rate2(line.discount.percent));
      else sc.ele('Importo').txt(decimal2(line.discount.unitAmountCents ?? 0));
    }
    l.ele('PrezzoTotale').txt(decimal2(line.totalCents));
    l.ele('AliquotaIVA').txt(rate2(line.vat));
    if (line.withholding) l.ele('Ritenuta').txt('SI');
    if (line.natura) l.ele('Natura').txt(line.natura);
  });
  for (const s of doc.summaries) {
    const r = goods.ele('DatiRiepilogo');
    r.ele('AliquotaIVA').txt(rate2(s.vat));
    if (s.natura) r.ele('Natura').txt(s.natura);
    r.ele('ImponibileImporto').txt(decimal2(s.taxableCents));
    r.ele('Imposta').txt(decimal2(s.taxCents));
    if (!s.natura) r.ele('EsigibilitaIVA').txt(s.chargeability ?? 'I');
    if (s.natura && s.legalReference) r.ele('RiferimentoNormativo').txt(clip(s.legalReference, 100));
  }

  const pay = body.ele('DatiPagamento');
  pay.ele('CondizioniPagamento').txt('TP02');
  const detail = pay.ele('DettaglioPagamento');
  detail.ele('ModalitaPagamento').txt(doc.payment.method);
  if (doc.payment.paidOn) detail.ele('DataScadenzaPagamento').txt(doc.payment.paidOn);
  detail.ele('ImportoPagamento').txt(decimal2(doc.payment.amountCents));
  if (doc.payment.iban) detail.ele('IBAN').txt(doc.payment.iban);
  return root.end({ prettyPrint: true });
}

const xsdDir = fileURLToPath(new URL('./xsd/', import.meta.url));
let schemas: { fatturapa: string; dsig: string } | undefined;
function loadSchemas() {
  schemas ??= {
    fatturapa: readFileSync(`${xsdDir}Schema_del_file_xml_FatturaPA_v1.2.2.xsd`, 'utf8'),
    dsig: readFileSync(`${xsdDir}xmldsig-core-schema.xsd`, 'utf8'),
  };
  return schemas;
}

/** The official XSD's verdict: [] when valid, else the validator's messages. Offline. */
export async function xsdErrors(xml: string, fileName = 'fattura.xml'): Promise<string[]> {
  const { fatturapa, dsig } = loadSchemas();
  const result = await validateXML({
    xml: [{ fileName, contents: xml }],
    schema: [{ fileName: 'Schema_del_file_xml_FatturaPA_v1.2.2.xsd', contents: fatturapa }],
    preload: [{ fileName: DSIG_SCHEMA_LOCATION, contents: dsig }],
  });
  return result.valid ? [] : result.errors.map((e) => e.message.trim());
}

/** Lines, summaries and total as written in the file, for the SdI's arithmetic checks. */
export function figuresOf(xml: string): SdiDocumentFigures {
  // The DOM xmlbuilder2 parses into (no DOM typings on the server: the two calls used).
  interface El {
    getElementsByTagName(tag: string): ArrayLike<El>;
    textContent: string | null;
  }
  const dom = create(xml).node as unknown as El;
  const text = (el: El, tag: string) => el.getElementsByTagName(tag)[0]?.textContent ?? null;
  const all = (tag: string) => Array.from(dom.getElementsByTagName(tag));
  return {
    lines: all('DettaglioLinee').map((l) => ({
      quantity: text(l, 'Quantita') ?? '1',
      unitPrice: text(l, 'PrezzoUnitario') ?? '',
      total: text(l, 'PrezzoTotale') ?? '',
      vatRate: text(l, 'AliquotaIVA') ?? '',
      natura: text(l, 'Natura'),
      discounts: Array.from(l.getElementsByTagName('ScontoMaggiorazione')).map((d) => ({
        type: text(d, 'Tipo') ?? '',
        percent: text(d, 'Percentuale'),
        amount: text(d, 'Importo'),
      })),
    })),
    summaries: all('DatiRiepilogo').map((s) => ({
      vatRate: text(s, 'AliquotaIVA') ?? '',
      natura: text(s, 'Natura'),
      taxable: text(s, 'ImponibileImporto') ?? '',
      tax: text(s, 'Imposta') ?? '',
    })),
    pensionFund: all('DatiCassaPrevidenziale').map((c) => ({
      vatRate: text(c, 'AliquotaIVA') ?? '',
      natura: text(c, 'Natura'),
      amount: text(c, 'ImportoContributoCassa') ?? '',
    })),
    documentTotal: all('ImportoTotaleDocumento')[0]?.textContent ?? null,
    payment: {
      amounts: all('ImportoPagamento').map((e) => e.textContent ?? ''),
      withholding: all('ImportoRitenuta').map((e) => e.textContent ?? ''),
      splitTax: all('DatiRiepilogo')
        .filter((s) => text(s, 'EsigibilitaIVA') === 'S')
        .map((s) => text(s, 'Imposta') ?? '0.00'),
      causali: all('Causale').map((e) => e.textContent ?? ''),
    },
  };
}

/** Both checks a file must pass before it is stored: the XSD, then the SdI's arithmetic. */
export async function fatturaErrors(xml: string): Promise<string[]> {
  const schema = await xsdErrors(xml);
  if (schema.length > 0) return schema;
  return sdiArithmeticErrors(figuresOf(xml));
}

/**
 * The same two checks for many files in one run of the validator (its start and the schema's
 * parse cost about a tenth of a second per call; a year of demo invoices is hundreds of files).
 * Answers each file's errors, in order.
 */
export async function fatturaErrorsMany(xmls: readonly string[]): Promise<string[][]> {
  if (xmls.length === 0) return [];
  const { fatturapa, dsig } = loadSchemas();
  const names = xmls.map((_, i) => `fattura-${i}.xml`);
  const result = await validateXML({
    xml: xmls.map((contents, i) => ({ fileName: names[i]!, contents })),
    schema: [{ fileName: 'Schema_del_file_xml_FatturaPA_v1.2.2.xsd', contents: fatturapa }],
    preload: [{ fileName: DSIG_SCHEMA_LOCATION, contents: dsig }],
  });
  const byFile = new Map<string, string[]>();
  for (const e of result.errors) {
    // xmllint's closing line per refused file ('fattura-1.xml fails to validate') repeats the rest.
    if (/^\S+ fails to validate$/.test(e.message.trim())) continue;
    const name = e.loc?.fileName ?? '';
    byFile.set(name, [...(byFile.get(name) ?? []), e.message.trim()]);
  }
  // An error the validator could not place on a file belongs to all of them.
  const unplaced = byFile.get('') ?? [];
  return xmls.map((xml, i) => {
    const schema = [...unplaced, ...(byFile.get(names[i]!) ?? [])];
    return schema.length > 0 ? schema : sdiArithmeticErrors(figuresOf(xml));
  });
}
