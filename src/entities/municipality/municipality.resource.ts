import type { Municipality } from '../../../contract/schemas/geography';
import { Role } from '../../../contract/enums';
import { defineResource } from '../../lib/resource';

const writers = [Role.SuperAdmin, Role.Admin] as const;

/**
 * Municipalities: global reference data; each belongs to a province. The spec names the form field
 * `zIP` (label 'Cap'); bodies bind case-insensitively and responses are camelCase, so the key is `zip`.
 */
export const municipalityResource = defineResource<Municipality>({
  name: 'municipality',
  label: 'Municipality',
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
  roles: { create: writers, edit: writers, delete: writers },
});
