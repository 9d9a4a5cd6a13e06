import { defineListSpec } from './list-spec';

/** A plan's feature rows. */
export const planFeatureList = defineListSpec({
  columns: [
    { key: 'featureName', name: 'Funzionalità', sortable: true, grow: true },
    { key: 'description', name: 'Descrizione', truncate: true },
    { key: 'plan.name', name: 'Piano', sortable: 'plan' },
  ],
  filters: [
    { kind: 'text', key: 'featureName', name: 'Funzionalità' },
    { kind: 'select', key: 'planId', name: 'Piano', source: { entity: 'plan', pageSize: 20 } },
  ],
  apiFilters: [{ key: 'description', kind: 'text' }],
  export: { fileName: 'funzionalita-dei-piani', columns: ['featureName', 'description', 'plan.name'] },
});
