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
import {
  pensionFundTypes,
  withholdingTypes,
  type PensionFundType,
  type WithholdingType,
} from '../invoice/fiscal-document';
import { optionalId } from './common';
import { SECRET_MASK } from './payment-provider';
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
  /** Cassa previdenziale (TC01–TC21) or rivalsa INPS (TC22), rate in percent; null: none. */
  pensionFund: TenantPensionFund | null;
  /** Subject to ritenuta d'acconto: RT01 natural person, RT02 legal person; null: not subject. */
  withholdingTax: WithholdingType | null;
  /** The 2,00 € bollo is charged to the customer (an N1 line) rather than borne by the tenant. */
  stampDutyToCustomer: boolean;
  /**
   * Sells electronic services to EU private persons above the EU 10.000 € threshold (or chose to)
   * and declares their VAT through the OSS: those customers pay their state's VAT (N7).
   */
  ossRegistered: boolean;
  street: string | null;
  zip: string | null;
  regionId: number | null;
  provinceId: number | null;
  municipalityId: number | null;
  pec: string | null;
  iban: string | null;
  accountHolder: string | null;
}

export interface TenantPensionFund {
  type: PensionFundType;
  /** Percent, two decimals (4 → 4 %). */
  rate: number;
}

/** The cassa as the API takes it: `{ type, rate }`, or null / '' for none. */
const pensionFundInput = z.preprocess(
  (v) => (v === '' ? null : v),
  z
    .object({
      type: z.preprocess(
        upperNoSpacesValue,
        z.enum(pensionFundTypes as [PensionFundType, ...PensionFundType[]], {
          error: bm.pensionFundTypeInvalid,
        }),
      ),
      rate: z.preprocess(
        (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.replace(',', '.')) : v),
        z
          .number({ error: bm.pensionFundRateInvalid })
          .min(0.01, bm.pensionFundRateInvalid)
          .max(100, bm.pensionFundRateInvalid)
          .refine(
            (n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9,
            bm.pensionFundRateInvalid,
          ),
      ),
    })
    .nullable()
    .optional(),
);

/** The SdI's PEC address for the first message (its answer may assign another, sdiNN@…). */
export const SDI_PEC_DEFAULT = 'sdi01@pec.fatturapa.it';

/**
 * Sending invoices to the SdI through the tenant's own PEC mailbox (optional). The sender is the
 * billing profile's `pec`. `pecSmtpPassword` is write-only: answers show SECRET_MASK when one is
 * stored; an update without it (absent, '', the mask) keeps it.
 */
export interface TenantPecSettings {
  pecSmtpHost: string | null;
  pecSmtpPort: number | null;
  pecSmtpSecure: boolean;
  pecSmtpUser: string | null;
  pecSmtpPassword: string | null;
  sdiPec: string;
  pecAutoSend: boolean;
}

export interface Tenant extends TenantBillingProfile, TenantPecSettings {
  id: number;
  name: string;
  configuration: string | null;
  /** Its Admins must sign in with a second factor (TOTP) to act in it (issue 23). */
  requireTwoFactor: boolean;
  /** Its customers may change plan themselves from the customer area ('Cambia piano', issue 30). */
  customerPlanChange: boolean;
  /** Its customers may pause their own collection from the customer area (issue 30). */
  customerPause?: boolean;
  /** Where its database lives (GetById, SuperAdmin only; contract 'Tenancy'). */
  database?: TenantDatabase;
}

/**
 * A tenant's database: the server it is on ('control' while its rows are still in the control
 * database), its name there, and its size in bytes (null while in the control database).
 */
export const tenantDatabaseSchema = z.object({
  server: z.string(),
  name: z.string(),
  sizeBytes: z.number().nullable(),
});
export type TenantDatabase = z.infer<typeof tenantDatabaseSchema>;

/** true / false / 'true' / 'false'; absent, '' or null keep the stored value. */
const optionalBool = z
  .preprocess(
    (v) => (v === '' ? null : v),
    z
      .union([z.boolean(), z.enum(['true', 'false']).transform((t) => t === 'true')])
      .nullable()
      .optional(),
  )
  .transform((v) => v ?? undefined);

function upperNoSpacesValue(v: unknown) {
  return typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() : v;
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
  pecSmtpHost: optionalText(253, { test: (v) => /^[A-Za-z0-9.-]+$/.test(v), message: bm.smtpHostInvalid }),
  pecSmtpPort: z.preprocess(
    (v) => {
      const b = blankToNull(v);
      return typeof b === 'string' && /^\d+$/.test(b) ? Number(b) : b;
    },
    z
      .number({ error: bm.smtpPortInvalid })
      .int(bm.smtpPortInvalid)
      .min(1, bm.smtpPortInvalid)
      .max(65535, bm.smtpPortInvalid)
      .nullable()
      .optional(),
  ),
  pecSmtpSecure: optionalBool,
  pecSmtpUser: optionalText(254),
  pecSmtpPassword: z.preprocess((v) => {
    const b = blankToNull(v);
    return b === SECRET_MASK ? null : b;
  }, z.string().max(500).nullable().optional()),
  sdiPec: optionalText(254, { test: isValidEmail, message: validationMessages.pecInvalid }),
  pecAutoSend: optionalBool,
  requireTwoFactor: optionalBool,
  customerPlanChange: optionalBool,
  customerPause: optionalBool,
  pensionFund: pensionFundInput,
  withholdingTax: z.preprocess(
    upperNoSpaces,
    z.enum(withholdingTypes, { error: bm.withholdingTaxInvalid }).nullable().optional(),
  ),
  stampDutyToCustomer: optionalBool,
  ossRegistered: optionalBool,
});
export type TenantInput = z.input<typeof tenantInputSchema>;
