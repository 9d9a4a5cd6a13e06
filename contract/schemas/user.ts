import { z } from 'zod';
import type { RoleId, RoleName } from '../enums';
import { messages } from '../messages';
import { invoiceMessages } from '../messages';
import {
  billingValidationMessages,
  isValidCodiceFiscale,
  isValidEmail,
  isValidVatNumber,
  isValidPhone,
  isValidSdiCode,
  validationMessages,
} from '../validation/italian';
import { bindKeys, blankToNull, optionalRef, optionalText, requiredText } from './fields';
import { idInput, optionalId } from './common';

/** The user's billing address as the server answers it (ids plus the names to show). */
export interface UserBillingAddress {
  street: string | null;
  zip: string | null;
  regionId: number | null;
  region: { id: number; name: string } | null;
  provinceId: number | null;
  province: { id: number; name: string; abbreviation: string } | null;
  municipalityId: number | null;
  municipality: { id: number; name: string } | null;
}

/**
 * A user as every user call answers it (camelCase). There is never a password, a password hash
 * or a reset token in it.
 */
export interface User {
  id: number;
  name: string | null;
  email: string;
  pec: string | null;
  phone: string | null;
  sdi: string | null;
  vatCode: string | null;
  /** Codice fiscale: what a consumer's invoice identifies them by. */
  fiscalCode: string | null;
  /** ISO country of the billing address, 'IT' unless abroad (invoices then go to XXXXXXX). */
  countryCode: string;
  /** City of a billing address abroad. */
  billingCity: string | null;
  /** Codice univoco ufficio (6 characters) of a public administration: FPA12 invoices. */
  paOfficeCode: string | null;
  /** A public administration: split payment, FPA12 (contract 'Fiscal profiles'). */
  publicAdministration: boolean;
  /** CIG of the public administration's order. */
  cig: string | null;
  /** Sostituto d'imposta: withholds the ritenuta (default: an Italian business or public body). */
  withholdingAgent: boolean;
  isCompany: boolean;
  isActive: boolean;
  roleId: RoleId;
  /** 'SuperAdmin' | 'Admin' | 'User' (the list's 'Ruolo utente' column shows it as sent). */
  roleName: RoleName;
  billingAddress: UserBillingAddress | null;
}

// ---- Field schemas, exported so the SPA's wizard and forms check exactly what the server checks.

/** E-mail: required ('L’email è obbligatoria.') and of a basic format ('Formato email non valido.'). */
export const userEmailField = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string({ error: messages.wizard.emailRequired })
    .min(1, { message: messages.wizard.emailRequired })
    .refine(isValidEmail, { message: messages.wizard.emailInvalid }),
);
export const userNameField = requiredText(150, messages.wizard.nameRequired);
export const userPecField = optionalText(254, { test: isValidEmail, message: validationMessages.pecInvalid });
export const userPhoneField = optionalText(20, {
  test: isValidPhone,
  message: validationMessages.phoneInvalid,
});
/** Codice SDI: 7 letters or digits, stored upper-case. */
export const userSdiField = z.preprocess(
  (v) => {
    const b = blankToNull(v);
    return typeof b === 'string' ? b.toUpperCase() : b;
  },
  z.string().refine(isValidSdiCode, { message: validationMessages.sdiInvalid }).nullable().optional(),
);
/**
 * Partita IVA: an Italian number (11 digits with the right check digit, an `IT` prefix allowed),
 * or, for a foreign customer, an EU VAT number with its country prefix (`DE123456789`). Spaces are
 * ignored; stored upper-case.
 */
export const userVatCodeField = z.preprocess(
  (v) => {
    const b = blankToNull(v);
    return typeof b === 'string' ? b.replace(/\s+/g, '').toUpperCase() : b;
  },
  z.string().refine(isValidVatNumber, { message: validationMessages.vatInvalid }).nullable().optional(),
);
const upperNoSpaces = (v: unknown) => {
  const b = blankToNull(v);
  return typeof b === 'string' ? b.replace(/\s+/g, '').toUpperCase() : b;
};
/** Codice fiscale of a person (16 characters) or a company (11 digits), stored upper-case. */
export const userFiscalCodeField = z.preprocess(
  upperNoSpaces,
  z
    .string()
    .refine(isValidCodiceFiscale, { message: billingValidationMessages.fiscalCodeInvalid })
    .nullable()
    .optional(),
);
/** Country of the billing address: two letters, 'IT' when absent. */
export const userCountryField = z.preprocess(
  (v) => upperNoSpaces(v) ?? 'IT',
  z.string().regex(/^[A-Z]{2}$/, { message: invoiceMessages.countryInvalid }),
);
/** Codice univoco ufficio IPA of a public administration: 6 letters or digits. */
export const userPaOfficeCodeField = z.preprocess(
  upperNoSpaces,
  z
    .string()
    .regex(/^[A-Z0-9]{6}$/, { message: invoiceMessages.paOfficeCodeInvalid })
    .nullable()
    .optional(),
);
/** CIG (codice identificativo gara): 10 letters or digits. */
export const userCigField = z.preprocess(
  upperNoSpaces,
  z
    .string()
    .regex(/^[A-Z0-9]{10}$/, { message: billingValidationMessages.cigInvalid })
    .nullable()
    .optional(),
);
/** true / false / 'true' / 'false' / null; absent keeps the stored value. */
const optionalFlag = z.preprocess(
  (v) => (v === '' ? null : v === 'true' ? true : v === 'false' ? false : v),
  z.boolean().nullable().optional(),
);

/**
 * Whether a customer withholds the ritenuta when nothing was said: an Italian business or
 * public body does (art. 23 DPR 600/1973), a private person or a foreign customer does not.
 */
export function defaultWithholdingAgent(c: {
  countryCode: string;
  isCompany: boolean;
  publicAdministration: boolean;
}): boolean {
  return c.countryCode.toUpperCase() === 'IT' && (c.isCompany || c.publicAdministration);
}

/** Role id 1 (SuperAdmin), 2 (Admin) or 3 (User); a numeric string is read as a number. */
export const roleIdField = z.preprocess(
  idInput,
  z.literal([1, 2, 3], { error: validationMessages.roleInvalid }),
);
/** The wizard's `Role: { Id, Name }` (keys in any case). Informative: `roleId` decides. */
export const roleRefField = z.preprocess(
  bindKeys(['id', 'name']),
  z.object({ id: optionalId, name: z.string().max(50).optional().nullable() }),
);
const flag = (fallback: boolean) => z.boolean().optional().default(fallback);

/**
 * Body of `POST api/user/Create` and `PUT api/user/Update` (with `id`).
 *
 * Canonical shape: flat camelCase, the billing address as `street`, `zip`, `region`, `province`,
 * `municipality` (ids). This is what both the SPA's edit form and the wizard send; the wizard
 * sends it PascalCase (`Name`, `SDI`, `VATCode`, `ZIP`, `Region`, `Role: { Id, Name }`, `RoleId`…),
 * which binds case-insensitively to these keys. Unknown keys (e.g. any `password`) are dropped.
 * An empty text or a null id means "absent".
 */
export const userInputSchema = z.object({
  id: optionalId,
  name: userNameField,
  email: userEmailField,
  pec: userPecField,
  phone: userPhoneField,
  sdi: userSdiField,
  vatCode: userVatCodeField,
  fiscalCode: userFiscalCodeField,
  countryCode: userCountryField,
  billingCity: optionalText(100),
  paOfficeCode: userPaOfficeCodeField,
  // Absent keeps what is stored (clients written before the fiscal profiles send none of them).
  publicAdministration: optionalFlag,
  cig: userCigField,
  /** null: back to the default by kind (defaultWithholdingAgent). */
  withholdingAgent: optionalFlag,
  isCompany: flag(false),
  isActive: flag(true),
  roleId: roleIdField,
  role: roleRefField.optional().nullable(),
  street: optionalText(200),
  zip: optionalText(10),
  region: optionalRef,
  province: optionalRef,
  municipality: optionalRef,
  /**
   * The address as GetById answers it (nested). Read only when none of the flat keys above is
   * sent, so a client that sends back the record it read, one field edited, keeps the address.
   */
  billingAddress: z
    .object({
      street: optionalText(200),
      zip: optionalText(10),
      regionId: optionalRef,
      provinceId: optionalRef,
      municipalityId: optionalRef,
    })
    .nullable()
    .optional(),
});
export type UserInput = z.input<typeof userInputSchema>;
export type UserInputParsed = z.output<typeof userInputSchema>;

/**
 * The wizard's payload exactly as spec §3 lists it (PascalCase). The SPA builds it; the server
 * parses it with `userInputSchema`.
 */
export interface UserWizardPayload {
  Name: string;
  Email: string;
  Pec: string | null;
  IsCompany: boolean;
  IsActive: boolean;
  SDI: string | null;
  VATCode: string | null;
  Phone: string | null;
  Street: string;
  ZIP: string;
  Region: number | null;
  Province: number | null;
  Municipality: number;
  Role: { Id: RoleId; Name: RoleName };
  RoleId: RoleId;
}

// ---- The customer's own billing data (issue 28: 'Dati di fatturazione' of the customer area).

/**
 * Body of `PUT api/user/me/billing`: what a customer edits of their own record in the selected
 * tenant, with the same field schemas as user Create/Update (one set of Italian messages). E-mail,
 * role, 'Utente Attivo' and the public-administration keys (IPA office, CIG, sostituto d'imposta)
 * stay the seller's: any such key sent is dropped.
 */
export const customerBillingInputSchema = userInputSchema.pick({
  name: true,
  isCompany: true,
  fiscalCode: true,
  vatCode: true,
  countryCode: true,
  billingCity: true,
  sdi: true,
  pec: true,
  phone: true,
  street: true,
  zip: true,
  region: true,
  province: true,
  municipality: true,
});
export type CustomerBillingInput = z.input<typeof customerBillingInputSchema>;
export type CustomerBillingInputParsed = z.output<typeof customerBillingInputSchema>;

/** What `GET api/user/me/billing` answers: the caller's own record in the tenant. */
export type CustomerBilling = Pick<
  User,
  | 'id'
  | 'name'
  | 'email'
  | 'isCompany'
  | 'fiscalCode'
  | 'vatCode'
  | 'countryCode'
  | 'billingCity'
  | 'sdi'
  | 'pec'
  | 'phone'
  | 'billingAddress'
>;

/** What `PUT api/user/me/billing` answers: the record saved and the invoices its save issued. */
export interface CustomerBillingSaved {
  customer: CustomerBilling;
  /** Invoices issued at once for the payments that were waiting for these data. */
  issued: number;
  /** Payments still waiting for an invoice (data still missing, the seller's or the customer's). */
  waiting: number;
}
