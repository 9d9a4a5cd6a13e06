/**
 * The documents of a plan change (issue 30; docs/fiscal-rules.md 'Cambio di piano'): the invoice
 * (TD01) of the new plan's days with DataInizioPeriodo / DataFinePeriodo, and the partial credit
 * note (TD04) of the old plan's unused days linked to the period's invoice by
 * DatiFattureCollegate. Two golden documents worked by hand, then random plans, dates, change
 * points and profiles through the official XSD and the SdI arithmetic.
 */
import fc from 'fast-check';
import { create } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import { addMonthsClamped, periodEndAfter } from '../../../contract/billing-dates';
import {
  pensionFundTypes,
  type CustomerProfile,
  type FiscalDocument,
  type SellerProfile,
} from '../../../contract/invoice/fiscal-document';
import {
  planChangeDocuments,
  planChangePreview,
  type PlanTerms,
} from '../../../contract/invoice/plan-change';
import { prorate } from '../../../contract/proration';
import { taxRegimes } from '../../../contract/validation/italian';
import {
  buildFatturaXml,
  fatturaErrors,
  fatturaErrorsMany,
  fiscalParts,
  type InvoiceDocument,
} from '../../../server/modules/invoice/fatturapa';
import { toQuote } from '../../../contract/invoice/quote';

/** 10:30 in Rome (CET, UTC+1, or CEST, UTC+2) of a day. */
function rome(y: number, m: number, d: number, h = 10): Date {
  const probe = new Date(Date.UTC(y, m - 1, d, h - 1));
  const hourInRome = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', hour: 'numeric', hourCycle: 'h23' }).format(
      probe,
    ),
  );
  return new Date(probe.getTime() - (hourInRome - h) * 3_600_000);
}

function fileOf(
  fd: FiscalDocument,
  type: 'TD01' | 'TD04',
  period: { start: string; end: string },
  profile: { seller: SellerProfile; customer: CustomerProfile },
): string {
  const doc: InvoiceDocument = {
    documentType: type,
    format: 'FPR12',
    progressive: type === 'TD01' ? '00002' : '00003',
    fileName: `IT09876540155_0000${type === 'TD01' ? 2 : 3}.xml`,
    number: type === 'TD01' ? '2026/000002' : '2026/000003',
    date: period.start,
    transmitter: { country: 'IT', code: '09876540155' },
    recipientCode: profile.customer.countryCode === 'IT' ? 'M5UXCR1' : 'XXXXXXX',
    recipientPec: null,
    seller: {
      vat: { country: 'IT', code: '09876540155' },
      fiscalCode: 'RSSMRA80A01F205X',
      name: { first: 'Mario', last: 'Rossi' },
      taxRegime: profile.seller.taxRegime,
      pec: null,
      address: { street: 'Via Roma 1', zip: '20121', city: 'Milano', province: 'MI', country: 'IT' },
    },
    buyer: {
      vat:
        profile.customer.countryCode === 'IT'
          ? { country: 'IT', code: '12345678903' }
          : { country: 'DE', code: '123456789' },
      fiscalCode: null,
      name: { company: 'Bianchi Consulting Srl' },
      email: null,
      address: {
        street: 'Corso Buenos Aires 45',
        zip: '20124',
        city: 'Milano',
        province: 'MI',
        country: 'IT',
      },
    },
    ...fiscalParts(fd, period),
    order: null,
    payment: { method: 'MP08', amountCents: fd.netToPayCents, iban: null, paidOn: null },
    related: type === 'TD04' ? { number: '2026/000001', date: '2026-03-01' } : null,
    causale: type === 'TD04' ? 'Storno parziale della fattura 2026/000001 per cambio di piano' : null,
  };
  return buildFatturaXml(doc);
}

interface El {
  getElementsByTagName(tag: string): ArrayLike<El>;
  textContent: string | null;
}
function values(xml: string, tag: string): string[] {
  const dom = create(xml).node as unknown as El;
  return Array.from(dom.getElementsByTagName(tag)).map((e) => e.textContent ?? '');
}

const italianCompany: CustomerProfile = {
  countryCode: 'IT',
  isCompany: true,
  withholdingAgent: false,
  publicAdministration: false,
};
const ordinary: SellerProfile = {
  taxRegime: 'RF01',
  pensionFund: null,
  withholdingTax: null,
  stampDutyToCustomer: false,
};
const base: PlanTerms = { name: 'Base', vat: 2200, natura: null };
const pro: PlanTerms = { name: 'Pro', vat: 2200, natura: null };

describe('golden 1: upgrade Base 29,00 → Pro 49,00 on 20 March, period 1 March – 1 April, 22 %', () => {
  /*
   * Worked by hand. Period 01/03–31/03: 31 days; from 20/03 to 31/03: 12 days unused.
   *   credit  = 29,00 × 12/31 = 11,2258… → 11,23     charge = 49,00 × 12/31 = 18,9677… → 18,97
   *   TD04: imponibile 11,23, IVA 22 % 2,4706 → 2,47, totale 13,70
   *   TD01: imponibile 18,97, IVA 22 % 4,1734 → 4,17, totale 23,14, DataInizioPeriodo 2026-03-20,
   *         DataFinePeriodo 2026-03-31
   *   asked now: 23,14 − 13,70 = 9,44 (day-exact: 20,00 × 12/31 = 7,7419 net, × 1,22 = 9,445)
   */
  const proration = prorate({
    periodStart: rome(2026, 3, 1),
    periodEnd: rome(2026, 4, 1),
    changeAt: rome(2026, 3, 20, 15),
    oldAmountCents: 2900,
    newPriceCents: 4900,
  });
  const docs = planChangeDocuments({
    seller: ordinary,
    customer: italianCompany,
    proration,
    oldPlan: base,
    newPlan: pro,
  });

  it('computes the figures worked by hand', () => {
    expect(proration).toMatchObject({ totalDays: 31, unusedDays: 12, creditCents: 1123, chargeCents: 1897 });
    expect(docs.credit).toMatchObject({
      taxableCents: 1123,
      vatCents: 247,
      totalCents: 1370,
      netToPayCents: 1370,
    });
    expect(docs.charge).toMatchObject({
      taxableCents: 1897,
      vatCents: 417,
      totalCents: 2314,
      netToPayCents: 2314,
    });
    expect(docs.period).toEqual({ start: '2026-03-20', end: '2026-03-31' });
    expect(docs.amountDueCents).toBe(944);
    expect(docs.residualCreditCents).toBe(0);
  });

  it('answers the preview as quote answers, with the credited line negative', () => {
    const preview = planChangePreview(docs, {
      effective: 'now',
      fromPlan: { id: 1, name: 'Base' },
      toPlan: { id: 2, name: 'Pro' },
      nextPeriod: toQuote(docs.charge!),
      nextBillingDate: '2026-04-01',
      recurrenceChanges: false,
    });
    expect(preview).toMatchObject({
      effectiveDay: '2026-03-20',
      totalDays: 31,
      unusedDays: 12,
      credit: { taxable: 11.23, vat: 2.47, total: 13.7, netToPay: 13.7 },
      charge: { taxable: 18.97, vat: 4.17, total: 23.14, netToPay: 23.14 },
      netToPay: 9.44,
      residualCredit: 0,
    });
    expect(preview.lines.map((l) => [l.description, l.amount])).toEqual([
      ['Storno giorni non goduti piano «Base» dal 20/03/2026 al 31/03/2026', -11.23],
      ['Piano «Pro» dal 20/03/2026 al 31/03/2026 (conguaglio cambio piano)', 18.97],
    ]);
  });

  it('writes the TD01 with the period of the new plan and the TD04 linked to the invoice; both valid', async () => {
    const period = docs.period!;
    const invoice = fileOf(docs.charge!, 'TD01', period, { seller: ordinary, customer: italianCompany });
    const note = fileOf(docs.credit!, 'TD04', period, { seller: ordinary, customer: italianCompany });
    expect(await fatturaErrors(invoice)).toEqual([]);
    expect(await fatturaErrors(note)).toEqual([]);
    expect(values(invoice, 'DataInizioPeriodo')).toEqual(['2026-03-20']);
    expect(values(invoice, 'DataFinePeriodo')).toEqual(['2026-03-31']);
    expect(values(invoice, 'ImportoTotaleDocumento')).toEqual(['23.14']);
    expect(values(note, 'TipoDocumento')).toEqual(['TD04']);
    expect(values(note, 'IdDocumento')).toEqual(['2026/000001']);
    expect(values(note, 'PrezzoTotale')).toEqual(['11.23']);
    expect(values(note, 'Imposta')).toEqual(['2.47']);
    expect(values(note, 'ImportoTotaleDocumento')).toEqual(['13.70']);
  });
});

describe('golden 2: a professional with rivalsa INPS 4 % and ritenuta, 100,00 → 200,00 on 24 February', () => {
  /*
   * Period 10/02–09/03/2026: 28 days; from 24/02: 14 days unused (24–28 Feb, 1–9 Mar).
   *   credit = 100,00 × 14/28 = 50,00        charge = 200,00 × 14/28 = 100,00
   *   TD04: compensi 50,00, rivalsa 4 % 2,00, imponibile 52,00, IVA 22 % 11,44, totale 63,44,
   *         ritenuta 20 % di 52,00 (la rivalsa INPS vi rientra) 10,40, netto 53,04
   *   TD01: compensi 100,00, rivalsa 4,00, imponibile 104,00, IVA 22,88, totale 126,88,
   *         ritenuta 20,80, netto 106,08
   *   asked now: 106,08 − 53,04 = 53,04
   */
  const seller: SellerProfile = {
    taxRegime: 'RF01',
    pensionFund: { type: 'TC22', rate: 400 },
    withholdingTax: 'RT01',
    stampDutyToCustomer: false,
  };
  const customer: CustomerProfile = { ...italianCompany, withholdingAgent: true };
  const proration = prorate({
    periodStart: rome(2026, 2, 10),
    periodEnd: rome(2026, 3, 10),
    changeAt: rome(2026, 2, 24),
    oldAmountCents: 10_000,
    newPriceCents: 20_000,
  });
  const docs = planChangeDocuments({
    seller,
    customer,
    proration,
    oldPlan: { name: 'Consulenza', vat: 2200, natura: null },
    newPlan: { name: 'Consulenza Plus', vat: 2200, natura: null },
  });

  it('computes the figures worked by hand', () => {
    expect(proration).toMatchObject({
      totalDays: 28,
      unusedDays: 14,
      creditCents: 5000,
      chargeCents: 10_000,
    });
    expect(docs.credit).toMatchObject({
      taxableCents: 5200,
      pensionFundCents: 200,
      vatCents: 1144,
      totalCents: 6344,
      withholding: { amountCents: 1040 },
      netToPayCents: 5304,
    });
    expect(docs.charge).toMatchObject({
      taxableCents: 10_400,
      pensionFundCents: 400,
      vatCents: 2288,
      totalCents: 12_688,
      withholding: { amountCents: 2080 },
      netToPayCents: 10_608,
    });
    expect(docs.amountDueCents).toBe(5304);
    expect(docs.period).toEqual({ start: '2026-02-24', end: '2026-03-09' });
  });

  it('both files pass the XSD and the SdI arithmetic (DatiRitenuta, DatiCassaPrevidenziale)', async () => {
    const period = docs.period!;
    const invoice = fileOf(docs.charge!, 'TD01', period, { seller, customer });
    const note = fileOf(docs.credit!, 'TD04', period, { seller, customer });
    expect(await fatturaErrorsMany([invoice, note])).toEqual([[], []]);
    expect(values(note, 'ImportoRitenuta')).toEqual(['10.40']);
    expect(values(note, 'ImportoContributoCassa')).toEqual(['2.00']);
    expect(values(invoice, 'ImportoPagamento')).toEqual(['106.08']);
  });
});

describe('any plans, dates, change points and profiles (property, through the real XSD)', () => {
  const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
  const arb = fc.record({
    y: fc.integer({ min: 2023, max: 2030 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.constantFrom(28, 29, 30, 31)),
    recurrence: fc.constantFrom(1, 12),
    k: fc.integer({ min: 0, max: 13 }),
    at: fc.integer({ min: 0, max: 999_999 }),
    oldCents: fc.integer({ min: 0, max: 2_000_000 }),
    newCents: fc.integer({ min: 0, max: 2_000_000 }),
    seller: fc.record({
      taxRegime: fc.constantFrom(...taxRegimes),
      pensionFund: fc.option(
        fc.record({ type: fc.constantFrom(...pensionFundTypes), rate: fc.constantFrom(200, 400, 500) }),
      ),
      withholdingTax: fc.constantFrom('RT01' as const, 'RT02' as const, null),
      stampDutyToCustomer: fc.boolean(),
    }),
    customer: fc.constantFrom<CustomerProfile>(
      { countryCode: 'IT', isCompany: true, withholdingAgent: true, publicAdministration: false },
      { countryCode: 'IT', isCompany: false, withholdingAgent: false, publicAdministration: false },
      { countryCode: 'DE', isCompany: true, withholdingAgent: false, publicAdministration: false },
    ),
    vat: fc.constantFrom(
      { vat: 2200, natura: null },
      { vat: 1000, natura: null },
      { vat: 0, natura: 'N4' as const },
    ),
  });

  it('300 changes: each document valid, the amounts asked equal to the documents', async () => {
    const cases = fc.sample(arb, { numRuns: 300, seed: 30_2026 });
    const files: string[] = [];
    for (const c of cases) {
      const start = rome(c.y, c.m, Math.min(c.d, daysIn(c.y, c.m)), 9);
      const periodStart = addMonthsClamped(start, c.k * c.recurrence);
      const periodEnd = periodEndAfter(start, c.recurrence, periodStart);
      const changeAt = new Date(
        periodStart.getTime() +
          Math.floor(((periodEnd.getTime() - periodStart.getTime()) * c.at) / 1_000_000),
      );
      const proration = prorate({
        periodStart,
        periodEnd,
        changeAt,
        oldAmountCents: c.oldCents,
        newPriceCents: c.newCents,
      });
      const plan = { ...c.vat, legalReference: c.vat.vat === 0 ? 'Esente art. 10 DPR 633/72' : null };
      const docs = planChangeDocuments({
        seller: c.seller,
        customer: c.customer,
        proration,
        oldPlan: { name: 'A', ...plan },
        newPlan: { name: 'B', ...plan },
      });
      const diff = (docs.charge?.netToPayCents ?? 0) - (docs.credit?.netToPayCents ?? 0);
      expect(docs.amountDueCents - docs.residualCreditCents).toBe(diff);
      // Before any VAT, the lines are exactly the proration's figures.
      expect(docs.credit?.lines[0]?.totalCents ?? 0).toBe(proration.creditCents);
      expect(docs.charge?.lines[0]?.totalCents ?? 0).toBe(proration.chargeCents);
      const profile = { seller: c.seller, customer: c.customer };
      if (docs.period && docs.charge) files.push(fileOf(docs.charge, 'TD01', docs.period, profile));
      if (docs.period && docs.credit) files.push(fileOf(docs.credit, 'TD04', docs.period, profile));
    }
    expect(files.length).toBeGreaterThan(400);
    const verdicts = await fatturaErrorsMany(files);
    expect(verdicts.filter((v) => v.length > 0)).toEqual([]);
  }, 120_000);
});
