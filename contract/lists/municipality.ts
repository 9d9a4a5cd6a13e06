import { defineListSpec } from './list-spec';

/** Municipalities: global reference data; each belongs to a province. */
export const municipalityList = defineListSpec({
  columns: [
    { key: 'name', name: 'Nome', sortable: true, grow: true },
    { key: 'zip', name: 'Cap', sortable: true },
    { key: 'province.name', name: 'Provincia', sortable: 'province' },
  ],
  filters: [
    { kind: 'text', key: 'name', name: 'Nome' },
    { kind: 'text', key: 'zip', name: 'Cap' },
    {
      kind: 'select',
      key: 'provinceId',
      name: 'Provincia',
      source: { entity: 'province', pageSize: 20 },
    },
  ],
  export: { fileName: 'comuni', columns: ['name', 'zip', 'province.name'] },
});
