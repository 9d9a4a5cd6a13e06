/**
 * The demo's fixtures: names, places, plans and the story of every demo subscription (who, which
 * plan, paid how, when), plus the seeded generator. The engine that turns them into rows is
 * demo-billing.ts.
 */
import { SubscriptionStatus } from '../../../contract/subscription-status';

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

/** Demo Srl's people: [name, e-mail] (26 persons) and companies (10). */
export const DEMO_PERSONS: readonly (readonly [string, string])[] = [
  ['Giulia Romano', 'giulia.romano@example.it'],
  ['Alessandro Colombo', 'alessandro.colombo@example.com'],
  ['Francesca Ricci', 'francesca.ricci@example.it'],
  ['Marco Marino', 'm.marino@example.com'],
  ['Chiara Greco', 'chiara.greco@example.it'],
  ['Luca Bruno', 'luca.bruno84@example.com'],
  ['Sara Gallo', 'sara.gallo@example.it'],
  ['Matteo Conti', 'matteo.conti@example.com'],
  ['Valentina De Luca', 'valentina.deluca@example.it'],
  ['Davide Mancini', 'davide.mancini@example.com'],
  ['Elena Costa', 'elena.costa@example.it'],
  ['Simone Giordano', 's.giordano@example.com'],
  ['Martina Rizzo', 'martina.rizzo@example.it'],
  ['Andrea Lombardi', 'andrea.lombardi@example.com'],
  ['Federica Moretti', 'federica.moretti@example.it'],
  ['Stefano Barbieri', 'stefano.barbieri@example.com'],
  ['Alessia Fontana', 'alessia.fontana@example.it'],
  ['Riccardo Santoro', 'riccardo.santoro@example.com'],
  ['Silvia Mariani', 'silvia.mariani@example.it'],
  ['Giorgio Rinaldi', 'giorgio.rinaldi@example.com'],
  ['Ilaria Caruso', 'ilaria.caruso@example.it'],
  ['Fabio Ferrara', 'fabio.ferrara@example.com'],
  ['Roberta Galli', 'roberta.galli@example.it'],
  ['Daniele Martini', 'daniele.martini@example.com'],
  ['Serena Leone', 'serena.leone91@example.it'],
  ["Nicola D'Angelo", 'nicola.dangelo@example.com'],
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

export const ROSSI_CUSTOMERS: readonly (readonly [string, string, boolean, Place])[] = [
  ['Trattoria Da Gino Snc', 'info@trattoriadagino.example.it', true, ['Bologna', 'BO']],
  ['Elena Marchetti', 'elena.marchetti@example.it', false, ['Modena', 'MO']],
  ['Ferretti Costruzioni Srl', 'amministrazione@ferretti-costruzioni.example.it', true, ['Parma', 'PR']],
  ['Paolo Santini', 'paolo.santini@example.com', false, ['Rimini', 'RN']],
  ['Bottega Riva Sas', 'contabilita@bottegariva.example.it', true, ["Reggio nell'Emilia", 'RE']],
];

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

/** The sellers' billing profiles: Demo Srl in Milan, Studio Rossi in Bologna. */
export const PROFILES = {
  'Demo Srl': {
    legalName: 'Demo Srl',
    vatCode: '09876540155',
    street: 'Piazza Duomo 1',
    place: ['Milano', 'MI'] as Place,
    pec: 'demosrl@pec.example.it',
    iban: 'IT60X0542811101000000123456',
    accountHolder: 'Demo Srl',
  },
  'Studio Rossi': {
    legalName: 'Studio Rossi & Associati',
    vatCode: '03456780372',
    street: 'Via dell’Indipendenza 8',
    place: ['Bologna', 'BO'] as Place,
    pec: 'studiorossi@pec.example.it',
    iban: 'IT30L0306902400100000004321',
    accountHolder: 'Studio Rossi & Associati',
  },
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
const confirmed = (plan: string, days: Spec['days'], installments: 1 | 2 = 1): Spec => ({
  plan,
  days,
  story: { kind: 'transferConfirmed', installments },
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
];

// ---------------------------------------------------------------------------------------------
// Building the rows in memory
