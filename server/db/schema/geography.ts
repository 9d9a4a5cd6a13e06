import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, searchableNameIndexes } from './columns';

/** Global reference data (not tenant-scoped), seeded from the ISTAT list. */
export const regions = pgTable(
  'regions',
  {
    id: id(),
    name: text('name').notNull(),
    code: text('code').notNull(),
  },
  (t) => [...searchableNameIndexes('regions', t.name, t.id), uniqueIndex('regions_code_idx').on(t.code)],
);

export const provinces = pgTable(
  'provinces',
  {
    id: id(),
    name: text('name').notNull(),
    abbreviation: text('abbreviation').notNull(),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id),
  },
  (t) => [
    ...searchableNameIndexes('provinces', t.name, t.id),
    index('provinces_region_id_idx').on(t.regionId),
    index('provinces_abbreviation_idx').on(t.abbreviation),
  ],
);

export const municipalities = pgTable(
  'municipalities',
  {
    id: id(),
    name: text('name').notNull(),
    zip: text('zip').notNull(),
    provinceId: integer('province_id')
      .notNull()
      .references(() => provinces.id),
  },
  (t) => [
    ...searchableNameIndexes('municipalities', t.name, t.id),
    index('municipalities_province_id_idx').on(t.provinceId),
    index('municipalities_zip_idx').on(t.zip),
  ],
);
