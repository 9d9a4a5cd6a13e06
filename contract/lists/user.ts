import { defineListSpec } from './list-spec';

/**
 * Users of the tenant. Spec §2: the user list's nine columns, in this order ('sDI' and 'vATCode'
 * are sdi and vatCode on the wire).
 */
export const userList = defineListSpec({
  columns: [
    { key: 'name', name: 'Nome completo', truncate: true, sortable: true, grow: true },
    { key: 'email', name: 'Indirizzo email', truncate: true, sortable: true, grow: true },
    { key: 'pec', name: 'Indirizzo PEC', truncate: true },
    { key: 'isCompany', name: 'Azienda', type: 'bool', sortable: true },
    { key: 'sdi', name: 'Codice SDI' },
    { key: 'vatCode', name: 'Partita IVA' },
    { key: 'phone', name: 'Numero di telefono' },
    { key: 'roleName', name: 'Ruolo utente', sortable: true },
    { key: 'isActive', name: 'Utente Attivo', type: 'bool', sortable: true },
  ],
  filters: [
    { kind: 'text', key: 'name', name: 'Nome completo' },
    { kind: 'text', key: 'email', name: 'Indirizzo email' },
    { kind: 'bool', key: 'isCompany', name: 'Azienda' },
    { kind: 'bool', key: 'isActive', name: 'Utente Attivo' },
  ],
  apiFilters: [
    { key: 'pec', kind: 'text' },
    { key: 'phone', kind: 'text' },
    { key: 'sdi', kind: 'text' },
    { key: 'vatCode', kind: 'text' },
    { key: 'roleId', kind: 'id' },
  ],
  export: {
    fileName: 'utenti',
    columns: ['name', 'email', 'pec', 'isCompany', 'sdi', 'vatCode', 'phone', 'roleName', 'isActive'],
  },
});
