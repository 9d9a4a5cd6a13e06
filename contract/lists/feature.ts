import { defineListSpec } from './list-spec';

/** The tenant's feature catalogue. */
export const featureList = defineListSpec({
  columns: [
    { key: 'featureName', name: 'Funzionalità', sortable: true, grow: true },
    { key: 'description', name: 'Descrizione', truncate: true },
  ],
  filters: [{ kind: 'text', key: 'featureName', name: 'Funzionalità' }],
  apiFilters: [{ key: 'description', kind: 'text' }],
  export: { fileName: 'funzionalita', columns: ['featureName', 'description'] },
});
