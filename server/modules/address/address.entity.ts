import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { Role } from '../../../contract/enums';
import type { Address } from '../../../contract/schemas/address';
import { addressInputSchema } from '../../../contract/schemas/address';
import { addresses, municipalities, provinces } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import { entityRoles } from '../../../contract/access';
import { addressList } from '../../../contract/lists/address';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';
import { byName, countUpTo, windowed } from '../../crud/window';
import { textSort } from '../../crud/sort';

const addressItem: z.ZodType<Address> = z.object({
  id: z.number(),
  street: z.string(),
  zip: z.string(),
  municipalityId: z.number(),
  municipality: z
    .object({
      id: z.number(),
      name: z.string(),
      zip: z.string(),
      province: z.object({ id: z.number(), name: z.string(), abbreviation: z.string() }).nullable(),
    })
    .nullable(),
  userId: z.number().nullable(),
});

/**
 * Addresses of the tenant. Any member reads, but a User (role 3) only the addresses they own
 * (api-contract); Admin and SuperAdmin write. `searchTerm` also finds the municipality's name.
 */
export const addressEntity: EntityDefinition<typeof addresses, Address, typeof addressInputSchema> = {
  name: 'address',
  table: addresses,
  id: addresses.id,
  scope: {
    kind: 'tenant',
    column: addresses.tenantId,
    restrict: (caller) => (caller.roleId === Role.User ? eq(addresses.userId, caller.userId) : undefined),
  },
  searchColumns: [addresses.street, addresses.zip, municipalities.name],
  filters: bindFilters(addressList, {
    street: addresses.street,
    zip: addresses.zip,
    municipalityId: addresses.municipalityId,
    userId: addresses.userId,
  }),
  naturalOrder: textSort(addresses.street), // the list's byName order: exports seek on it
  sortable: bindSorts(addressList, {
    street: textSort(addresses.street),
    zip: textSort(addresses.zip),
    municipality: textSort(municipalities.name),
  }),
  item: addressItem,
  input: addressInputSchema,
  label: (a) => (a.municipality ? `${a.street}, ${a.zip} ${a.municipality.name}` : `${a.street}, ${a.zip}`),
  list: async (db, window) => {
    const rows = await windowed(
      db
        .select({
          id: addresses.id,
          street: addresses.street,
          zip: addresses.zip,
          municipalityId: addresses.municipalityId,
          userId: addresses.userId,
          municipality: { id: municipalities.id, name: municipalities.name, zip: municipalities.zip },
          province: { id: provinces.id, name: provinces.name, abbreviation: provinces.abbreviation },
        })
        .from(addresses)
        .innerJoin(municipalities, eq(municipalities.id, addresses.municipalityId))
        .leftJoin(provinces, eq(provinces.id, municipalities.provinceId))
        .orderBy(...byName(addresses.street, addresses.id))
        .$dynamic(),
      window,
    );
    return rows.map(({ municipality, province, ...row }) => ({
      ...row,
      municipality: { ...municipality, province },
    }));
  },
  count: (db, where, limit) =>
    countUpTo(
      db,
      db
        .select({ one: sql`1` })
        .from(addresses)
        .innerJoin(municipalities, eq(municipalities.id, addresses.municipalityId))
        .where(where)
        .$dynamic(),
      limit,
    ),
  toRow: (input) => ({
    street: input.street,
    zip: input.zip,
    municipalityId: input.municipalityId,
    // Absent on Update keeps the owner (the SPA's form does not send it).
    ...(input.userId !== undefined ? { userId: input.userId } : {}),
  }),
  export: bindExport(addressList),
  roles: entityRoles('address'),
};
