/**
 * Pure checks of Italian identifiers and contact fields, shared by the SPA (wizard, forms) and the
 * server (input schemas). Each takes the trimmed value; "empty means absent" is the caller's rule.
 */

/** Italian messages of these checks. The spec names none of them; they live here, once. */
export const validationMessages = {
  pecInvalid: 'Formato PEC non valido.',
  phoneInvalid: 'Numero di telefono non valido: solo cifre, spazi e un + iniziale (da 6 a 20 caratteri).',
  sdiInvalid: 'Il codice SDI deve contenere esattamente 7 caratteri alfanumerici.',
  vatInvalid:
    'Partita IVA non valida: 11 cifre con la cifra di controllo corretta, oppure, per un cliente estero, il numero IVA UE con il prefisso del paese (es. DE123456789).',
  roleInvalid: 'Ruolo non valido.',
  zipRequired: 'Il CAP è obbligatorio.',
  planNameRequired: 'Il nome del piano è obbligatorio.',
  costRequired: 'Il costo è obbligatorio.',
  costInvalid: 'Il costo deve essere un numero maggiore o uguale a 0, con al massimo 2 decimali.',
  vatRequired: 'La percentuale IVA è obbligatoria.',
  vatPercentageInvalid: 'La percentuale IVA deve essere un numero tra 0 e 100, con al massimo 2 decimali.',
  recurrenceRequired: 'La ricorrenza è obbligatoria.',
  recurrenceInvalid: 'Ricorrenza non valida: scegli 1, 2, 3, 4, 6 o 12 mesi.',
  featureNameRequired: 'Il nome della funzionalità è obbligatorio.',
  planRequired: 'Il piano è obbligatorio.',
  providerNameRequired: 'Il nome è obbligatorio.',
  apiUrlRequired: 'L’URL dell’API è obbligatorio.',
  apiUrlInvalid: 'L’URL dell’API deve iniziare con https:// (o http:// in locale).',
  apiKeyRequired: 'Il Client ID (API key) è obbligatorio.',
  apiSecretRequired: 'Il secret è obbligatorio per una nuova configurazione.',
  tenantNameRequired: 'Il nome del tenant è obbligatorio.',
  provinceNotInRegion: 'La provincia scelta non appartiene alla regione indicata.',
  municipalityNotInProvince: 'Il comune scelto non appartiene alla provincia indicata.',
  regionCodeTaken: 'Esiste già una regione con questo codice.',
  planNameTaken: 'Esiste già un piano con questo nome.',
  sortUnsupported: 'Ordinamento non supportato.',
} as const;

/**
 * Partita IVA: exactly 11 digits whose last one is the check digit (Luhn-style: digits in odd
 * positions summed as they are, digits in even positions doubled and reduced by 9 when above 9).
 * The all-zero number passes the arithmetic but is not a real registration, so it is refused.
 */
export function isValidPartitaIva(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^0{11}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    let d = value.charCodeAt(i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10 === value.charCodeAt(10) - 48;
}

/** Codice destinatario SDI: exactly 7 letters or digits (e.g. 0000000, M5UXCR1). */
export function isValidSdiCode(value: string): boolean {
  return /^[A-Za-z0-9]{7}$/.test(value);
}

/** Phone: digits and spaces with an optional leading +, 6 to 20 characters in all. */
export function isValidPhone(value: string): boolean {
  return value.length >= 6 && value.length <= 20 && /^\+?[0-9][0-9 ]*$/.test(value);
}

/**
 * A basic e-mail shape (one @, a dot in the domain, no spaces): what the wizard calls
 * "formato email". The same check runs on the server.
 */
export function isValidEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/** Messages of the seller's billing profile and of billing calls. */
export const billingValidationMessages = {
  legalNameRequired: 'La ragione sociale è obbligatoria.',
  sellerVatInvalid:
    'Partita IVA non valida: 11 cifre con la cifra di controllo corretta, oppure un numero IVA UE con il prefisso del paese (es. DE123456789).',
  fiscalCodeInvalid:
    'Codice fiscale non valido: 16 caratteri con il carattere di controllo corretto, oppure 11 cifre per una società.',
  taxRegimeInvalid: 'Regime fiscale non valido: da RF01 a RF19.',
  ibanInvalid: 'IBAN non valido: controlla paese, cifre di controllo e lunghezza.',
  zipInvalid: 'Il CAP deve contenere 5 cifre.',
  userRequired: 'Il cliente è obbligatorio.',
  planRequired: 'Il piano è obbligatorio.',
  costInvalid: 'Il costo deve essere un numero maggiore o uguale a 0, con al massimo 2 decimali.',
  vatInvalid: 'L’IVA deve essere un numero tra 0 e 100, con al massimo 2 decimali.',
  startDateInvalid: 'Data di inizio non valida.',
  amountInvalid: 'L’importo deve essere maggiore di 0, con al massimo 2 decimali.',
  approvalDateInvalid: 'Data di approvazione non valida.',
  paymentRequired: 'Il pagamento è obbligatorio.',
  smtpHostInvalid: 'Server SMTP non valido: solo il nome del server (es. smtps.pec.aruba.it).',
  smtpPortInvalid: 'Porta SMTP non valida: un numero da 1 a 65535 (di solito 465).',
  pensionFundTypeInvalid: 'Cassa previdenziale non valida: da TC01 a TC22.',
  pensionFundRateInvalid: 'L’aliquota della cassa deve essere tra 0,01 e 100, con al massimo 2 decimali.',
  withholdingTaxInvalid: 'Ritenuta non valida: RT01 (persona fisica) o RT02 (persona giuridica).',
  forfettarioWithholding: 'Un forfettario non è soggetto a ritenuta d’acconto (art. 1 c. 67 L. 190/2014).',
  cigInvalid: 'CIG non valido: 10 lettere o cifre.',
  forfettarioPlanVat:
    'In regime forfettario non si applica l’IVA (art. 1 c. 54-89 L. 190/2014): imposta 0 % e la Natura N2.2.',
} as const;

/** IBAN: country, two check digits and the account (ISO 13616), the mod-97 check equal to 1. */
export function isValidIban(value: string): boolean {
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  if (iban.startsWith('IT') && iban.length !== 27) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rest === 1;
}

/** EU VAT number with its country prefix (not Italy's), e.g. DE123456789, FRXX123456789. */
const EU_VAT_PREFIXES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'EL',
  'ES',
  'FI',
  'FR',
  'HR',
  'HU',
  'IE',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'XI',
];
export function isValidEuVatNumber(value: string): boolean {
  const v = value.replace(/\s+/g, '').toUpperCase();
  return EU_VAT_PREFIXES.includes(v.slice(0, 2)) && /^[A-Z0-9+*]{2,12}$/.test(v.slice(2));
}

/** A seller's or buyer's VAT number: an Italian Partita IVA (optionally IT-prefixed) or an EU one. */
export function isValidVatNumber(value: string): boolean {
  const v = value.replace(/\s+/g, '').toUpperCase();
  if (/^IT\d{11}$/.test(v)) return isValidPartitaIva(v.slice(2));
  return isValidPartitaIva(v) || isValidEuVatNumber(v);
}

const CF_ODD: Record<string, number> = Object.fromEntries(
  [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23].flatMap(
    (v, i) => [[String.fromCharCode(65 + i), v], ...(i < 10 ? [[String(i), v] as const] : [])],
  ),
);

/**
 * Codice fiscale: a person's 16 characters with the check letter (omocodia letters allowed), or a
 * company's 11 digits (then a Partita IVA's check digit).
 */
export function isValidCodiceFiscale(value: string): boolean {
  const cf = value.replace(/\s+/g, '').toUpperCase();
  if (/^\d{11}$/.test(cf)) return isValidPartitaIva(cf);
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(cf))
    return false;
  return codiceFiscaleCheckChar(cf.slice(0, 15)) === cf[15];
}

/**
 * The check letter of a codice fiscale's first 15 characters (DM 23/12/1976): characters in odd
 * positions (1st, 3rd…) weigh by the odd table, the others by their value (digits 0–9, letters
 * A=0…Z=25); the sum modulo 26 is the letter. The same rule gives an Italian IBAN's CIN from ABI,
 * CAB and account (22 characters).
 */
export function codiceFiscaleCheckChar(chars: string): string {
  let sum = 0;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (i % 2 === 0) sum += CF_ODD[ch] ?? 0;
    else sum += /\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** Regime fiscale of FatturaPA: RF01 (ordinario) to RF19 (forfettario). */
export const taxRegimes = [
  'RF01',
  'RF02',
  'RF04',
  'RF05',
  'RF06',
  'RF07',
  'RF08',
  'RF09',
  'RF10',
  'RF11',
  'RF12',
  'RF13',
  'RF14',
  'RF15',
  'RF16',
  'RF17',
  'RF18',
  'RF19',
] as const;
export type TaxRegime = (typeof taxRegimes)[number];
