import { describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { addressInputSchema } from '../../../contract/schemas/address';
import { paymentProviderInputSchema, SECRET_MASK } from '../../../contract/schemas/payment-provider';
import { associateFeaturesSchema, planInputSchema } from '../../../contract/schemas/plan';
import { userInputSchema } from '../../../contract/schemas/user';
import {
  isValidEmail,
  isValidPartitaIva,
  isValidPhone,
  isValidSdiCode,
  validationMessages,
} from '../../../contract/validation/italian';

function issues(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('isValidPartitaIva', () => {
  it('accepts 11 digits with the right check digit', () => {
    expect(isValidPartitaIva('01234567897')).toBe(true);
    expect(isValidPartitaIva('12345678903')).toBe(true);
    expect(isValidPartitaIva('00743110157')).toBe(true);
  });
  it('refuses a wrong check digit, wrong length, letters and all zeros', () => {
    expect(isValidPartitaIva('01234567890')).toBe(false);
    expect(isValidPartitaIva('00743110158')).toBe(false);
    expect(isValidPartitaIva('0123456789')).toBe(false);
    expect(isValidPartitaIva('012345678970')).toBe(false);
    expect(isValidPartitaIva('0123456789A')).toBe(false);
    expect(isValidPartitaIva('00000000000')).toBe(false);
  });
});

describe('other Italian field checks', () => {
  it('SDI: exactly 7 letters or digits', () => {
    expect(isValidSdiCode('M5UXCR1')).toBe(true);
    expect(isValidSdiCode('0000000')).toBe(true);
    expect(isValidSdiCode('M5UXCR')).toBe(false);
    expect(isValidSdiCode('M5UXCR12')).toBe(false);
    expect(isValidSdiCode('M5UX-R1')).toBe(false);
  });
  it('phone: digits, spaces, a leading +, 6 to 20 characters', () => {
    expect(isValidPhone('+39 333 1234567')).toBe(true);
    expect(isValidPhone('012345')).toBe(true);
    expect(isValidPhone('12345')).toBe(false);
    expect(isValidPhone('+39 333 1234567 8901 2')).toBe(false);
    expect(isValidPhone('333-1234567')).toBe(false);
    expect(isValidPhone('39+3331234')).toBe(false);
  });
  it('email: a basic shape', () => {
    expect(isValidEmail('mario.rossi@example.it')).toBe(true);
    expect(isValidEmail('mario@example')).toBe(false);
    expect(isValidEmail('mario rossi@example.it')).toBe(false);
    expect(isValidEmail('@example.it')).toBe(false);
  });
});

describe('userInputSchema', () => {
  const wizardPayload = {
    Name: 'Mario Rossi',
    Email: 'mario@example.it',
    Pec: 'mario@pec.it',
    IsCompany: true,
    IsActive: true,
    SDI: 'm5uxcr1',
    VATCode: '01234567897',
    Phone: '+39 333 1234567',
    Street: 'Via Roma 1',
    ZIP: '10100',
    Region: 1,
    Province: 2,
    Municipality: 3,
    Role: { Id: 2, Name: 'Admin' },
    RoleId: 2,
  };

  it('reads camelCase keys (the server binds PascalCase to them first)', () => {
    const camel = Object.fromEntries(
      Object.entries(wizardPayload).map(([k, v]) => {
        const key =
          { SDI: 'sdi', VATCode: 'vatCode', ZIP: 'zip', RoleId: 'roleId' }[k] ??
          k.charAt(0).toLowerCase() + k.slice(1);
        return [key, v];
      }),
    );
    const out = userInputSchema.parse({ ...camel, password: 'secret' });
    expect(out).toMatchObject({
      name: 'Mario Rossi',
      sdi: 'M5UXCR1',
      roleId: 2,
      role: { id: 2, name: 'Admin' },
      municipality: 3,
    });
    expect(out).not.toHaveProperty('password');
  });

  it('gives the Italian messages', () => {
    const r = userInputSchema.safeParse({
      name: ' ',
      email: 'nope',
      pec: 'x',
      phone: 'abc',
      sdi: '123',
      vatCode: '01234567890',
      roleId: 9,
    });
    expect(issues(r)).toEqual({
      name: messages.wizard.nameRequired,
      email: messages.wizard.emailInvalid,
      pec: validationMessages.pecInvalid,
      phone: validationMessages.phoneInvalid,
      sdi: validationMessages.sdiInvalid,
      vatCode: validationMessages.vatInvalid,
      roleId: validationMessages.roleInvalid,
    });
    expect(issues(userInputSchema.safeParse({ name: 'A', roleId: 2 })).email).toBe(
      messages.wizard.emailRequired,
    );
  });

  it('treats empty optional fields as absent', () => {
    const out = userInputSchema.parse({
      name: 'A',
      email: 'a@b.it',
      pec: '',
      phone: '',
      sdi: '',
      vatCode: '',
      roleId: '3',
      region: '',
      municipality: null,
    });
    expect(out).toMatchObject({
      pec: null,
      phone: null,
      sdi: null,
      vatCode: null,
      roleId: 3,
      region: null,
      municipality: null,
      isActive: true,
      isCompany: false,
    });
  });
});

describe('addressInputSchema', () => {
  it('requires street, zip and municipality', () => {
    expect(issues(addressInputSchema.safeParse({ street: '', zip: '', municipalityId: null }))).toEqual({
      street: messages.wizard.streetRequired,
      zip: validationMessages.zipRequired,
      municipalityId: messages.wizard.municipalityRequired,
    });
    expect(
      addressInputSchema.parse({ street: ' Via Po 2 ', zip: '10100', municipalityId: '7' }),
    ).toMatchObject({ street: 'Via Po 2', municipalityId: 7 });
  });
});

describe('planInputSchema', () => {
  it('requires name, cost, VAT and recurrence', () => {
    expect(
      issues(
        planInputSchema.safeParse({
          name: '',
          recurringCostBeforeVAT: null,
          vatPercentage: null,
          recurrenceType: null,
        }),
      ),
    ).toEqual({
      name: validationMessages.planNameRequired,
      recurringCostBeforeVAT: validationMessages.costRequired,
      vatPercentage: validationMessages.vatRequired,
      recurrenceType: validationMessages.recurrenceRequired,
    });
  });
  it('checks ranges, decimals and the six recurrences', () => {
    expect(
      issues(
        planInputSchema.safeParse({
          name: 'Pro',
          recurringCostBeforeVAT: -1,
          vatPercentage: 100.5,
          recurrenceType: 5,
        }),
      ),
    ).toEqual({
      recurringCostBeforeVAT: validationMessages.costInvalid,
      vatPercentage: validationMessages.vatPercentageInvalid,
      recurrenceType: validationMessages.recurrenceInvalid,
    });
    expect(
      issues(
        planInputSchema.safeParse({
          name: 'Pro',
          recurringCostBeforeVAT: 1.234,
          vatPercentage: 22,
          recurrenceType: 1,
        }),
      ).recurringCostBeforeVAT,
    ).toBe(validationMessages.costInvalid);
    expect(
      planInputSchema.parse({
        name: 'Pro',
        recurringCostBeforeVAT: '19.99',
        vatPercentage: 22,
        recurrenceType: '12',
      }),
    ).toMatchObject({
      recurringCostBeforeVAT: 19.99,
      recurrenceType: 12,
      isActive: true,
    });
  });
  it('associateFeatures binds item keys in any case', () => {
    expect(associateFeaturesSchema.parse([{ FeatureName: 'API', Description: '' }])).toEqual([
      { featureName: 'API', description: null },
    ]);
    expect(associateFeaturesSchema.safeParse([{ featureName: '' }]).success).toBe(false);
  });
});

describe('paymentProviderInputSchema', () => {
  const base = { name: 'PayPal', apiUrl: 'https://api-m.sandbox.paypal.com', apiKey: 'client-id' };
  it('requires the secret on create only', () => {
    expect(issues(paymentProviderInputSchema.safeParse(base)).apiSecret).toBe(
      validationMessages.apiSecretRequired,
    );
    expect(paymentProviderInputSchema.parse({ ...base, id: 4, apiSecret: '' }).apiSecret).toBeNull();
  });
  it('never takes the mask for a new secret', () => {
    expect(paymentProviderInputSchema.parse({ ...base, id: 4, apiSecret: SECRET_MASK }).apiSecret).toBeNull();
    expect(paymentProviderInputSchema.parse({ ...base, apiSecret: 's3cret' }).apiSecret).toBe('s3cret');
  });
  it('checks the URL', () => {
    expect(
      issues(paymentProviderInputSchema.safeParse({ ...base, apiUrl: 'ftp://x', apiSecret: 's' })).apiUrl,
    ).toBe(validationMessages.apiUrlInvalid);
  });
});
