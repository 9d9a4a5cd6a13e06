import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, searchableNameIndexes } from './columns';
import { municipalities, provinces, regions } from './geography';

export const tenants = pgTable(
  'tenants',
  {
    id: id(),
    name: text('name').notNull(),
    configuration: text('configuration'),
    // The seller's billing profile (contract/schemas/tenant.ts): bank-transfer instructions and
    // invoices read it; the address uses the ISTAT tables.
    legalName: text('legal_name'),
    vatCode: text('vat_code'),
    fiscalCode: text('fiscal_code'),
    taxRegime: text('tax_regime').notNull().default('RF01'),
    // The fiscal profile (contract 'Fiscal profiles', docs/fiscal-rules.md): cassa previdenziale
    // or rivalsa INPS (TipoCassa TC01–TC22) with its rate in hundredths of a percent, ritenuta
    // d'acconto (RT01/RT02) and the bollo charged to the customer.
    pensionFundType: text('pension_fund_type'),
    pensionFundRate: integer('pension_fund_rate'),
    withholdingTax: text('withholding_tax'),
    stampDutyToCustomer: boolean('stamp_duty_to_customer').notNull().default(false),
    // Electronic services to EU private persons taxed in their state through the OSS.
    ossRegistered: boolean('oss_registered').notNull().default(false),
    street: text('street'),
    zip: text('zip'),
    regionId: integer('region_id').references((): AnyPgColumn => regions.id),
    provinceId: integer('province_id').references((): AnyPgColumn => provinces.id),
    municipalityId: integer('municipality_id').references((): AnyPgColumn => municipalities.id),
    pec: text('pec'),
    iban: text('iban'),
    accountHolder: text('account_holder'),
    // Sending invoices to the SdI through the tenant's own PEC mailbox (optional): its SMTP
    // server; the sender is `pec`. The password is write-only, AES-GCM encrypted (secret-box).
    pecSmtpHost: text('pec_smtp_host'),
    pecSmtpPort: integer('pec_smtp_port'),
    pecSmtpSecure: boolean('pec_smtp_secure').notNull().default(true),
    pecSmtpUser: text('pec_smtp_user'),
    pecSmtpPasswordEncrypted: text('pec_smtp_password_encrypted'),
    /** The SdI's PEC address: sdi01 for the first message; the SdI's answer may assign another. */
    sdiPec: text('sdi_pec').notNull().default('sdi01@pec.fatturapa.it'),
    /** Send each invoice to the SdI as soon as it is issued (the send job picks it up). */
    pecAutoSend: boolean('pec_auto_send').notNull().default(false),
    /** Its Admins must sign in with a second factor (TOTP) to act in this tenant. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /** Its customers may change their own subscription's plan from the customer area (issue 30). */
    customerPlanChange: boolean('customer_plan_change').notNull().default(false),
    /** Its customers may pause their own subscription's collection from the customer area (issue 30). */
    customerPause: boolean('customer_pause').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [...searchableNameIndexes('tenants', t.name, t.id)],
);

/**
 * The tenant column of a tenant-scoped table. Its key must be `tenantId` (the CRUD repository
 * filters and stamps it); deleting a tenant that still owns rows is refused (409).
 */
export const tenantColumn = () =>
  integer('tenant_id')
    .notNull()
    .references(() => tenants.id);
