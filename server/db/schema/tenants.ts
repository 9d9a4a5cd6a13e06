import { integer, pgTable, text } from 'drizzle-orm/pg-core';
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
    street: text('street'),
    zip: text('zip'),
    regionId: integer('region_id').references((): AnyPgColumn => regions.id),
    provinceId: integer('province_id').references((): AnyPgColumn => provinces.id),
    municipalityId: integer('municipality_id').references((): AnyPgColumn => municipalities.id),
    pec: text('pec'),
    iban: text('iban'),
    accountHolder: text('account_holder'),
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
