import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { computeTotals, naturaIds, type Natura } from '../../../contract/invoice/fatturapa';
import {
  buildFatturaXml,
  fatturaErrors,
  fatturaErrorsMany,
  xsdErrors,
  type InvoiceDocument,
} from '../../../server/modules/invoice/fatturapa';

const xsd = (name: string) => new URL(`../../../server/modules/invoice/xsd/${name}`, import.meta.url);

/** A complete, valid document; tests break one thing at a time. */
function sample(lines: InvoiceDocument['lines'] = []): InvoiceDocument {
  const l =
    lines.length > 0
      ? lines
      : [
          {
            description: 'Abbonamento «Basic» dal 10/03/2026 al 09/04/2026',
            quantity: 1,
            unitPriceCents: 990,
            totalCents: 990,
            vat: 2200,
            natura: null,
            periodStart: '2026-03-10',
            periodEnd: '2026-04-09',
          },
        ];
  const totals = computeTotals(
    l.map((x) => ({ unitPriceCents: x.unitPriceCents, quantity: x.quantity, vat: x.vat, natura: x.natura })),
  );
  return {
    documentType: 'TD01',
    format: 'FPR12',
    progressive: '0QGLQ',
    fileName: 'IT09876540155_0QGLQ.xml',
    number: '2026/000001',
    date: '2026-03-10',
    transmitter: { country: 'IT', code: '09876540155' },
    recipientCode: 'M5UXCR1',
    recipientPec: null,
    seller: {
      vat: { country: 'IT', code: '09876540155' },
      fiscalCode: null,
      name: { company: 'Demo Srl' },
      taxRegime: 'RF01',
      pec: null,
      address: { street: 'Piazza Duomo 1', zip: '20121', city: 'Milano', province: 'MI', country: 'IT' },
    },
    buyer: {
      vat: { country: 'IT', code: '12345678903' },
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
    lines: l,
    summaries: totals.summaries,
    taxableCents: totals.taxableCents,
    taxCents: totals.taxCents,
    totalCents: totals.totalCents,
    payment: { method: 'MP05', amountCents: totals.totalCents, iban: null, paidOn: '2026-03-10' },
    related: null,
    causale: null,
  };
}

describe('the official FatturaPA schema, copied into the repository', () => {
  it('is byte for byte the published one (sha256 as in its README)', () => {
    const sha = (name: string) =>
      createHash('sha256')
        .update(readFileSync(xsd(name)))
        .digest('hex');
    expect(sha('Schema_del_file_xml_FatturaPA_v1.2.2.xsd')).toBe(
      '818ae9a63c778bcad35001a10298ac7e7ff317444c687c1d433c9eae5ab6aaf6',
    );
    expect(sha('xmldsig-core-schema.xsd')).toBe(
      '76e4a6d9c876e11c2d9230e084fa28220968c7361d1ac671f17d321e8fc7de87',
    );
  });

  it('accepts the builder’s file, offline', async () => {
    expect(await fatturaErrors(buildFatturaXml(sample()))).toEqual([]);
  });

  it('refuses a file without RegimeFiscale, with the validator’s message', async () => {
    const xml = buildFatturaXml(sample()).replace('<RegimeFiscale>RF01</RegimeFiscale>', '');
    const errors = await xsdErrors(xml);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Element 'DatiAnagrafici': Missing child element(s)");
    expect(errors[0]).toContain('RegimeFiscale');
  });

  it('refuses 22 instead of 22.00', async () => {
    const xml = buildFatturaXml(sample()).replace(
      /<AliquotaIVA>22\.00<\/AliquotaIVA>/g,
      '<AliquotaIVA>22</AliquotaIVA>',
    );
    const errors = await xsdErrors(xml);
    expect(errors[0]).toContain("Element 'AliquotaIVA': [facet 'pattern'] The value '22' is not accepted");
  });

  it('refuses a € in a description (Latin-1 only); the builder writes EUR instead', async () => {
    const good = buildFatturaXml(sample());
    const broken = good.replace(
      /<Descrizione>[^<]*<\/Descrizione>/,
      '<Descrizione>Canone 9,90 € – marzo</Descrizione>',
    );
    const errors = await xsdErrors(broken);
    expect(errors[0]).toContain("Element 'Descrizione'");
    expect(errors[0]).toContain('is not accepted by the pattern');
    const doc = sample();
    doc.lines[0]!.description = 'Canone 9,90 € – marzo “pro”';
    const built = buildFatturaXml(doc);
    expect(built).toContain('<Descrizione>Canone 9,90 EUR - marzo "pro"</Descrizione>');
    expect(await xsdErrors(built)).toEqual([]);
  });

  it('refuses what the schema allows but the SdI does not: totals that do not add up, 0 % without Natura', async () => {
    const wrongTax = buildFatturaXml(sample()).replace('<Imposta>2.18</Imposta>', '<Imposta>2.20</Imposta>');
    expect(await xsdErrors(wrongTax)).toEqual([]);
    expect(await fatturaErrors(wrongTax)).toEqual([
      'Riepilogo 22.00: Imposta diversa da ImponibileImporto × AliquotaIVA.',
      'ImportoTotaleDocumento diverso da imponibile più imposta.',
    ]);
    const zero = sample();
    zero.lines[0]!.vat = 0;
    zero.summaries = [{ vat: 0, natura: null, taxableCents: 990, taxCents: 0 }];
    zero.totalCents = 990;
    zero.payment = { ...zero.payment, amountCents: 990 };
    expect(await fatturaErrors(buildFatturaXml(zero))).toEqual(['Linea 1: aliquota 0 senza Natura.']);
    // Issue 30: ImportoPagamento never above the total; a set-off in Causale must add up.
    const over = sample();
    over.payment = { ...over.payment, amountCents: over.totalCents + 1 };
    expect(await fatturaErrors(buildFatturaXml(over))).toEqual([
      'ImportoPagamento negativo o maggiore di ImportoTotaleDocumento.',
    ]);
    const setOff = sample();
    setOff.payment = { ...setOff.payment, amountCents: setOff.totalCents - 100 };
    setOff.causale =
      'Compensato credito residuo di € 1,00 della nota di credito n. 2027/000003 del 15/02/2027';
    expect(await fatturaErrors(buildFatturaXml(setOff))).toEqual([]);
    setOff.causale =
      'Compensato credito residuo di € 0,99 della nota di credito n. 2027/000003 del 15/02/2027';
    expect(await fatturaErrors(buildFatturaXml(setOff))).toEqual([
      'ImportoPagamento più il credito compensato in Causale diverso da quanto dovuto.',
    ]);
  });

  it('checks many files in one run and answers each its own verdict, as one by one', async () => {
    const good = buildFatturaXml(sample());
    const noRegime = good.replace('<RegimeFiscale>RF01</RegimeFiscale>', '');
    const wrongTax = good.replace('<Imposta>2.18</Imposta>', '<Imposta>2.20</Imposta>');
    const files = [good, noRegime, good, wrongTax];
    const many = await fatturaErrorsMany(files);
    expect(many).toEqual(await Promise.all(files.map((xml) => fatturaErrors(xml))));
    expect(many.map((errors) => errors.length > 0)).toEqual([false, true, false, true]);
    expect(await fatturaErrorsMany([])).toEqual([]);
  });
});

const rates = fc.constantFrom(2200, 1000, 500, 400, 0);
const line = fc
  .record({
    unitPriceCents: fc.integer({ min: 1, max: 500_000 }),
    quantity: fc.integer({ min: 1, max: 12 }),
    vat: rates,
    natura: fc.constantFrom(...(naturaIds as Natura[])),
  })
  .map((l) => ({ ...l, natura: l.vat === 0 ? l.natura : null }));

/** One property per invoice size, each validated by the real XSD (a fresh xmllint per file). */
function acceptedFile(
  lines: Array<{ unitPriceCents: number; quantity: number; vat: number; natura: Natura | null }>,
) {
  const doc = sample(
    lines.map((l, i) => ({
      description: `Riga ${i + 1}`,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      totalCents: l.unitPriceCents * l.quantity,
      vat: l.vat,
      natura: l.natura,
      periodStart: null,
      periodEnd: null,
    })),
  );
  return fatturaErrors(buildFatturaXml(doc));
}

// Six XSD validations per property: seconds on a loaded machine, so a minute each.
describe('any set of lines and rates (property, through the real XSD)', () => {
  test.prop([fc.array(line, { minLength: 1, maxLength: 3 })], { numRuns: 6 })(
    'builds a file the schema and the SdI arithmetic accept: one to three lines',
    async (lines) => {
      expect(await acceptedFile(lines)).toEqual([]);
    },
    60_000,
  );
  test.prop([fc.array(line, { minLength: 4, maxLength: 6 })], { numRuns: 6 })(
    'builds a file the schema and the SdI arithmetic accept: four to six lines',
    async (lines) => {
      expect(await acceptedFile(lines)).toEqual([]);
    },
    60_000,
  );
});
