import { z } from 'zod';
import { entityRoles } from '../../../contract/access';
import { regionList } from '../../../contract/lists/region';
import type { Region } from '../../../contract/schemas/geography';
import { regionInputSchema } from '../../../contract/schemas/geography';
import { regions } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import { byName, windowed } from '../../crud/window';
import { textSort } from '../../crud/sort';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';

const regionItem: z.ZodType<Region> = z.object({ id: z.number(), name: z.string(), code: z.string() });

export const regionEntity: EntityDefinition<typeof regions, Region, typeof regionInputSchema> = {
  name: 'region',
  table: regions,
  id: regions.id,
  scope: { kind: 'global' },
  searchColumns: [regions.name, regions.code],
  filters: bindFilters(regionList, { name: regions.name, code: regions.code }),
  naturalOrder: textSort(regions.name), // the list's byName order: exports seek on it
  sortable: bindSorts(regionList, { name: textSort(regions.name), code: textSort(regions.code) }),
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
  export: bindExport(regionList),
  // Reference data: any signed-in user reads, Admin and SuperAdmin write (api-contract.md).
  roles: entityRoles('region'),
};
