import type { Address } from '../../../contract/schemas/address';
import { addressInputSchema } from '../../../contract/schemas/address';
import { messages } from '../../../contract/messages';
import { addressList } from '../../../contract/lists/address';
import { defineResource } from '../../lib/resource';

/**
 * Addresses (tenant-scoped; a User sees only their own, so no role limit here). Spec §5: the
 * address form marks street and ZIP required; the contract's schema checks them (and the
 * municipality) before sending.
 */
export const addressResource = defineResource<Address>({
  name: 'address',
  label: 'Indirizzo',
  routes: {
    access: 'open',
    list: { label: 'Indirizzi' },
    create: { label: 'Nuovo indirizzo' },
    edit: { label: 'Dettaglio indirizzo' },
  },
  titles: { list: 'Lista Indirizzi' },
  columns: addressList.columns,
  filters: addressList.filters,
  fields: [
    { kind: 'text', key: 'street', label: 'Via', required: true },
    { kind: 'text', key: 'zip', label: 'CAP', required: true },
    {
      kind: 'select',
      key: 'municipalityId',
      label: 'Comune',
      required: true,
      source: { entity: 'municipality', pageSize: 20 },
    },
  ],
  schema: addressInputSchema,
  messages: { deleteFailed: messages.user.deleteError },
});
