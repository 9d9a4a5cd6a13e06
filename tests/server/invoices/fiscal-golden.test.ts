/**
 * The five golden documents of issue 27 written as FatturaPA files: each valid against the
 * official XSD and the SdI's arithmetic (cassa included), and checked element by element against
 * the figures worked by hand (docs/fiscal-rules.md). Then any random profile's file validates.
 */
import { fc, test } from '@fast-check/vitest';
import { create } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import {
  computeDocument,
  legalReferences,
  pensionFundTypes,
  type CustomerProfile,
  type DocumentInput,
  type SellerProfile,
} from '../../../contract/invoice/fiscal-document';
import { taxRegimes } from '../../../contract/validation/italian';
import {
  buildFatturaXml,
  fatturaErrors,
  fatturaErrorsMany,
  fiscalParts,
  type InvoiceDocument,
  type InvoiceParty,
} from '../../../server/modules/invoice/fatturapa';

const italianCompany: InvoiceParty & { email: null } = {
  vat: { country: 'IT', code: '12345678903' },
  fiscalCode: null,
  name: { company: 'Bianchi Consulting Srl' },
  email: null,
  address: { street: 'Corso Buenos Aires 45', zip: '20124', city: 'Milano', province: 'MI', country: 'IT' },
};
const publicBody: InvoiceParty & { email: null } = {
  vat: null,
  fiscalCode: '80012345678',
  name: { company: 'Comune di Esempio' },
  email: null,
  address: { street: 'Piazza del Municipio 1', zip: '00100', city: 'Roma', province: 'RM', country: 'IT' },
};
const germanCompany: InvoiceParty & { email: null } = {
  vat: { country: 'DE', code: '123456789' },
  fiscalCode: null,
  name: { company: 'Beispiel GmbH' },
  email: null,
  // A foreign address: CAP 00000, no province (FatturaPA specifications, CessionarioCommittente).
  address: { street: 'Hauptstrasse 1', zip: '00000', city: 'Berlin', province: null, country: 'DE' },
};

const frenchPerson: InvoiceParty & { email: null } = {
  // A consumer abroad has no VAT number nor codice fiscale: their country and the generic
  // identifier (buyerParty, FOREIGN_CONSUMER_ID).
  vat: { country: 'FR', code: '99999999999' },
  fiscalCode: null,
  name: { first: 'Camille', last: 'Martin' },
  email: null,
  address: { street: 'Rue de Rivoli 10', zip: '00000', city: 'Paris', province: null, country: 'FR' },
};

const profiles = {
  italianCompany: { countryCode: 'IT', isCompany: true, withholdingAgent: true, publicAdministration: false },
  publicBody: { countryCode: 'IT', isCompany: true, withholdingAgent: true, publicAdministration: true },
  germanCompany: { countryCode: 'DE', isCompany: true, withholdingAgent: false, publicAdministration: false },
  frenchPerson: { countryCode: 'FR', isCompany: false, withholdingAgent: false, publicAdministration: false },
} satisfies Record<string, CustomerProfile>;

const ordinary: SellerProfile = {
  taxRegime: 'RF01',
  pensionFund: null,
  withholdingTax: null,
  stampDutyToCustomer: false,
};
const fee = [{ description: 'Consulenza mensile', quantity: 1, unitPriceCents: 100_000 }];

function fileOf(input: DocumentInput, buyer: InvoiceParty & { email: null }, pa = false): string {
  const fd = computeDocument(input);
  const doc: InvoiceDocument = {
    documentType: 'TD01',
    format: pa ? 'FPA12' : 'FPR12',
    progressive: '00001',
    fileName: 'IT09876540155_00001.xml',
    number: '2026/000001',
    date: '2026-03-10',
    transmitter: { country: 'IT', code: '09876540155' },
    // A public body's IPA office code (6 characters); 'XXXXXXX' for a recipient abroad.
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
    order: pa ? { id: 'Determina 12/2026', cig: 'Z1A2B3C4D5' } : null,
    payment: { method: 'MP05', amountCents: fd.netToPayCents, iban: null, paidOn: '2026-03-10' },
    related: null,
    causale: null,
  };
  return buildFatturaXml(doc);
}

interface El {
  getElementsByTagName(tag: string): ArrayLike<El>;
  textContent: string | null;
}
/** Every value of `path` ('DatiRitenuta/ImportoRitenuta'), in document order. */
function values(xml: string, path: string): string[] {
  const [parent, child] = path.split('/') as [string, string | undefined];
  const dom = create(xml).node as unknown as El;
  return Array.from(dom.getElementsByTagName(parent)).flatMap((el) =>
    child
      ? Array.from(el.getElementsByTagName(child)).map((c) => c.textContent ?? '')
      : [el.textContent ?? ''],
  );
}

describe('golden documents as FatturaPA files', () => {
  it('(1) Gestione Separata professional to a company: rivalsa TC22 with Ritenuta SI, ritenuta 208,00', async () => {
    const xml = fileOf(
      {
        seller: { ...ordinary, pensionFund: { type: 'TC22', rate: 400 }, withholdingTax: 'RT01' },
        customer: profiles.italianCompany,
        charges: fee,
        plan: { vat: 2200, natura: null },
      },
      italianCompany,
    );
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(values(xml, 'DatiRitenuta/TipoRitenuta')).toEqual(['RT01']);
    expect(values(xml, 'DatiRitenuta/ImportoRitenuta')).toEqual(['208.00']);
    expect(values(xml, 'DatiRitenuta/AliquotaRitenuta')).toEqual(['20.00']);
    expect(values(xml, 'DatiRitenuta/CausalePagamento')).toEqual(['A']);
    expect(values(xml, 'DatiCassaPrevidenziale/TipoCassa')).toEqual(['TC22']);
    expect(values(xml, 'DatiCassaPrevidenziale/ImportoContributoCassa')).toEqual(['40.00']);
    expect(values(xml, 'DatiCassaPrevidenziale/ImponibileCassa')).toEqual(['1000.00']);
    expect(values(xml, 'DatiCassaPrevidenziale/Ritenuta')).toEqual(['SI']);
    expect(values(xml, 'DettaglioLinee/Ritenuta')).toEqual(['SI']);
    expect(values(xml, 'DatiRiepilogo/ImponibileImporto')).toEqual(['1040.00']);
    expect(values(xml, 'DatiRiepilogo/Imposta')).toEqual(['228.80']);
    expect(values(xml, 'ImportoTotaleDocumento')).toEqual(['1268.80']);
    expect(values(xml, 'DettaglioPagamento/ImportoPagamento')).toEqual(['1060.80']);
    expect(values(xml, 'DatiBollo')).toEqual([]);
  });

  it('(2) Inarcassa TC04 4 %: the cassa has no Ritenuta element; 200,00 withheld, 1.068,80 to pay', async () => {
    const xml = fileOf(
      {
        seller: { ...ordinary, pensionFund: { type: 'TC04', rate: 400 }, withholdingTax: 'RT01' },
        customer: profiles.italianCompany,
        charges: fee,
        plan: { vat: 2200, natura: null },
      },
      italianCompany,
    );
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(values(xml, 'DatiCassaPrevidenziale/Ritenuta')).toEqual([]);
    expect(values(xml, 'ImportoTotaleDocumento')).toEqual(['1268.80']);
    expect(values(xml, 'DatiRitenuta/ImportoRitenuta')).toEqual(['200.00']);
    expect(values(xml, 'DettaglioPagamento/ImportoPagamento')).toEqual(['1068.80']);
  });

  it('(3) forfettario with rivalsa and the bollo charged: RF19, N2.2 with its reference, DatiBollo, 1.042,00', async () => {
    const xml = fileOf(
      {
        seller: {
          taxRegime: 'RF19',
          pensionFund: { type: 'TC22', rate: 400 },
          withholdingTax: 'RT01',
          stampDutyToCustomer: true,
        },
        customer: profiles.italianCompany,
        charges: fee,
        plan: { vat: 2200, natura: null },
      },
      italianCompany,
    );
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(values(xml, 'RegimeFiscale')).toEqual(['RF19']);
    expect(values(xml, 'DatiRitenuta')).toEqual([]);
    expect(values(xml, 'DatiBollo/BolloVirtuale')).toEqual(['SI']);
    expect(values(xml, 'DatiBollo/ImportoBollo')).toEqual(['2.00']);
    expect(values(xml, 'DettaglioLinee/Natura')).toEqual(['N2.2', 'N1']);
    expect(values(xml, 'DatiCassaPrevidenziale/Natura')).toEqual(['N2.2']);
    expect(values(xml, 'DatiRiepilogo/Natura')).toEqual(['N2.2', 'N1']);
    expect(values(xml, 'DatiRiepilogo/ImponibileImporto')).toEqual(['1040.00', '2.00']);
    expect(values(xml, 'DatiRiepilogo/RiferimentoNormativo')).toEqual([
      legalReferences.forfettario,
      legalReferences.stampDuty,
    ]);
    expect(values(xml, 'ImportoTotaleDocumento')).toEqual(['1042.00']);
    expect(values(xml, 'DettaglioPagamento/ImportoPagamento')).toEqual(['1042.00']);
  });

  it('(4) a company to a public body: FPA12 with the CIG, EsigibilitaIVA S, 1.000,00 to pay', async () => {
    const xml = fileOf(
      { seller: ordinary, customer: profiles.publicBody, charges: fee, plan: { vat: 2200, natura: null } },
      publicBody,
      true,
    );
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(values(xml, 'FormatoTrasmissione')).toEqual(['FPA12']);
    expect(values(xml, 'DatiOrdineAcquisto/CodiceCIG')).toEqual(['Z1A2B3C4D5']);
    expect(values(xml, 'DatiRiepilogo/Imposta')).toEqual(['220.00']);
    expect(values(xml, 'DatiRiepilogo/EsigibilitaIVA')).toEqual(['S']);
    expect(values(xml, 'ImportoTotaleDocumento')).toEqual(['1220.00']);
    expect(values(xml, 'DettaglioPagamento/ImportoPagamento')).toEqual(['1000.00']);
  });

  it('(5) to an EU business: 0 % N2.1 with the reverse-charge reference, recipient XXXXXXX', async () => {
    const xml = fileOf(
      { seller: ordinary, customer: profiles.germanCompany, charges: fee, plan: { vat: 2200, natura: null } },
      germanCompany,
    );
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(values(xml, 'CodiceDestinatario')).toEqual(['XXXXXXX']);
    expect(values(xml, 'DatiRiepilogo/Natura')).toEqual(['N2.1']);
    expect(values(xml, 'DatiRiepilogo/RiferimentoNormativo')).toEqual([legalReferences.euBusiness]);
    expect(values(xml, 'DatiBollo/ImportoBollo')).toEqual(['2.00']);
    expect(values(xml, 'ImportoTotaleDocumento')).toEqual(['1000.00']);
  });

  it('(6) OSS to a French private person: fee and TVA 20 % both 0 % N7, total 59,88, no bollo', async () => {
    const xml = fileOf(
      {
        seller: { ...ordinary, oss: true },
        customer: profiles.frenchPerson,
        charges: [{ description: 'Corso online', quantity: 1, unitPriceCents: 4990 }],
        plan: { vat: 2200, natura: null },
      },
      frenchPerson,
    );
    expect(await fatturaErrors(xml)).toEqual([]);
    expect(values(xml, 'DettaglioLinee/Descrizione')).toEqual([
      'Corso online',
      'IVA FR 20,00% assolta tramite OSS',
    ]);
    expect(values(xml, 'DettaglioLinee/PrezzoTotale')).toEqual(['49.90', '9.98']);
    expect(values(xml, 'DettaglioLinee/AliquotaIVA')).toEqual(['0.00', '0.00']);
    expect(values(xml, 'DettaglioLinee/Natura')).toEqual(['N7', 'N7']);
    expect(values(xml, 'DatiRiepilogo/Natura')).toEqual(['N7']);
    expect(values(xml, 'CessionarioCommittente/IdPaese')).toEqual(['FR']);
    expect(values(xml, 'CessionarioCommittente/IdCodice')).toEqual(['99999999999']);
    expect(values(xml, 'DatiRiepilogo/ImponibileImporto')).toEqual(['59.88']);
    expect(values(xml, 'DatiRiepilogo/Imposta')).toEqual(['0.00']);
    expect(values(xml, 'DatiRiepilogo/RiferimentoNormativo')).toEqual([legalReferences.oss]);
    expect(values(xml, 'DatiBollo')).toEqual([]);
    expect(values(xml, 'ImportoTotaleDocumento')).toEqual(['59.88']);
    expect(values(xml, 'DettaglioPagamento/ImportoPagamento')).toEqual(['59.88']);
  });
});

const buyerOf = (i: DocumentInput) =>
  i.customer.countryCode === 'DE'
    ? germanCompany
    : i.customer.countryCode === 'FR'
      ? frenchPerson
      : italianCompany;

describe('any profile', () => {
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
    customer: fc.constantFrom(profiles.italianCompany, profiles.germanCompany, profiles.frenchPerson, {
      ...profiles.italianCompany,
      isCompany: false,
      withholdingAgent: false,
    }),
    charges: fc.array(
      fc.record({
        description: fc.constant('Canone'),
        quantity: fc.integer({ min: 1, max: 12 }),
        unitPriceCents: fc.integer({ min: 0, max: 5_000_000 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    plan: fc.constantFrom({ vat: 2200, natura: null }, { vat: 1000, natura: null }),
  });

  // Each run validates a file against the XSD (about 0,1–1 s on a loaded machine): 12 profiles.
  test.prop([input], { numRuns: 12 })(
    'writes a file the XSD and the SdI arithmetic accept',
    async (i) => {
      expect(await fatturaErrors(fileOf(i, buyerOf(i)))).toEqual([]);
    },
    120_000,
  );

  it('200 more random profiles, checked in one run of the validator', async () => {
    const inputs = fc.sample(input, { numRuns: 200, seed: 27 });
    const verdicts = await fatturaErrorsMany(inputs.map((i) => fileOf(i, buyerOf(i))));
    expect(verdicts.filter((v) => v.length > 0)).toEqual([]);
    expect(verdicts).toHaveLength(200);
  }, 120_000);
});
