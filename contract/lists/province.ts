import { defineListSpec } from './list-spec';

/** Provinces: global reference data; each belongs to a region. */
export const provinceList = defineListSpec({
  columns: [
    { key: 'name', name: 'Nome', sortable: true, grow: true },
    { key: 'abbreviation', name: 'Sigla', sortable: true },
    { key: 'region.name', name: 'Regione', sortable: 'region' },
  ],
  filters: [
    { kind: 'text', key: 'name', name: 'Nome' },
    { kind: 'text', key: 'abbreviation', name: 'Sigla' },
    { kind: 'select', key: 'regionId', name: 'Regione', source: { entity: 'region', pageSize: 10 } },
  ],
  export: { fileName: 'province', columns: ['name', 'abbreviation', 'region.name'] },
});
