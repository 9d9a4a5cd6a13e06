import { defineListSpec } from './list-spec';

/** Payment-provider settings ('Configura PayPal'); the export leaves out the kind. */
export const paymentProviderList = defineListSpec({
  columns: [
    { key: 'name', name: 'Nome', sortable: true, grow: true },
    { key: 'apiUrl', name: 'URL API', truncate: true, sortable: true },
    { key: 'apiKey', name: 'Client ID (API key)', truncate: true },
    { key: 'apiSecret', name: 'Secret API' },
    { key: 'kind', name: 'Tipo' },
    { key: 'mode', name: 'Modalità' },
    { key: 'isActive', name: 'Attivo', type: 'bool' },
  ],
  filters: [{ kind: 'text', key: 'name', name: 'Nome' }],
  apiFilters: [
    { key: 'isActive', kind: 'bool' },
    { key: 'apiUrl', kind: 'text' },
  ],
  export: {
    fileName: 'fornitori-di-pagamento',
    columns: ['name', 'apiUrl', 'apiKey', 'apiSecret', 'mode', 'isActive'],
  },
});
