import type { Region } from '../../../contract/schemas/geography';
import { Role } from '../../../contract/enums';
import { defineResource } from '../../lib/resource';

const writers = [Role.SuperAdmin, Role.Admin] as const;

/** Regions: global reference data (any signed-in user reads; Admin or SuperAdmin writes). */
export const regionResource = defineResource<Region>({
  name: 'region',
  label: 'Region',
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
  roles: { create: writers, edit: writers, delete: writers },
});
