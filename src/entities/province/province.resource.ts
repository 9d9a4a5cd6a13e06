import type { Province } from '../../../contract/schemas/geography';
import { Role } from '../../../contract/enums';
import { provinceList } from '../../../contract/lists/province';
import { defineResource } from '../../lib/resource';

const writers = [Role.SuperAdmin, Role.Admin] as const;

/** Provinces: global reference data; each belongs to a region. */
export const provinceResource = defineResource<Province>({
  name: 'province',
  label: 'Province',
  columns: provinceList.columns,
  filters: provinceList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome' },
    { kind: 'text', key: 'abbreviation', label: 'Sigla' },
    { kind: 'select', key: 'regionId', label: 'Regione', source: { entity: 'region', pageSize: 10 } },
  ],
  roles: { create: writers, edit: writers, delete: writers },
});
