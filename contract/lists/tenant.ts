import { defineListSpec } from './list-spec';

/** Tenants ('Lista Tenants'). */
export const tenantList = defineListSpec({
  columns: [
    { key: 'name', name: 'Nome', sortable: true, grow: true },
    { key: 'configuration', name: 'Configurazione', truncate: true },
  ],
  filters: [{ kind: 'text', key: 'name', name: 'Nome' }],
  export: { fileName: 'tenant', columns: ['name', 'configuration'] },
});
