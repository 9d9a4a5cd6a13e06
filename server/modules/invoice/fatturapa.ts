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
  summaries: { vat: PercentHundredths; natura: Natura | null; taxableCents: Cents; taxCents: Cents }[];
  taxableCents: Cents;
  taxCents: Cents;
  totalCents: Cents;
  /** MP05 bank transfer, MP08 card / PayPal. */
  payment: { method: 'MP05' | 'MP08'; amountCents: Cents; iban: string | null; paidOn: string | null };
  /** The invoice a credit note reverses. */
  related: { number: string; date: string } | null;
  causale: string | null;
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
  gd.ele('ImportoTotaleDocumento').txt(decimal2(doc.totalCents));
  if (doc.causale) gd.ele('Causale').txt(clip(doc.causale, 200));
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
    l.ele('PrezzoTotale').txt(decimal2(line.totalCents));
    l.ele('AliquotaIVA').txt(rate2(line.vat));
    if (line.natura) l.ele('Natura').txt(line.natura);
  });
  for (const s of doc.summaries) {
    const r = goods.ele('DatiRiepilogo');
    r.ele('AliquotaIVA').txt(rate2(s.vat));
    if (s.natura) r.ele('Natura').txt(s.natura);
    r.ele('ImponibileImporto').txt(decimal2(s.taxableCents));
    r.ele('Imposta').txt(decimal2(s.taxCents));
    if (!s.natura) r.ele('EsigibilitaIVA').txt('I');
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
    })),
    summaries: all('DatiRiepilogo').map((s) => ({
      vatRate: text(s, 'AliquotaIVA') ?? '',
      natura: text(s, 'Natura'),
      taxable: text(s, 'ImponibileImporto') ?? '',
      tax: text(s, 'Imposta') ?? '',
    })),
    documentTotal: all('ImportoTotaleDocumento')[0]?.textContent ?? null,
  };
}

/** Both checks a file must pass before it is stored: the XSD, then the SdI's arithmetic. */
export async function fatturaErrors(xml: string): Promise<string[]> {
  const schema = await xsdErrors(xml);
  if (schema.length > 0) return schema;
  return sdiArithmeticErrors(figuresOf(xml));
}
