import type { Region } from '../../../contract/schemas/geography';
import { regionList } from '../../../contract/lists/region';
import { defineResource } from '../../lib/resource';

/** Regions: global reference data (any signed-in user reads; Admin or SuperAdmin writes). */
export const regionResource = defineResource<Region>({
  name: 'region',
  label: 'Region',
  routes: {
    access: 'open',
    list: { label: 'Regioni' },
    create: { label: 'Nuova regione' },
    edit: { label: 'Dettaglio regione' },
  },
  columns: regionList.columns,
  filters: regionList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome' },
    { kind: 'text', key: 'code', label: 'Codice' },
  ],
});
