import { defineListSpec } from './list-spec';

/** Regions: global reference data. */
export const regionList = defineListSpec({
  columns: [
    { key: 'name', name: 'Nome', sortable: true, grow: true },
    { key: 'code', name: 'Codice', sortable: true },
  ],
  filters: [
    { kind: 'text', key: 'name', name: 'Nome' },
    { kind: 'text', key: 'code', name: 'Codice' },
  ],
  export: { fileName: 'regioni', columns: ['name', 'code'] },
});
