import type { Tenant } from '../../../contract/schemas/tenant';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { defineResource } from '../../lib/resource';

/**
 * Tenants (api-contract: a SuperAdmin creates and deletes; an Admin reads and updates the tenants
 * it belongs to). Titles as the route table names them: 'Lista Tenants', 'Dettaglio Tenant'.
 */
export const tenantResource = defineResource<Tenant>({
  name: 'tenant',
  label: 'Tenant',
  titles: { list: 'Lista Tenants', create: 'Dettaglio Tenant', edit: 'Dettaglio Tenant' },
  columns: [
    { key: 'name', name: 'Nome' },
    { key: 'configuration', name: 'Configurazione', truncate: true },
  ],
  filters: [{ kind: 'text', key: 'name', name: 'Nome' }],
  fields: [
    { kind: 'text', key: 'name', label: 'Nome', required: true },
    { kind: 'textarea', key: 'configuration', label: 'Configurazione', rows: 6 },
  ],
  roles: {
    create: [Role.SuperAdmin],
    edit: [Role.SuperAdmin, Role.Admin],
    delete: [Role.SuperAdmin],
  },
  // Spec §8: a failed tenant delete shows a message with the error.
  messages: { deleteFailed: messages.user.deleteError },
});
