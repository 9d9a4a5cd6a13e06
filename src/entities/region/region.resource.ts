import type { Region } from '../../../contract/schemas/geography';
import { Role } from '../../../contract/enums';
import { regionList } from '../../../contract/lists/region';
import { defineResource } from '../../lib/resource';

const writers = [Role.SuperAdmin, Role.Admin] as const;

/** Regions: global reference data (any signed-in user reads; Admin or SuperAdmin writes). */
export const regionResource = defineResource<Region>({
  name: 'region',
  label: 'Region',
  columns: regionList.columns,
  filters: regionList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome' },
    { kind: 'text', key: 'code', label: 'Codice' },
  ],
  roles: { create: writers, edit: writers, delete: writers },
});
