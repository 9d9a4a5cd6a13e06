/**
 * Pure checks of Italian identifiers and contact fields, shared by the SPA (wizard, forms) and the
 * server (input schemas). Each takes the trimmed value; "empty means absent" is the caller's rule.
 */

/** Italian messages of these checks. The spec names none of them; they live here, once. */
export const validationMessages = {
  pecInvalid: 'Formato PEC non valido.',
  phoneInvalid: 'Numero di telefono non valido: solo cifre, spazi e un + iniziale (da 6 a 20 caratteri).',
  sdiInvalid: 'Il codice SDI deve contenere esattamente 7 caratteri alfanumerici.',
  vatInvalid: 'Partita IVA non valida: servono 11 cifre con la cifra di controllo corretta.',
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
