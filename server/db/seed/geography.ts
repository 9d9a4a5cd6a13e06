import type { Executor } from '../client';
import { municipalities, provinces, regions } from '../schema';
import type { IstatGeography } from './istat';

const BATCH = 2000;

/** Inserts the whole list in one transaction with multi-row inserts (a few statements, not 8,000). */
export async function seedGeography(db: Executor, geography: IstatGeography): Promise<void> {
  await db.transaction(async (tx) => {
    const regionRows = await tx
      .insert(regions)
      .values(geography.regions.map((r) => ({ name: r.name, code: r.code })))
      .returning({ id: regions.id, code: regions.code });
    const regionId = new Map(regionRows.map((r) => [r.code, r.id]));

    const provinceRows = await tx
      .insert(provinces)
      .values(
        geography.provinces.map((p) => ({
          name: p.name,
          abbreviation: p.abbreviation,
          regionId: required(regionId, p.regionCode),
        })),
      )
      .returning({ id: provinces.id, abbreviation: provinces.abbreviation });
    const provinceIdBySigla = new Map(provinceRows.map((p) => [p.abbreviation, p.id]));
    const provinceId = new Map(
      geography.provinces.map((p) => [p.code, required(provinceIdBySigla, p.abbreviation)]),
    );

    for (let i = 0; i < geography.municipalities.length; i += BATCH) {
      await tx
        .insert(municipalities)
        .values(
          geography.municipalities
            .slice(i, i + BATCH)
            .map((m) => ({ name: m.name, zip: m.zip, provinceId: required(provinceId, m.provinceCode) })),
        );
    }
  });
}

function required<K, V>(map: Map<K, V>, key: K): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`seed: unknown reference ${String(key)}`);
  return value;
}
