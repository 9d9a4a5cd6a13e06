import type { Province } from '../../../contract/schemas/geography';
import { provinceList } from '../../../contract/lists/province';
import { defineResource } from '../../lib/resource';

/** Provinces: global reference data; each belongs to a region. */
export const provinceResource = defineResource<Province>({
  name: 'province',
  label: 'Province',
  routes: {
    access: 'open',
    list: { label: 'Province' },
    create: { label: 'Nuova provincia' },
    edit: { label: 'Dettaglio provincia' },
  },
  columns: provinceList.columns,
  filters: provinceList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome' },
    { kind: 'text', key: 'abbreviation', label: 'Sigla' },
    { kind: 'select', key: 'regionId', label: 'Regione', source: { entity: 'region', pageSize: 10 } },
  ],
});
