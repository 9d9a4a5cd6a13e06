import type { Province } from '../../../contract/schemas/geography';
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
});
