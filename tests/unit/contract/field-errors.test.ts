import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, plainMessages, splitFieldError } from '../../../contract/field-errors';
import { userVatCodeField } from '../../../contract/schemas/user';
import { validationMessages } from '../../../contract/validation/italian';

describe("the envelope's 'field: message' errors", () => {
  it.each([
    ['vatCode: Partita IVA non valida: 11 cifre', 'vatCode', 'Partita IVA non valida: 11 cifre'],
    ['billingAddress.zip: Il CAP è obbligatorio.', 'billingAddress.zip', 'Il CAP è obbligatorio.'],
    ['items[0].name: obbligatorio', 'items[0].name', 'obbligatorio'],
    ['X-Tenant-Id: Identificativo non valido.', 'X-Tenant-Id', 'Identificativo non valido.'],
    // An Italian message with a colon of its own names no field.
    ['Partita IVA non valida: servono 11 cifre', null, 'Partita IVA non valida: servono 11 cifre'],
    ['Riferimento a un elemento inesistente.', null, 'Riferimento a un elemento inesistente.'],
  ])('%s', (entry, field, message) => {
    expect(splitFieldError(entry)).toEqual({ field, message });
  });

  it('keeps the first message of each field, and lists messages without keys', () => {
    const errors = ['apiUrl: obbligatorio', 'apiUrl: non valido', 'name: obbligatorio', 'Generico.'];
    expect(fieldErrorsOf(errors)).toEqual({ apiUrl: 'obbligatorio', name: 'obbligatorio' });
    expect(plainMessages(errors)).toEqual(['obbligatorio', 'non valido', 'Generico.']);
  });
});

describe('Partita IVA: Italian with its check digit, or a foreign EU VAT number with its prefix', () => {
  it.each([
    ['01234567897', '01234567897'],
    ['IT01234567897', 'IT01234567897'],
    ['de 123456789', 'DE123456789'],
    ['FRXX123456789', 'FRXX123456789'],
    ['', null],
  ])('accepts %s (stored as %s)', (input, stored) => {
    expect(userVatCodeField.parse(input)).toBe(stored);
  });

  it.each(['01234567890', 'IT01234567890', 'US123456789', '1234', 'DE'])(
    'refuses %s, saying which format',
    (input) => {
      const result = userVatCodeField.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(validationMessages.vatInvalid);
    },
  );
});
