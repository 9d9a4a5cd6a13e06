import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { Role } from '../../../contract/enums';
import type { Tenant } from '../../../contract/schemas/tenant';
import { tenantInputSchema } from '../../../contract/schemas/tenant';
import { taxRegimes } from '../../../contract/validation/italian';
import { tenants, userTenants } from '../../db/schema';
import type { EntityDefinition } from '../crud/entity';
import { byName, windowed } from '../crud/window';
import { textSort } from '../crud/sort';

const tenantItem: z.ZodType<Tenant> = z.object({
  id: z.number(),
  name: z.string(),
  configuration: z.string().nullable(),
  legalName: z.string().nullable(),
  vatCode: z.string().nullable(),
  fiscalCode: z.string().nullable(),
  taxRegime: z.enum(taxRegimes),
  street: z.string().nullable(),
  zip: z.string().nullable(),
  regionId: z.number().nullable(),
  provinceId: z.number().nullable(),
  municipalityId: z.number().nullable(),
  pec: z.string().nullable(),
  iban: z.string().nullable(),
  accountHolder: z.string().nullable(),
});

const tenantColumns = {
  id: tenants.id,
  name: tenants.name,
  configuration: tenants.configuration,
  legalName: tenants.legalName,
  vatCode: tenants.vatCode,
  fiscalCode: tenants.fiscalCode,
  taxRegime: tenants.taxRegime,
  street: tenants.street,
  zip: tenants.zip,
  regionId: tenants.regionId,
  provinceId: tenants.provinceId,
  municipalityId: tenants.municipalityId,
  pec: tenants.pec,
  iban: tenants.iban,
  accountHolder: tenants.accountHolder,
};

/**
 * Tenants: a SuperAdmin sees, creates and deletes any; everyone else sees the tenants they
 * belong to (active memberships), and an Admin may update those. Needs no X-Tenant-Id: the tenant selector reads it
 * before a tenant is chosen.
 */
export const tenantEntity: EntityDefinition<typeof tenants, Tenant, typeof tenantInputSchema> = {
  name: 'tenant',
  table: tenants,
  id: tenants.id,
  scope: {
    kind: 'rows',
    filter: (caller, db) =>
      caller.roleId === Role.SuperAdmin
        ? undefined
        : inArray(
            tenants.id,
            db
              .select({ id: userTenants.tenantId })
              .from(userTenants)
              .where(and(eq(userTenants.userId, caller.userId), eq(userTenants.isActive, true))),
          ),
  },
  searchColumns: [tenants.name],
  filters: { name: { column: tenants.name, kind: 'text' } },
  sortable: { name: textSort(tenants.name) },
  item: tenantItem,
  input: tenantInputSchema,
  label: (t) => t.name,
  list: (db, window) =>
    windowed(
      db
        .select(tenantColumns)
        .from(tenants)
        .orderBy(...byName(tenants.name, tenants.id))
        .$dynamic(),
      window,
    ) as Promise<Tenant[]>,
  // Billing-profile keys left out of a body keep their stored value (undefined is not written).
  toRow: (input) => ({
    name: input.name,
    configuration: input.configuration ?? null,
    legalName: input.legalName,
    vatCode: input.vatCode,
    fiscalCode: input.fiscalCode,
    taxRegime: input.taxRegime,
    street: input.street,
    zip: input.zip,
    regionId: input.regionId,
    provinceId: input.provinceId,
    municipalityId: input.municipalityId,
    pec: input.pec,
    iban: input.iban,
    accountHolder: input.accountHolder,
  }),
  export: {
    fileName: 'tenant',
    columns: [
      { header: 'Nome', value: (t) => t.name },
      { header: 'Configurazione', value: (t) => t.configuration },
    ],
  },
  roles: {
    create: [Role.SuperAdmin],
    update: [Role.SuperAdmin, Role.Admin],
    remove: [Role.SuperAdmin],
  },
};
