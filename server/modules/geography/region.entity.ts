import { z } from 'zod';
import { Role } from '../../../contract/enums';
import type { Region } from '../../../contract/schemas/geography';
import { regionInputSchema } from '../../../contract/schemas/geography';
import { regions } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import { byName, windowed } from '../../crud/window';
import { textSort } from '../../crud/sort';

const regionItem: z.ZodType<Region> = z.object({ id: z.number(), name: z.string(), code: z.string() });

/** Reference data: any signed-in user reads, Admin and SuperAdmin write (api-contract.md). */
export const geographyRoles = {
  create: [Role.SuperAdmin, Role.Admin],
  update: [Role.SuperAdmin, Role.Admin],
  remove: [Role.SuperAdmin, Role.Admin],
} as const;

export const regionEntity: EntityDefinition<typeof regions, Region, typeof regionInputSchema> = {
  name: 'region',
  table: regions,
  id: regions.id,
  scope: { kind: 'global' },
  searchColumns: [regions.name, regions.code],
  filters: { name: { column: regions.name, kind: 'text' }, code: { column: regions.code, kind: 'text' } },
  naturalOrder: textSort(regions.name), // the list's byName order: exports seek on it
  sortable: { name: textSort(regions.name), code: textSort(regions.code) },
  item: regionItem,
  input: regionInputSchema,
  label: (r) => r.name,
  list: (db, window) =>
    windowed(
      db
        .select({ id: regions.id, name: regions.name, code: regions.code })
        .from(regions)
        .orderBy(...byName(regions.name, regions.id))
        .$dynamic(),
      window,
    ),
  toRow: (input) => ({ name: input.name, code: input.code }),
  export: {
    fileName: 'regioni',
    columns: [
      { header: 'Nome', value: (r) => r.name },
      { header: 'Codice', value: (r) => r.code },
    ],
  },
  roles: geographyRoles,
};
