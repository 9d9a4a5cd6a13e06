import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  computeTotals,
  decimal2,
  naturaIds,
  parseDecimal2,
  sdiArithmeticErrors,
  toLatin1,
  type InvoiceLineInput,
  type Natura,
} from '../../../contract/invoice/fatturapa';

const line: fc.Arbitrary<InvoiceLineInput> = fc
  .record({
    unitPriceCents: fc.integer({ min: 0, max: 10_000_000 }),
    quantity: fc.integer({ min: 1, max: 1000 }),
    vat: fc.oneof(fc.constantFrom(2200, 1000, 500, 400, 0), fc.integer({ min: 0, max: 10_000 })),
    natura: fc.constantFrom(...(naturaIds as Natura[])),
  })
  .map((l) => ({ ...l, natura: l.vat === 0 ? l.natura : null }));

/** What the file says, as decimal strings (what the SdI reads). */
function figures(lines: InvoiceLineInput[]) {
  const t = computeTotals(lines);
  return {
    t,
    doc: {
      lines: lines.map((l, i) => ({
        quantity: `${l.quantity}.00`,
        unitPrice: decimal2(l.unitPriceCents),
        total: decimal2(t.lines[i]!.totalCents),
        vatRate: decimal2(l.vat),
        natura: l.natura,
      })),
      summaries: t.summaries.map((s) => ({
        vatRate: decimal2(s.vat),
        natura: s.natura,
        taxable: decimal2(s.taxableCents),
        tax: decimal2(s.taxCents),
      })),
      documentTotal: decimal2(t.totalCents),
    },
  };
}

describe('invoice totals and VAT summary (cents, one half-up rounding per summary)', () => {
  test.prop([fc.array(line, { minLength: 1, maxLength: 20 })], { numRuns: 500 })(
    'add up to the cent as the SdI checks them',
    (lines) => {
      const { t, doc } = figures(lines);
      expect(sdiArithmeticErrors(doc)).toEqual([]);
      // One summary per (rate, natura); taxables add up to the lines; tax is within half a cent of exact.
      expect(new Set(t.summaries.map((s) => `${s.vat}|${s.natura}`)).size).toBe(t.summaries.length);
      expect(t.taxableCents).toBe(lines.reduce((a, l) => a + l.unitPriceCents * l.quantity, 0));
      for (const s of t.summaries)
        expect(Math.abs(s.taxCents * 10_000 - s.taxableCents * s.vat)).toBeLessThanOrEqual(5_000);
      expect(t.totalCents).toBe(t.taxableCents + t.taxCents);
    },
  );

  it('rounds each summary once, half up: 9,90 at 22 % is 2,18; three lines of 0,05 at 10 % are 0,02', () => {
    expect(computeTotals([{ unitPriceCents: 990, quantity: 1, vat: 2200, natura: null }]).taxCents).toBe(218);
    const three = computeTotals(
      Array.from({ length: 3 }, () => ({ unitPriceCents: 5, quantity: 1, vat: 1000, natura: null })),
    );
    // per line 0,005 → 0,01 each would give 0,03; per summary 0,015 → 0,02.
    expect(three.summaries).toEqual([{ vat: 1000, natura: null, taxableCents: 15, taxCents: 2 }]);
    expect(computeTotals([{ unitPriceCents: 2500, quantity: 1, vat: 2200, natura: null }]).totalCents).toBe(
      3050,
    );
  });

  test.prop([fc.integer({ min: -1_000_000_000, max: 1_000_000_000 })])(
    'decimal2 writes two decimals and reads back',
    (c) => {
      const text = decimal2(c);
      expect(text).toMatch(/^-?\d+\.\d{2}$/);
      expect(parseDecimal2(text)).toBe(c);
    },
  );

  it('ImportoPagamento: within the total; a set-off documented in Causale must add up (issue 30)', () => {
    // Base 29,00 + IVA 6,38 = 35,38; 12,20 compensated: 23,18 asked.
    const { doc } = figures([{ unitPriceCents: 2900, quantity: 1, vat: 2200, natura: null }]);
    const causale =
      'Compensato credito residuo di EUR 12,20 della nota di credito n. 2027/000003 del 15/02/2027';
    const pay = (amounts: string[], causali: string[], withholding: string[] = []) =>
      sdiArithmeticErrors({ ...doc, payment: { amounts, withholding, splitTax: [], causali } });
    expect(pay(['35.38'], [])).toEqual([]);
    expect(pay(['23.18'], ['Pagamento ricevuto con causale RNV-1-000234', causale])).toEqual([]);
    expect(pay(['23.17'], [causale])).toEqual([
      'ImportoPagamento più il credito compensato in Causale diverso da quanto dovuto.',
    ]);
    expect(
      pay(['0.00'], ['Compensato credito residuo di EUR 35,38 della nota di credito n. 1 del 01/01/2027']),
    ).toEqual([]);
    expect(pay(['35.39'], [])).toEqual(['ImportoPagamento negativo o maggiore di ImportoTotaleDocumento.']);
    expect(pay(['-1.00'], [])).toEqual(['ImportoPagamento negativo o maggiore di ImportoTotaleDocumento.']);
    // With a ritenuta, what is asked is the total less it.
    expect(
      pay(
        ['18.00'],
        ['Compensato credito residuo di EUR 10,00 della nota di credito n. 1 del 01/01/2027'],
        ['7.38'],
      ),
    ).toEqual([]);
  });

  it('catches what the SdI would refuse', () => {
    const { doc } = figures([{ unitPriceCents: 990, quantity: 2, vat: 2200, natura: null }]);
    expect(sdiArithmeticErrors({ ...doc, documentTotal: '24.15' })).toEqual([
      'ImportoTotaleDocumento diverso da imponibile più imposta.',
    ]);
    expect(
      sdiArithmeticErrors({ ...doc, lines: [{ ...doc.lines[0]!, total: '9.90' }] }).some((e) =>
        e.includes('PrezzoTotale'),
      ),
    ).toBe(true);
    expect(sdiArithmeticErrors({ ...doc, summaries: [] })).toEqual([
      'Manca il riepilogo IVA dell’aliquota 22.00.',
      'ImportoTotaleDocumento diverso da imponibile più imposta.',
    ]);
    const zero = figures([{ unitPriceCents: 100, quantity: 1, vat: 0, natura: 'N2.2' }]).doc;
    expect(sdiArithmeticErrors(zero)).toEqual([]);
    expect(sdiArithmeticErrors({ ...zero, lines: [{ ...zero.lines[0]!, natura: null }] })).toContain(
      'Linea 1: aliquota 0 senza Natura.',
    );
  });

  test.prop([fc.string({ unit: 'binary', maxLength: 60 })])('toLatin1 leaves only Latin-1 text', (s) => {
    expect(toLatin1(s)).toMatch(/^[\u0020-\u007E\u00A0-\u00FF]*$/);
  });
});
