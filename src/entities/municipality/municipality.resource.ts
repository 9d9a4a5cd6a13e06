import type { Municipality } from '../../../contract/schemas/geography';
import { municipalityList } from '../../../contract/lists/municipality';
import { defineResource } from '../../lib/resource';

/**
 * Municipalities: global reference data; each belongs to a province. The spec names the form field
 * `zIP` (label 'Cap'); bodies bind case-insensitively and responses are camelCase, so the key is `zip`.
 */
export const municipalityResource = defineResource<Municipality>({
  name: 'municipality',
  label: 'Municipality',
  routes: {
    access: 'open',
    list: { label: 'Comuni' },
    create: { label: 'Nuovo comune' },
    edit: { label: 'Dettaglio comune' },
  },
  columns: municipalityList.columns,
  filters: municipalityList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome' },
    { kind: 'text', key: 'zip', label: 'Cap' },
    {
      kind: 'select',
      key: 'provinceId',
      label: 'Provincia',
      source: { entity: 'province', pageSize: 20 },
    },
  ],
});
