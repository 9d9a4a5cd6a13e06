import type { Feature } from '../../../contract/schemas/plan';
import { messages } from '../../../contract/messages';
import { featureList } from '../../../contract/lists/feature';
import { defineResource } from '../../lib/resource';

/** The feature catalogue (tenant-scoped; generic list and detail, spec §2). */
export const featureResource = defineResource<Feature>({
  name: 'feature',
  label: 'Funzionalità',
  routes: {
    access: 'open',
    list: { label: 'Funzionalità' },
    create: { label: 'Nuova funzionalità' },
    edit: { label: 'Dettaglio funzionalità' },
  },
  titles: {
    list: 'Lista Funzionalità',
    create: 'Crea Nuova Funzionalità',
    createButton: 'Crea Nuova Funzionalità',
  },
  columns: featureList.columns,
  filters: featureList.filters,
  fields: [
    { kind: 'text', key: 'featureName', label: 'Funzionalità', required: true },
    { kind: 'textarea', key: 'description', label: 'Descrizione', rows: 3 },
  ],
  messages: { deleteFailed: messages.user.deleteError },
});
