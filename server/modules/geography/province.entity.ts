import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Province } from '../../../contract/schemas/geography';
import { provinceInputSchema } from '../../../contract/schemas/geography';
import { provinces, regions } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import { byName, windowed } from '../../crud/window';
import { entityRoles } from '../../../contract/access';
import { provinceList } from '../../../contract/lists/province';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';
import { textSort } from '../../crud/sort';

const provinceItem: z.ZodType<Province> = z.object({
  id: z.number(),
  name: z.string(),
  abbreviation: z.string(),
  regionId: z.number(),
  region: z.object({ id: z.number(), name: z.string() }).nullable(),
});

export const provinceEntity: EntityDefinition<typeof provinces, Province, typeof provinceInputSchema> = {
  name: 'province',
  table: provinces,
  id: provinces.id,
  scope: { kind: 'global' },
  searchColumns: [provinces.name, provinces.abbreviation],
  filters: bindFilters(provinceList, {
    name: provinces.name,
    abbreviation: provinces.abbreviation,
    regionId: provinces.regionId,
  }),
  naturalOrder: textSort(provinces.name), // the list's byName order: exports seek on it
  sortable: bindSorts(provinceList, {
    name: textSort(provinces.name),
    abbreviation: textSort(provinces.abbreviation),
    region: textSort(regions.name),
  }),
  item: provinceItem,
  input: provinceInputSchema,
  label: (p) => p.name,
  list: (db, window) =>
    windowed(
      db
        .select({
          id: provinces.id,
          name: provinces.name,
          abbreviation: provinces.abbreviation,
          regionId: provinces.regionId,
          region: { id: regions.id, name: regions.name },
        })
        .from(provinces)
        .leftJoin(regions, eq(regions.id, provinces.regionId))
        .orderBy(...byName(provinces.name, provinces.id))
        .$dynamic(),
      window,
    ),
  toRow: (input) => ({
    name: input.name,
    abbreviation: input.abbreviation.toUpperCase(),
    regionId: input.regionId,
  }),
  export: bindExport(provinceList),
  roles: entityRoles('province'),
};
