import { defineListSpec } from './list-spec';

/** Addresses of the tenant (a User lists only their own: the server's scope). */
export const addressList = defineListSpec({
  columns: [
    { key: 'street', name: 'Via', sortable: true, grow: true },
    { key: 'zip', name: 'CAP', sortable: true },
    { key: 'municipality.name', name: 'Comune', sortable: 'municipality' },
    { key: 'municipality.province.abbreviation', name: 'Provincia' },
  ],
  filters: [
    { kind: 'text', key: 'street', name: 'Via' },
    { kind: 'text', key: 'zip', name: 'CAP' },
  ],
  apiFilters: [
    { key: 'municipalityId', kind: 'id' },
    { key: 'userId', kind: 'id' },
  ],
  export: {
    fileName: 'indirizzi',
    columns: ['street', 'zip', 'municipality.name', 'municipality.province.abbreviation'],
  },
});
