import type { PlanFeature } from '../../../contract/schemas/plan';
import { messages } from '../../../contract/messages';
import { planFeatureList } from '../../../contract/lists/plan-feature';
import { defineResource } from '../../lib/resource';

/** A plan's feature rows (tenant-scoped; generic list and detail, spec §2). */
export const planFeatureResource = defineResource<PlanFeature>({
  name: 'planfeature',
  label: 'Funzionalità del piano',
  routes: {
    access: 'open',
    list: { label: 'Funzionalità dei piani' },
    create: { label: 'Nuova funzionalità del piano' },
    edit: { label: 'Dettaglio funzionalità del piano' },
  },
  titles: {
    list: 'Lista Funzionalità dei piani',
    create: 'Crea Nuova Funzionalità del piano',
    createButton: 'Crea Nuova Funzionalità del piano',
  },
  columns: planFeatureList.columns,
  filters: planFeatureList.filters,
  fields: [
    { kind: 'text', key: 'featureName', label: 'Funzionalità', required: true },
    { kind: 'textarea', key: 'description', label: 'Descrizione', rows: 3 },
    {
      kind: 'select',
      key: 'planId',
      label: 'Piano',
      required: true,
      source: { entity: 'plan', pageSize: 20 },
    },
  ],
  messages: { deleteFailed: messages.user.deleteError },
});
