import type { Region } from '../../../contract/schemas/geography';
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
  columns: [
    { key: 'name', name: 'Nome', sortable: true, grow: true },
    { key: 'code', name: 'Codice', sortable: true },
  ],
  filters: [
    { kind: 'text', key: 'name', name: 'Nome' },
    { kind: 'text', key: 'code', name: 'Codice' },
  ],
  fields: [
    { kind: 'text', key: 'name', label: 'Nome' },
    { kind: 'text', key: 'code', label: 'Codice' },
  ],
});
