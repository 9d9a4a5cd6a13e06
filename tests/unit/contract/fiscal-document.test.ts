/**
 * The one computation of an Italian document (contract/invoice/fiscal-document.ts): the five
 * cases of issue 27 worked by hand, then properties over random profiles.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { decimal2, sdiArithmeticErrors } from '../../../contract/invoice/fatturapa';
import {
  computeDocument,
  decideVat,
  legalReferences,
  pensionFundTypes,
  type CustomerProfile,
  type DocumentInput,
  type FiscalDocument,
  type SellerProfile,
} from '../../../contract/invoice/fiscal-document';
import { quoteSchema, toQuote } from '../../../contract/invoice/quote';
import { taxRegimes } from '../../../contract/validation/italian';

const ordinary: SellerProfile = {
  taxRegime: 'RF01',
  pensionFund: null,
  withholdingTax: null,
  stampDutyToCustomer: false,
};
const italianCompany: CustomerProfile = {
  countryCode: 'IT',
  isCompany: true,
  withholdingAgent: true,
  publicAdministration: false,
};
const fee = [{ description: 'Consulenza mensile', quantity: 1, unitPriceCents: 100_000 }];
const vat22 = { vat: 2200, natura: null };

/** The figures in euros, as one reads them on the document. */
function euros(d: FiscalDocument) {
  return {
    taxable: decimal2(d.taxableCents),
    cassa: decimal2(d.pensionFundCents),
    vat: decimal2(d.vatCents),
    bollo: decimal2(d.stampDutyChargedCents),
    total: decimal2(d.totalCents),
    withholding: d.withholding ? decimal2(d.withholding.amountCents) : null,
    net: decimal2(d.netToPayCents),
  };
}

describe('golden documents, worked by hand', () => {
  it('(1) Gestione Separata professional, ordinary regime, company customer', () => {
    // 1.000,00 fee + 4 % rivalsa INPS 40,00 = 1.040,00; VAT 22 % 228,80; total 1.268,80;
    // ritenuta 20 % of (fee + rivalsa) = 208,00; net 1.060,80.
    const d = computeDocument({
      seller: { ...ordinary, pensionFund: { type: 'TC22', rate: 400 }, withholdingTax: 'RT01' },
      customer: italianCompany,
      charges: fee,
      plan: vat22,
    });
    expect(euros(d)).toEqual({
      taxable: '1040.00',
      cassa: '40.00',
      vat: '228.80',
      bollo: '0.00',
      total: '1268.80',
      withholding: '208.00',
      net: '1060.80',
    });
    expect(d.pensionFund).toEqual([
      {
        type: 'TC22',
        rate: 400,
        baseCents: 100_000,
        amountCents: 4000,
        vat: 2200,
        natura: null,
        withholding: true,
      },
    ]);
    expect(d.withholding).toEqual({ type: 'RT01', rate: 2000, baseCents: 104_000, amountCents: 20_800 });
    expect(d.lines.map((l) => l.withholding)).toEqual([true]);
    expect(d.summaries).toEqual([
      {
        vat: 2200,
        natura: null,
        legalReference: null,
        taxableCents: 104_000,
        taxCents: 22_880,
        chargeability: 'I',
      },
    ]);
    expect(d.stampDuty).toBe(false);
  });

  it('(2) Inarcassa TC04 4 %: the contributo integrativo is taxed but not withheld on', () => {
    // Same 1.268,80 total; ritenuta 20 % of the fee alone = 200,00; net 1.068,80.
    const d = computeDocument({
      seller: { ...ordinary, pensionFund: { type: 'TC04', rate: 400 }, withholdingTax: 'RT01' },
      customer: italianCompany,
      charges: fee,
      plan: vat22,
    });
    expect(euros(d)).toMatchObject({ total: '1268.80', withholding: '200.00', net: '1068.80' });
    expect(d.pensionFund[0]?.withholding).toBe(false);
  });

  it('(3) forfettario with rivalsa and the bollo charged: 1.042,00, no ritenuta, N2.2', () => {
    // 1.000,00 + 40,00 rivalsa outside VAT (N2.2) > 77,47 → bollo 2,00 as an N1 line.
    const d = computeDocument({
      seller: {
        taxRegime: 'RF19',
        pensionFund: { type: 'TC22', rate: 400 },
        withholdingTax: 'RT01',
        stampDutyToCustomer: true,
      },
      customer: italianCompany,
      charges: fee,
      plan: vat22,
    });
    expect(euros(d)).toEqual({
      taxable: '1040.00',
      cassa: '40.00',
      vat: '0.00',
      bollo: '2.00',
      total: '1042.00',
      withholding: null,
      net: '1042.00',
    });
    expect(d.treatment).toEqual({ vat: 0, natura: 'N2.2', legalReference: legalReferences.forfettario });
    expect(d.stampDuty).toBe(true);
    expect(d.lines.map((l) => [l.description, l.totalCents, l.natura])).toEqual([
      ['Consulenza mensile', 100_000, 'N2.2'],
      ['Imposta di bollo', 200, 'N1'],
    ]);
    expect(d.summaries.map((s) => [s.natura, s.taxableCents, s.taxCents, s.chargeability])).toEqual([
      ['N2.2', 104_000, 0, null],
      ['N1', 200, 0, null],
    ]);
  });

  it('(4) a company to a public body: VAT 220,00 in split payment, 1.000,00 to pay', () => {
    const d = computeDocument({
      seller: ordinary,
      customer: { ...italianCompany, publicAdministration: true },
      charges: fee,
      plan: vat22,
    });
    expect(euros(d)).toMatchObject({ vat: '220.00', total: '1220.00', withholding: null, net: '1000.00' });
    expect(d.splitPayment).toBe(true);
    expect(d.summaries[0]?.chargeability).toBe('S');
  });

  it('(5) to an EU business: 0 % N2.1 under reverse charge, the virtual bollo on the seller', () => {
    const d = computeDocument({
      seller: ordinary,
      customer: { countryCode: 'DE', isCompany: true, withholdingAgent: false, publicAdministration: false },
      charges: fee,
      plan: vat22,
    });
    expect(euros(d)).toMatchObject({ vat: '0.00', bollo: '0.00', total: '1000.00', net: '1000.00' });
    expect(d.treatment).toEqual({ vat: 0, natura: 'N2.1', legalReference: legalReferences.euBusiness });
    expect(d.stampDuty).toBe(true);
  });
});

describe('who pays which VAT', () => {
  const plan = { vat: 2200, natura: null };
  it.each([
    ['an Italian private person', { countryCode: 'IT', isCompany: false }, 2200, null],
    ['an EU private person (below the OSS threshold)', { countryCode: 'FR', isCompany: false }, 2200, null],
    ['an EU business', { countryCode: 'FR', isCompany: true }, 0, 'N2.1'],
    ['a Swiss business', { countryCode: 'CH', isCompany: true }, 0, 'N2.1'],
    ['a US private person', { countryCode: 'US', isCompany: false }, 0, 'N2.1'],
  ] as const)('%s', (_name, customer, vat, natura) => {
    expect(decideVat({ taxRegime: 'RF01' }, customer, plan)).toMatchObject({ vat, natura });
  });

  it('a seller in the OSS charges an EU private person the VAT of their state, as 0 % N7', () => {
    const oss = { taxRegime: 'RF01', oss: true } as const;
    expect(decideVat(oss, { countryCode: 'FR', isCompany: false }, plan)).toEqual({
      vat: 0,
      natura: 'N7',
      legalReference: legalReferences.oss,
      foreignVat: { country: 'FR', rate: 2000 },
    });
    expect(decideVat(oss, { countryCode: 'HU', isCompany: false }, plan).foreignVat?.rate).toBe(2700);
    // Not an Italian, an EU business, a non-EU consumer, nor a forfettario's customer.
    expect(decideVat(oss, { countryCode: 'IT', isCompany: false }, plan)).toMatchObject({ vat: 2200 });
    expect(decideVat(oss, { countryCode: 'FR', isCompany: true }, plan)).toMatchObject({ natura: 'N2.1' });
    expect(decideVat(oss, { countryCode: 'US', isCompany: false }, plan)).toMatchObject({ natura: 'N2.1' });
    expect(
      decideVat({ taxRegime: 'RF19', oss: true }, { countryCode: 'FR', isCompany: false }, plan),
    ).toMatchObject({
      natura: 'N2.2',
    });
  });

  it('(6) OSS to a French private person: 49,90 € + TVA 20 % 9,98 € on its own N7 line, no bollo', () => {
    // 49,90 × 20 % = 9,98 exactly; total 59,88; nothing outside VAT, so no bollo; nobody withholds.
    const d = computeDocument({
      seller: { ...ordinary, oss: true, withholdingTax: 'RT01', stampDutyToCustomer: true },
      customer: { countryCode: 'FR', isCompany: false, withholdingAgent: false, publicAdministration: false },
      charges: [{ description: 'Corso online', quantity: 1, unitPriceCents: 4990 }],
      plan,
    });
    expect(d.lines.map((l) => [l.kind, l.description, l.totalCents, l.vat, l.natura])).toEqual([
      ['charge', 'Corso online', 4990, 0, 'N7'],
      ['foreignVat', 'IVA FR 20,00% assolta tramite OSS', 998, 0, 'N7'],
    ]);
    expect(d.summaries).toEqual([
      {
        vat: 0,
        natura: 'N7',
        legalReference: legalReferences.oss,
        taxableCents: 5988,
        taxCents: 0,
        chargeability: null,
      },
    ]);
    expect(euros(d)).toMatchObject({
      taxable: '49.90',
      vat: '0.00',
      bollo: '0.00',
      total: '59.88',
      withholding: null,
      net: '59.88',
    });
    expect(d.foreignVatCents).toBe(998);
    expect(d.stampDuty).toBe(false);
    // The preview shows the foreign VAT as a line of its own.
    expect(toQuote(d).lines.map((l) => l.description)).toEqual([
      'Corso online',
      'IVA FR 20,00% assolta tramite OSS',
    ]);
  });

  it('a forfettario charges no VAT to anyone', () => {
    for (const countryCode of ['IT', 'FR', 'US'])
      expect(decideVat({ taxRegime: 'RF19' }, { countryCode, isCompany: true }, plan)).toMatchObject({
        vat: 0,
        natura: 'N2.2',
      });
  });

  it('no ritenuta from a foreign or private customer, nor on a forfettario', () => {
    const seller: SellerProfile = { ...ordinary, withholdingTax: 'RT01' };
    const privatePerson = { ...italianCompany, isCompany: false, withholdingAgent: false };
    expect(computeDocument({ seller, customer: privatePerson, charges: fee, plan }).withholding).toBeNull();
    expect(
      computeDocument({ seller, customer: { ...italianCompany, countryCode: 'DE' }, charges: fee, plan })
        .withholding,
    ).toBeNull();
    expect(
      computeDocument({
        seller: { ...seller, taxRegime: 'RF19' },
        customer: italianCompany,
        charges: fee,
        plan,
      }).withholding,
    ).toBeNull();
  });

  it('the bollo is due only above 77,47 € outside VAT', () => {
    const at = (cents: number) =>
      computeDocument({
        seller: { ...ordinary, taxRegime: 'RF19', stampDutyToCustomer: true },
        customer: italianCompany,
        charges: [{ description: 'Piano', quantity: 1, unitPriceCents: cents }],
        plan,
      });
    expect(at(7747).stampDuty).toBe(false);
    expect(at(7747).totalCents).toBe(7747);
    expect(at(7748).stampDuty).toBe(true);
    expect(at(7748).totalCents).toBe(7948);
  });
});

const seller: fc.Arbitrary<SellerProfile> = fc.record({
  taxRegime: fc.constantFrom(...taxRegimes),
  pensionFund: fc.option(
    fc.record({ type: fc.constantFrom(...pensionFundTypes), rate: fc.constantFrom(200, 400, 500) }),
  ),
  withholdingTax: fc.constantFrom('RT01', 'RT02', null),
  stampDutyToCustomer: fc.boolean(),
  oss: fc.boolean(),
});
const customer: fc.Arbitrary<CustomerProfile> = fc.record({
  countryCode: fc.constantFrom('IT', 'IT', 'IT', 'FR', 'DE', 'US', 'CH'),
  isCompany: fc.boolean(),
  withholdingAgent: fc.boolean(),
  publicAdministration: fc.boolean(),
});
const input: fc.Arbitrary<DocumentInput> = fc.record({
  seller,
  customer,
  charges: fc.array(
    fc.record({
      description: fc.constant('Canone'),
      quantity: fc.integer({ min: 1, max: 12 }),
      unitPriceCents: fc.integer({ min: 0, max: 5_000_000 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  plan: fc.constantFrom(
    { vat: 2200, natura: null },
    { vat: 1000, natura: null },
    { vat: 400, natura: null },
    {
      vat: 0,
      natura: 'N4' as const,
    },
  ),
});

describe('properties over random profiles', () => {
  test.prop([input])('totals add up and the net is total − ritenuta (− VAT under split payment)', (i) => {
    const d = computeDocument(i);
    const lineSum = d.lines.reduce((a, l) => a + l.totalCents, 0);
    expect(d.totalCents).toBe(lineSum + d.pensionFundCents + d.vatCents);
    expect(d.totalCents).toBe(d.taxableCents + d.vatCents + d.stampDutyChargedCents + d.foreignVatCents);
    expect(d.netToPayCents).toBe(
      d.totalCents - (d.withholding?.amountCents ?? 0) - (d.splitPayment ? d.vatCents : 0),
    );
    expect(d.netToPayCents).toBeGreaterThanOrEqual(0);
    if (i.seller.taxRegime === 'RF19') {
      expect(d.withholding).toBeNull();
      expect(d.vatCents).toBe(0);
    }
    if (d.splitPayment) expect(d.withholding).toBeNull();
  });

  test.prop([input])('the SdI arithmetic holds on what the file would say', (i) => {
    const d = computeDocument(i);
    const errors = sdiArithmeticErrors({
      lines: d.lines.map((l) => ({
        quantity: `${l.quantity}.00`,
        unitPrice: decimal2(l.unitPriceCents),
        total: decimal2(l.totalCents),
        vatRate: decimal2(l.vat),
        natura: l.natura,
      })),
      pensionFund: d.pensionFund.map((b) => ({
        vatRate: decimal2(b.vat),
        natura: b.natura,
        amount: decimal2(b.amountCents),
      })),
      summaries: d.summaries.map((s) => ({
        vatRate: decimal2(s.vat),
        natura: s.natura,
        taxable: decimal2(s.taxableCents),
        tax: decimal2(s.taxCents),
      })),
      documentTotal: decimal2(d.totalCents),
    });
    expect(errors).toEqual([]);
  });

  test.prop([input])('every 0 % line and summary carries its Natura and its legal reference', (i) => {
    const d = computeDocument(i);
    for (const l of d.lines) if (l.vat === 0) expect(l.natura).not.toBeNull();
    for (const s of d.summaries) if (s.vat === 0 && s.natura !== 'N4') expect(s.legalReference).toBeTruthy();
  });
});

describe('the quote on the wire', () => {
  it('answers golden document (1) in euros, as the contract names its fields', () => {
    const d = computeDocument({
      seller: { ...ordinary, pensionFund: { type: 'TC22', rate: 400 }, withholdingTax: 'RT01' },
      customer: italianCompany,
      charges: fee,
      plan: vat22,
    });
    const quote = toQuote(d);
    expect(quoteSchema.parse(quote)).toEqual({
      lines: [
        { description: 'Consulenza mensile', quantity: 1, unitPrice: 1000, vatPercentage: 22, natura: null },
      ],
      taxable: 1040,
      vat: 228.8,
      cassa: 40,
      bollo: 0,
      total: 1268.8,
      withholding: 208,
      netToPay: 1060.8,
      natura: null,
      legalReference: null,
    });
  });
});
