/**
 * Coupons on the document (issue 30): the discount is a ScontoMaggiorazione SC on the FatturaPA
 * line, PrezzoTotale the discounted total, and the file validates against the official XSD and the
 * SdI's arithmetic — one golden document worked by hand, then any plan, rate, profile and coupon.
 */
import { fc, test } from '@fast-check/vitest';
import { create } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import {
  computeDocument,
  pensionFundTypes,
  type CustomerProfile,
  type DocumentInput,
  type LineDiscount,
} from '../../../contract/invoice/fiscal-document';
import { taxRegimes } from '../../../contract/validation/italian';
import {
  buildFatturaXml,
  fatturaErrors,
  fatturaErrorsMany,
  figuresOf,
  fiscalParts,
  type InvoiceDocument,
  type InvoiceParty,
} from '../../../server/modules/invoice/fatturapa';
import { sdiArithmeticErrors } from '../../../contract/invoice/fatturapa';
import { renderInvoicePdf } from '../../../server/modules/invoice/invoice-pdf';
import { extractText, getDocumentProxy } from 'unpdf';

const buyers: Record<string, InvoiceParty & { email: null }> = {
  IT: {
    vat: { country: 'IT', code: '12345678903' },
    fiscalCode: null,
    name: { company: 'Bianchi Consulting Srl' },
    email: null,
    address: { street: 'Corso Buenos Aires 45', zip: '20124', city: 'Milano', province: 'MI', country: 'IT' },
  },
  DE: {
    vat: { country: 'DE', code: '123456789' },
    fiscalCode: null,
    name: { company: 'Beispiel GmbH' },
    email: null,
    address: { street: 'Hauptstrasse 1', zip: '00000', city: 'Berlin', province: null, country: 'DE' },
  },
  FR: {
    vat: { country: 'FR', code: '99999999999' },
    fiscalCode: null,
    name: { first: 'Camille', last: 'Martin' },
    email: null,
    address: { street: 'Rue de Rivoli 10', zip: '00000', city: 'Paris', province: null, country: 'FR' },
  },
};

function fileOf(input: DocumentInput): string {
  return buildFatturaXml(documentOf(input));
}

function documentOf(input: DocumentInput): InvoiceDocument {
  const fd = computeDocument(input);
  const buyer = buyers[input.customer.countryCode] ?? buyers.IT!;
  const pa = input.customer.publicAdministration;
  const doc: InvoiceDocument = {
    documentType: 'TD01',
    format: pa ? 'FPA12' : 'FPR12',
    progressive: '00001',
    fileName: 'IT09876540155_00001.xml',
    number: '2026/000001',
    date: '2026-03-10',
    transmitter: { country: 'IT', code: '09876540155' },
    recipientCode: pa ? 'UFABCD' : buyer.address.country === 'IT' ? 'M5UXCR1' : 'XXXXXXX',
    recipientPec: null,
    seller: {
      vat: { country: 'IT', code: '09876540155' },
      fiscalCode: 'RSSMRA80A01F205X',
      name: { first: 'Mario', last: 'Rossi' },
      taxRegime: input.seller.taxRegime,
      pec: null,
      address: { street: 'Via Roma 1', zip: '20121', city: 'Milano', province: 'MI', country: 'IT' },
    },
    buyer,
    ...fiscalParts(fd, { start: '2026-03-10', end: '2026-04-09' }),
    order: null,
    payment: { method: 'MP05', amountCents: fd.netToPayCents, iban: null, paidOn: '2026-03-10' },
    related: null,
    causale: null,
  };
  return doc;
}

interface El {
  getElementsByTagName(tag: string): ArrayLike<El>;
  textContent: string | null;
}
function values(xml: string, path: string): string[] {
  const [parent, child] = path.split('/') as [string, string | undefined];
  const dom = create(xml).node as unknown as El;
  return Array.from(dom.getElementsByTagName(parent)).flatMap((el) =>
    child
      ? Array.from(el.getElementsByTagName(child)).map((c) => c.textContent ?? '')
      : [el.textContent ?? ''],
  );
}

const italianCompany: CustomerProfile = {
  countryCode: 'IT',
  isCompany: true,
  withholdingAgent: false,
  publicAdministration: false,
};
const ordinary = {
  taxRegime: 'RF01' as const,
  pensionFund: null,
  withholdingTax: null,
  stampDutyToCustomer: false,
};

describe('the golden document: a 10 % coupon on a 49,00 € plan at 22 %', () => {
  /*
   * Worked by hand:
   *   PrezzoUnitario              49,00
   *   ScontoMaggiorazione SC      10,00 %          (49,00 × 10 % = 4,90 off)
   *   PrezzoTotale                44,10            (49,00 × 0,90)
   *   ImponibileImporto (22 %)    44,10
   *   Imposta                      9,70            (44,10 × 22 % = 9,702 → 9,70 half-up)
   *   ImportoTotaleDocumento      53,80            (44,10 + 9,70)
   *   ImportoPagamento            53,80            (no ritenuta, no split payment)
   * Without the coupon: 49,00 + 10,78 = 59,78.
   */
  const input: DocumentInput = {
    seller: ordinary,
    customer: italianCompany,
    charges: [
      { description: 'Abbonamento «Pro»', quantity: 1, unitPriceCents: 4900, discount: { percentOff: 1000 } },
    ],
    plan: { vat: 2200, natura: null },
  };

  it('computes the figures worked by hand', () => {
    const d = computeDocument(input);
    expect(d.lines[0]).toMatchObject({
      unitPriceCents: 4900,
      totalCents: 4410,
      discount: { percent: 1000, unitAmountCents: null, cents: 490 },
    });
    expect(d.discountCents).toBe(490);
    expect(d.taxableCents).toBe(4410);
    expect(d.vatCents).toBe(970);
    expect(d.totalCents).toBe(5380);
    expect(d.netToPayCents).toBe(5380);
  });

  it('writes them in the file, ScontoMaggiorazione between PrezzoUnitario and PrezzoTotale, valid', async () => {
    const xml = fileOf(input);
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(xml).toMatch(
      /<PrezzoUnitario>49\.00<\/PrezzoUnitario>\s*<ScontoMaggiorazione>\s*<Tipo>SC<\/Tipo>\s*<Percentuale>10\.00<\/Percentuale>\s*<\/ScontoMaggiorazione>\s*<PrezzoTotale>44\.10<\/PrezzoTotale>/,
    );
    expect(values(xml, 'ScontoMaggiorazione/Importo')).toEqual([]);
    expect(values(xml, 'DatiRiepilogo/ImponibileImporto')).toEqual(['44.10']);
    expect(values(xml, 'DatiRiepilogo/Imposta')).toEqual(['9.70']);
    expect(values(xml, 'ImportoTotaleDocumento')).toEqual(['53.80']);
    expect(values(xml, 'DettaglioPagamento/ImportoPagamento')).toEqual(['53.80']);
  });

  it('the courtesy PDF shows the discount under its line', async () => {
    const pdf = await renderInvoicePdf(documentOf(input));
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
    expect(text).toContain('Sconto 10,00 %');
    expect(text).toMatch(/-4,90\s€/);
    expect(text).toMatch(/44,10\s€/);
  });

  it('the SdI arithmetic notices a PrezzoTotale that ignores the discount, or a block with no figure', async () => {
    const xml = fileOf(input);
    const ignored = xml.replace('<PrezzoTotale>44.10</PrezzoTotale>', '<PrezzoTotale>49.00</PrezzoTotale>');
    expect(sdiArithmeticErrors(figuresOf(ignored))).toContain(
      'Linea 1: PrezzoTotale diverso da PrezzoUnitario, al netto di ScontoMaggiorazione, × Quantita.',
    );
    const blank = xml.replace('<Percentuale>10.00</Percentuale>', '');
    expect(await fatturaErrors(blank)).toEqual([
      'Linea 1: ScontoMaggiorazione 1 senza Percentuale né Importo.',
    ]);
  });

  it('an amount coupon larger than the price makes the line 0,00, never negative, and stays valid', async () => {
    const xml = fileOf({ ...input, charges: [{ ...input.charges[0]!, discount: { amountOffCents: 6000 } }] });
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(values(xml, 'ScontoMaggiorazione/Importo')).toEqual(['49.00']);
    expect(values(xml, 'DettaglioLinee/PrezzoTotale')).toEqual(['0.00']);
    expect(values(xml, 'ImportoTotaleDocumento')).toEqual(['0.00']);
  });
});

const discount: fc.Arbitrary<LineDiscount> = fc.oneof(
  fc.integer({ min: 1, max: 10_000 }).map((percentOff) => ({ percentOff })),
  fc.integer({ min: 1, max: 6_000_000 }).map((amountOffCents) => ({ amountOffCents })),
);

const input: fc.Arbitrary<DocumentInput> = fc.record({
  seller: fc.record({
    taxRegime: fc.constantFrom(...taxRegimes),
    pensionFund: fc.option(
      fc.record({ type: fc.constantFrom(...pensionFundTypes), rate: fc.constantFrom(200, 400, 500) }),
    ),
    withholdingTax: fc.constantFrom('RT01' as const, 'RT02' as const, null),
    stampDutyToCustomer: fc.boolean(),
    oss: fc.boolean(),
  }),
  customer: fc.constantFrom<CustomerProfile>(
    { countryCode: 'IT', isCompany: true, withholdingAgent: true, publicAdministration: false },
    { countryCode: 'IT', isCompany: true, withholdingAgent: true, publicAdministration: true },
    { countryCode: 'IT', isCompany: false, withholdingAgent: false, publicAdministration: false },
    { countryCode: 'DE', isCompany: true, withholdingAgent: false, publicAdministration: false },
    { countryCode: 'FR', isCompany: false, withholdingAgent: false, publicAdministration: false },
  ),
  charges: fc.array(
    fc.record({
      description: fc.constant('Abbonamento'),
      quantity: fc.integer({ min: 1, max: 3 }),
      unitPriceCents: fc.integer({ min: 0, max: 5_000_000 }),
      discount: fc.option(discount, { freq: 4 }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  plan: fc.constantFrom(
    { vat: 2200, natura: null },
    { vat: 1000, natura: null },
    { vat: 400, natura: null },
    { vat: 0, natura: 'N4' as const },
  ),
});

/** Every amount of the document is ≥ 0 and the discount is exactly what the lines lost. */
function expectNeverNegative(i: DocumentInput) {
  const d = computeDocument(i);
  for (const l of d.lines) {
    expect(l.totalCents).toBeGreaterThanOrEqual(0);
    expect(l.discount?.cents ?? 0).toBeGreaterThanOrEqual(0);
    expect(l.totalCents + (l.discount?.cents ?? 0)).toBe(l.unitPriceCents * l.quantity);
  }
  for (const figure of [d.taxableCents, d.vatCents, d.pensionFundCents, d.totalCents, d.netToPayCents])
    expect(figure).toBeGreaterThanOrEqual(0);
}

describe('any plan price, rate, profile and coupon (property, through the real XSD)', () => {
  test.prop([input], { numRuns: 8 })(
    'writes a file the XSD and the SdI arithmetic accept, no amount negative',
    async (i) => {
      expectNeverNegative(i);
      expect(await fatturaErrors(fileOf(i))).toEqual([]);
    },
    120_000,
  );

  it('300 more random documents with coupons, checked in one run of the validator', async () => {
    const inputs = fc.sample(input, { numRuns: 300, seed: 30 });
    for (const i of inputs) expectNeverNegative(i);
    const verdicts = await fatturaErrorsMany(inputs.map(fileOf));
    expect(verdicts.filter((v) => v.length > 0)).toEqual([]);
    expect(inputs.filter((i) => i.charges.some((c) => c.discount)).length).toBeGreaterThan(150);
  }, 120_000);
});
