/**
 * The one computation of an Italian document (api-contract 'Fiscal profiles'): who sells, who
 * buys and what is charged → every figure the quote, the payment amount, the bank-transfer check,
 * the PDF and the FatturaPA XML show. Order: fee lines (less their discounts) → cassa / rivalsa → taxable per rate → VAT
 * → bollo → total → ritenuta (and split payment) → net to pay. Integer cents throughout; the only
 * rounding is `divideHalfUp` (contract/money.ts), once per cassa block, per VAT summary and for
 * the ritenuta.
 *
 * The norm behind each rule is cited where the rule is written, and in docs/fiscal-rules.md.
 */
import { divideHalfUp, sumCents, vatOf, type Cents, type PercentHundredths } from '../money';
import type { TaxRegime } from '../validation/italian';
import { euStandardVatRate } from './eu-vat-rates';
import type { Natura } from './fatturapa';

/** TipoCassa of FatturaPA 1.2.2 (TipoCassaType): TC01–TC21 the professional funds, TC22 INPS. */
export const pensionFundNames = {
  TC01: 'Cassa nazionale previdenza e assistenza avvocati e procuratori legali',
  TC02: 'Cassa previdenza dottori commercialisti',
  TC03: 'Cassa previdenza e assistenza geometri',
  TC04: 'Cassa nazionale previdenza e assistenza ingegneri e architetti liberi professionisti',
  TC05: 'Cassa nazionale del notariato',
  TC06: 'Cassa nazionale previdenza e assistenza ragionieri e periti commerciali',
  TC07: 'Ente nazionale assistenza agenti e rappresentanti di commercio (ENASARCO)',
  TC08: 'Ente nazionale previdenza e assistenza consulenti del lavoro (ENPACL)',
  TC09: 'Ente nazionale previdenza e assistenza medici (ENPAM)',
  TC10: 'Ente nazionale previdenza e assistenza farmacisti (ENPAF)',
  TC11: 'Ente nazionale previdenza e assistenza veterinari (ENPAV)',
  TC12: "Ente nazionale previdenza e assistenza impiegati dell'agricoltura (ENPAIA)",
  TC13: 'Fondo previdenza impiegati imprese di spedizione e agenzie marittime',
  TC14: 'Istituto nazionale previdenza giornalisti italiani (INPGI)',
  TC15: 'Opera nazionale assistenza orfani sanitari italiani (ONAOSI)',
  TC16: 'Cassa autonoma assistenza integrativa giornalisti italiani (CASAGIT)',
  TC17: 'Ente previdenza periti industriali e periti industriali laureati (EPPI)',
  TC18: 'Ente previdenza e assistenza pluricategoriale (EPAP)',
  TC19: 'Ente nazionale previdenza e assistenza biologi (ENPAB)',
  TC20: 'Ente nazionale previdenza e assistenza professione infermieristica (ENPAPI)',
  TC21: 'Ente nazionale previdenza e assistenza psicologi (ENPAP)',
  TC22: 'INPS (rivalsa Gestione Separata)',
} as const;
export type PensionFundType = keyof typeof pensionFundNames;
export const pensionFundTypes = Object.keys(pensionFundNames) as PensionFundType[];
/** The 4 % rivalsa INPS of a professional in the Gestione Separata (art. 1 c. 212 L. 662/1996). */
export const RIVALSA_INPS: PensionFundType = 'TC22';

/** TipoRitenuta of a professional: RT01 natural person, RT02 legal person (FatturaPA 1.2.2). */
export const withholdingTypes = ['RT01', 'RT02'] as const;
export type WithholdingType = (typeof withholdingTypes)[number];

/** Ritenuta d'acconto on self-employment income: 20 % (art. 25 DPR 600/1973). */
export const WITHHOLDING_RATE: PercentHundredths = 2000;
/** Imposta di bollo on invoices outside VAT: 2,00 € (art. 13 Tariffa DPR 642/1972)… */
export const STAMP_DUTY_CENTS: Cents = 200;
/** …when the amounts outside VAT exceed 77,47 € (art. 6 Tabella B DPR 642/1972). */
export const STAMP_DUTY_THRESHOLD_CENTS: Cents = 7747;

/**
 * Natura whose amounts carry the bollo: operations outside VAT for lack of territoriality
 * (N2.1, Ris. AdE 2017 on art. 7-ter), not subject (N2.2: the forfettari), non-taxable by
 * declaration of intent or other (N3.5, N3.6) and exempt (N4). Exports and intra-EU supplies
 * (N3.1–N3.4: art. 15 Tabella B DPR 642/1972), reverse charge (N6.x: the buyer pays the VAT),
 * VAT paid in another EU state (N7) and the bollo line itself (N1) carry none.
 */
const STAMP_DUTY_NATURE: readonly Natura[] = ['N2.1', 'N2.2', 'N3.5', 'N3.6', 'N4'];

/** EU member states by ISO 3166-1 alpha-2 code (Greece is GR here, EL in VAT numbers). */
export const euCountries = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
] as const; // prettier-ignore

export function isEuCountry(code: string): boolean {
  return (euCountries as readonly string[]).includes(code.toUpperCase());
}

/** The legal references a 0 % line carries (RiferimentoNormativo, at most 100 Latin-1 characters). */
export const legalReferences = {
  forfettario: 'Operazione in franchigia IVA ex art. 1 c. 54-89 L. 190/2014 - regime forfettario',
  euBusiness: 'Operazione non soggetta IVA art. 7-ter DPR 633/72 - inversione contabile',
  nonEuBusiness: 'Operazione non soggetta IVA art. 7-ter DPR 633/72',
  nonEuConsumer: 'Operazione non soggetta IVA artt. 7-septies e 7-octies DPR 633/72',
  stampDuty: 'Esclusa art. 15 DPR 633/72 - imposta di bollo art. 13 DPR 642/72',
  oss: 'IVA assolta nello Stato UE del cliente art. 7-octies e art. 74-sexies DPR 633/72 - OSS',
} as const;

/** The seller's side (the tenant's fiscal profile). */
export interface SellerProfile {
  taxRegime: TaxRegime;
  /** Cassa previdenziale or rivalsa INPS, with its rate; null: none. */
  pensionFund: { type: PensionFundType; rate: PercentHundredths } | null;
  /** A professional subject to ritenuta d'acconto: RT01 natural person, RT02 legal person. */
  withholdingTax: WithholdingType | null;
  /** The 2,00 € bollo is charged to the customer as an N1 line. */
  stampDutyToCustomer: boolean;
  /**
   * Electronic services to EU private persons above the EU 10.000 € threshold (or by choice),
   * taxed in the customer's state and declared through the OSS (art. 74-sexies DPR 633/72).
   * Absent: false.
   */
  oss?: boolean;
}

/** The buyer's side (the customer's fiscal data). */
export interface CustomerProfile {
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  isCompany: boolean;
  /** Sostituto d'imposta: withholds the ritenuta and pays it to the State. */
  withholdingAgent: boolean;
  publicAdministration: boolean;
}

/**
 * A discount on one charge (a coupon, issue 30), written on the FatturaPA line as
 * ScontoMaggiorazione Tipo SC: a percentage of the unit price (hundredths: 10 % → 1000), or an
 * amount taken off the unit price (cents; capped at the unit price, so no line goes negative).
 * Either way it applies to the unit price, as the SdI reads ScontoMaggiorazione (FatturaPA 1.2.2
 * specifications, 2.2.1.10: "sconto o maggiorazione applicati al prezzo unitario").
 */
export type LineDiscount = { percentOff: PercentHundredths } | { amountOffCents: Cents };

/** One charge: its description, quantity and unit price before VAT, and its discount if any. */
export interface ChargeInput {
  description: string;
  quantity: number;
  unitPriceCents: Cents;
  discount?: LineDiscount | null;
}

/** How VAT applies to a document's charges, decided from both profiles. */
export interface VatTreatment {
  vat: PercentHundredths;
  natura: Natura | null;
  legalReference: string | null;
  /**
   * OSS: the customer state's VAT, charged and paid there (the document's lines are 0 % N7, the
   * foreign VAT one more N7 line). Absent: none.
   */
  foreignVat?: { country: string; rate: PercentHundredths };
}

/**
 * VAT of a document (issue 27 'Who is who'):
 * - a forfettario seller: 0 % N2.2 (art. 1 c. 54-89 L. 190/2014);
 * - an Italian customer: the plan's rate (and its Natura when 0 %);
 * - an EU business: 0 % N2.1, reverse charge by the buyer (art. 7-ter DPR 633/72, art. 196 Dir.
 *   2006/112/CE);
 * - outside the EU: 0 % N2.1 (art. 7-ter for a business, 7-septies/7-octies for a consumer);
 * - an EU private person: Italian VAT (art. 7 c. 1 DPR 633/72, below the EU 10.000 € threshold);
 *   for a seller in the OSS (electronic services above the threshold, art. 7-octies c. 1-bis), the
 *   customer state's VAT: 0 % N7 on the Italian e-invoice (art. 74-sexies DPR 633/72), the foreign
 *   VAT charged on a line of its own.
 */
export function decideVat(
  seller: Pick<SellerProfile, 'taxRegime' | 'oss'>,
  customer: Pick<CustomerProfile, 'countryCode' | 'isCompany'>,
  plan: { vat: PercentHundredths; natura: Natura | null; legalReference?: string | null },
): VatTreatment {
  if (seller.taxRegime === 'RF19')
    return { vat: 0, natura: 'N2.2', legalReference: legalReferences.forfettario };
  const country = customer.countryCode.toUpperCase();
  const ossRate =
    seller.oss && !customer.isCompany && country !== 'IT' ? euStandardVatRate(country) : undefined;
  if (ossRate !== undefined)
    return {
      vat: 0,
      natura: 'N7',
      legalReference: legalReferences.oss,
      foreignVat: { country, rate: ossRate },
    };
  if (country === 'IT' || (isEuCountry(country) && !customer.isCompany)) {
    return {
      vat: plan.vat,
      natura: plan.vat === 0 ? plan.natura : null,
      legalReference: plan.vat === 0 ? (plan.legalReference ?? null) : null,
    };
  }
  if (isEuCountry(country)) return { vat: 0, natura: 'N2.1', legalReference: legalReferences.euBusiness };
  return {
    vat: 0,
    natura: 'N2.1',
    legalReference: customer.isCompany ? legalReferences.nonEuBusiness : legalReferences.nonEuConsumer,
  };
}

export type LineKind = 'charge' | 'stampDuty' | 'foreignVat';

/** The discount of a line as the file writes it (ScontoMaggiorazione Tipo SC). */
export interface AppliedDiscount {
  /** Percentuale (hundredths), or null for an amount. */
  percent: PercentHundredths | null;
  /** Importo: the amount off the unit price (cents), or null for a percentage. */
  unitAmountCents: Cents | null;
  /** What the discount takes off the line: unit price × quantity − PrezzoTotale. */
  cents: Cents;
}

export interface DocumentLine {
  kind: LineKind;
  description: string;
  quantity: number;
  unitPriceCents: Cents;
  /** The line's discount (a coupon), or null. */
  discount: AppliedDiscount | null;
  /** PrezzoTotale: unit price × quantity, less the discount (rounded half-up once). */
  totalCents: Cents;
  vat: PercentHundredths;
  natura: Natura | null;
  legalReference: string | null;
  /** Ritenuta=SI: the line is part of the withholding's base. */
  withholding: boolean;
}

/** One DatiCassaPrevidenziale block: the contribution on the fees of one VAT rate. */
export interface PensionFundBlock {
  type: PensionFundType;
  rate: PercentHundredths;
  /** ImponibileCassa: the fees it is computed on. */
  baseCents: Cents;
  /** ImportoContributoCassa. */
  amountCents: Cents;
  vat: PercentHundredths;
  natura: Natura | null;
  /** Ritenuta=SI: only the rivalsa INPS (TC22) is part of the withholding's base. */
  withholding: boolean;
}

export interface DocumentVatSummary {
  vat: PercentHundredths;
  natura: Natura | null;
  legalReference: string | null;
  /** ImponibileImporto: the lines' totals plus the cassa contributions at this rate and Natura. */
  taxableCents: Cents;
  /** Imposta: taxable × rate, rounded half-up once. */
  taxCents: Cents;
  /** EsigibilitaIVA: I immediate, S split payment (art. 17-ter DPR 633/72); absent when no VAT. */
  chargeability: 'I' | 'S' | null;
}

export interface FiscalDocument {
  lines: DocumentLine[];
  pensionFund: PensionFundBlock[];
  summaries: DocumentVatSummary[];
  /** Fees and cassa, before VAT (the bollo line excluded), after the discounts. */
  taxableCents: Cents;
  /** What the lines' discounts take off, before VAT (0 without one). */
  discountCents: Cents;
  vatCents: Cents;
  pensionFundCents: Cents;
  /** DatiBollo: the document carries the 2,00 € virtual bollo. */
  stampDuty: boolean;
  /** The bollo charged to the customer (the N1 line), else 0. */
  stampDutyChargedCents: Cents;
  /** OSS: the customer state's VAT charged on its own N7 line, else 0. */
  foreignVatCents: Cents;
  /** ImportoTotaleDocumento. */
  totalCents: Cents;
  withholding: {
    type: WithholdingType;
    rate: PercentHundredths;
    baseCents: Cents;
    amountCents: Cents;
  } | null;
  splitPayment: boolean;
  /** ImportoPagamento: total − ritenuta (− VAT under split payment); what the customer is asked. */
  netToPayCents: Cents;
  /** The document's VAT treatment (its charges'). */
  treatment: VatTreatment;
}

export interface DocumentInput {
  seller: SellerProfile;
  customer: CustomerProfile;
  charges: readonly ChargeInput[];
  /** The plan's (or the agreed) VAT and its Natura when 0 %. */
  plan: { vat: PercentHundredths; natura: Natura | null; legalReference?: string | null };
}

/**
 * A charge's PrezzoTotale after its discount (issue 30). The discount is part of the agreed price:
 * VAT is due on the price less the discounts granted under the contract (art. 13 c. 1 and art. 15
 * c. 1 n. 2 DPR 633/72), so the discounted total is what the VAT summary, the cassa (on the fees
 * charged), the ritenuta (on the fees paid, art. 25 DPR 600/73) and the bollo's threshold read.
 * - percentage: total = unit × quantity × (100 − p) / 100, rounded half-up once (divideHalfUp);
 * - amount: taken off the unit price, capped at it (a 60 € coupon on a 49 € plan makes it 0,00,
 *   never negative): total = (unit − amount) × quantity, exact.
 * The SdI checks PrezzoTotale against PrezzoUnitario less ScontoMaggiorazione × Quantita within one
 * cent (check 00423; sdiArithmeticErrors in fatturapa.ts).
 */
export function discountedLine(c: ChargeInput): { totalCents: Cents; discount: AppliedDiscount | null } {
  const gross = c.unitPriceCents * c.quantity;
  const d = c.discount;
  if (!d) return { totalCents: gross, discount: null };
  if ('percentOff' in d) {
    if (!Number.isSafeInteger(d.percentOff) || d.percentOff <= 0 || d.percentOff > 10_000)
      throw new RangeError('percentOff');
    const totalCents = divideHalfUp(gross * (10_000 - d.percentOff), 10_000);
    return {
      totalCents,
      discount: { percent: d.percentOff, unitAmountCents: null, cents: gross - totalCents },
    };
  }
  if (!Number.isSafeInteger(d.amountOffCents) || d.amountOffCents <= 0)
    throw new RangeError('amountOffCents');
  const unitAmountCents = Math.min(d.amountOffCents, Math.max(c.unitPriceCents, 0));
  const totalCents = (c.unitPriceCents - unitAmountCents) * c.quantity;
  return { totalCents, discount: { percent: null, unitAmountCents, cents: gross - totalCents } };
}

/** Every figure of the document (see the module's comment for the order and the norms). */
export function computeDocument(input: DocumentInput): FiscalDocument {
  const { seller, customer } = input;
  if (input.charges.length === 0) throw new RangeError('un documento ha almeno una riga');
  const treatment = decideVat(seller, customer, input.plan);
  const forfettario = seller.taxRegime === 'RF19';
  // A sostituto d'imposta withholds on a professional's fees; never on a forfettario's
  // (art. 1 c. 67 L. 190/2014), and only an Italian customer can be one.
  const withholds =
    seller.withholdingTax !== null &&
    !forfettario &&
    customer.withholdingAgent &&
    customer.countryCode.toUpperCase() === 'IT';
  const fund = seller.pensionFund;
  const fundWithholds = withholds && fund?.type === RIVALSA_INPS;

  const lines: DocumentLine[] = input.charges.map((c) => {
    if (!Number.isSafeInteger(c.quantity) || c.quantity <= 0) throw new RangeError('quantity');
    if (!Number.isSafeInteger(c.unitPriceCents)) throw new RangeError('unitPriceCents');
    const { totalCents, discount } = discountedLine(c);
    return {
      kind: 'charge',
      description: c.description,
      quantity: c.quantity,
      unitPriceCents: c.unitPriceCents,
      discount,
      totalCents,
      vat: treatment.vat,
      natura: treatment.natura,
      legalReference: treatment.legalReference,
      withholding: withholds,
    };
  });
  const feesCents = sumCents(lines.map((l) => l.totalCents));

  // Cassa / rivalsa on the fees (art. 11 L. 576/1980 and the funds' statutes; rivalsa INPS art. 1
  // c. 212 L. 662/1996), subject to the fees' VAT treatment (art. 13 DPR 633/72).
  const pensionFund: PensionFundBlock[] = fund
    ? [
        {
          type: fund.type,
          rate: fund.rate,
          baseCents: feesCents,
          amountCents: divideHalfUp(feesCents * fund.rate, 10_000),
          vat: treatment.vat,
          natura: treatment.natura,
          withholding: fundWithholds,
        },
      ]
    : [];
  const pensionFundCents = sumCents(pensionFund.map((b) => b.amountCents));

  // Bollo on the amounts outside VAT above 77,47 €; charged to the customer as an N1 line.
  const outsideVat = STAMP_DUTY_NATURE.includes(treatment.natura as Natura)
    ? feesCents + pensionFundCents
    : 0;
  const stampDuty = outsideVat > STAMP_DUTY_THRESHOLD_CENTS;
  const stampDutyChargedCents = stampDuty && seller.stampDutyToCustomer ? STAMP_DUTY_CENTS : 0;
  if (stampDutyChargedCents > 0) {
    lines.push({
      kind: 'stampDuty',
      description: 'Imposta di bollo',
      quantity: 1,
      unitPriceCents: STAMP_DUTY_CENTS,
      discount: null,
      totalCents: STAMP_DUTY_CENTS,
      vat: 0,
      natura: 'N1',
      legalReference: legalReferences.stampDuty,
      withholding: false,
    });
  }

  // OSS: the customer state's VAT on the fees and cassa, rounded half-up once, charged on a line
  // of its own (0 % N7, like the fees: the Italian e-invoice carries no foreign Imposta).
  const foreignVat = treatment.foreignVat;
  const foreignVatCents = foreignVat ? vatOf(feesCents + pensionFundCents, foreignVat.rate) : 0;
  if (foreignVat && foreignVatCents > 0) {
    lines.push({
      kind: 'foreignVat',
      description: `IVA ${foreignVat.country} ${(foreignVat.rate / 100).toFixed(2).replace('.', ',')}% assolta tramite OSS`,
      quantity: 1,
      unitPriceCents: foreignVatCents,
      discount: null,
      totalCents: foreignVatCents,
      vat: 0,
      natura: 'N7',
      legalReference: legalReferences.oss,
      withholding: false,
    });
  }

  // Split payment for a public administration's VAT (art. 17-ter DPR 633/72), never on fees
  // subject to ritenuta (art. 17-ter c. 2, as amended by art. 12 DL 87/2018) nor for forfettari.
  const splitPayment = customer.publicAdministration && !withholds && !forfettario && treatment.vat > 0;

  const groups = new Map<string, DocumentVatSummary>();
  const add = (
    vat: PercentHundredths,
    natura: Natura | null,
    legalReference: string | null,
    cents: Cents,
  ) => {
    const key = `${vat}|${natura ?? ''}`;
    const g = groups.get(key) ?? {
      vat,
      natura,
      legalReference,
      taxableCents: 0,
      taxCents: 0,
      chargeability: null,
    };
    g.taxableCents += cents;
    groups.set(key, g);
  };
  for (const l of lines) add(l.vat, l.natura, l.legalReference, l.totalCents);
  for (const b of pensionFund) add(b.vat, b.natura, treatment.legalReference, b.amountCents);
  const summaries = [...groups.values()].map((g) => ({
    ...g,
    taxCents: vatOf(g.taxableCents, g.vat),
    chargeability: g.vat > 0 ? (splitPayment ? ('S' as const) : ('I' as const)) : null,
  }));

  const vatCents = sumCents(summaries.map((s) => s.taxCents));
  const taxableCents = feesCents + pensionFundCents;
  const totalCents = sumCents(summaries.map((s) => s.taxableCents + s.taxCents));

  const withholding =
    withholds && seller.withholdingTax
      ? (() => {
          const baseCents = feesCents + (fundWithholds ? pensionFundCents : 0);
          return {
            type: seller.withholdingTax,
            rate: WITHHOLDING_RATE,
            baseCents,
            amountCents: divideHalfUp(baseCents * WITHHOLDING_RATE, 10_000),
          };
        })()
      : null;

  const netToPayCents = totalCents - (withholding?.amountCents ?? 0) - (splitPayment ? vatCents : 0);
  return {
    lines,
    pensionFund,
    summaries,
    taxableCents,
    discountCents: sumCents(lines.map((l) => l.discount?.cents ?? 0)),
    vatCents,
    pensionFundCents,
    stampDuty,
    stampDutyChargedCents,
    foreignVatCents,
    totalCents,
    withholding,
    splitPayment,
    netToPayCents,
    treatment,
  };
}
