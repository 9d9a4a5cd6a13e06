import type { Province } from '../../../contract/schemas/geography';
import { Role } from '../../../contract/enums';
import { defineResource } from '../../lib/resource';

const writers = [Role.SuperAdmin, Role.Admin] as const;

/** Provinces: global reference data; each belongs to a region. */
export const provinceResource = defineResource<Province>({
  name: 'province',
  label: 'Province',
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
  fields: [
    { kind: 'text', key: 'name', label: 'Nome' },
    { kind: 'text', key: 'abbreviation', label: 'Sigla' },
    { kind: 'select', key: 'regionId', label: 'Regione', source: { entity: 'region', pageSize: 10 } },
  ],
  roles: { create: writers, edit: writers, delete: writers },
});
