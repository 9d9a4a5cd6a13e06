import { z } from 'zod';
import {
  billingValidationMessages as bm,
  isValidCodiceFiscale,
  isValidEmail,
  isValidIban,
  isValidVatNumber,
  taxRegimes,
  validationMessages,
  type TaxRegime,
} from '../validation/italian';
import { optionalId } from './common';
import { blankToNull, optionalRef, optionalText, requiredText } from './fields';

/**
 * The seller's billing profile of a tenant: what invoices and bank-transfer instructions need.
 * Every field is optional until it is used: setting a subscription to bank transfer needs the
 * IBAN, invoices (later) need the rest.
 */
export interface TenantBillingProfile {
  legalName: string | null;
  /** Partita IVA (11 digits) or an EU VAT number with its country prefix. */
  vatCode: string | null;
  fiscalCode: string | null;
  /** FatturaPA RegimeFiscale, RF01 (ordinario) unless set. */
  taxRegime: TaxRegime;
  street: string | null;
  zip: string | null;
  regionId: number | null;
  provinceId: number | null;
  municipalityId: number | null;
  pec: string | null;
  iban: string | null;
  accountHolder: string | null;
}

export interface Tenant extends TenantBillingProfile {
  id: number;
  name: string;
  configuration: string | null;
}

const upperNoSpaces = (v: unknown) => {
  const b = blankToNull(v);
  return typeof b === 'string' ? b.replace(/\s+/g, '').toUpperCase() : b;
};
const checked = (test: (v: string) => boolean, message: string) =>
  z.preprocess(upperNoSpaces, z.string().refine(test, { message }).nullable().optional());

export const tenantInputSchema = z.object({
  id: optionalId,
  name: requiredText(150, validationMessages.tenantNameRequired),
  configuration: z.string().max(10_000).optional().nullable(),
  legalName: optionalText(200),
  vatCode: checked(isValidVatNumber, bm.sellerVatInvalid),
  fiscalCode: checked(isValidCodiceFiscale, bm.fiscalCodeInvalid),
  taxRegime: z.preprocess(
    (v) => upperNoSpaces(v) ?? undefined,
    z.enum(taxRegimes, { error: bm.taxRegimeInvalid }).optional(),
  ),
  street: optionalText(200),
  zip: optionalText(5, { test: (v) => /^\d{5}$/.test(v), message: bm.zipInvalid }),
  regionId: optionalRef,
  provinceId: optionalRef,
  municipalityId: optionalRef,
  pec: optionalText(254, { test: isValidEmail, message: validationMessages.pecInvalid }),
  iban: checked(isValidIban, bm.ibanInvalid),
  accountHolder: optionalText(200),
});
export type TenantInput = z.input<typeof tenantInputSchema>;
