import type { Subscription } from '../../../contract/schemas/subscription';
import { subscriptionList } from '../../../contract/lists/subscription';
import { defineResource } from '../../lib/resource';

/** The five statuses as a filter's choices (spec §3), labelled in Italian. */
export { subscriptionStatusOptions } from '../../../contract/lists/subscription';

/**
 * Subscriptions ('Gestisci Sottoscrizioni'). The list is the generic one plus the billing actions
 * of spec §2/§4 (src/features/subscription); create and detail are custom screens. Subscriptions
 * are cancelled, never deleted, so the list has no delete action. A User sees their own rows only
 * (the server filters) with no actions.
 */
export const subscriptionResource = defineResource<Subscription>({
  name: 'subscription',
  label: 'Sottoscrizione',
  routes: {
    access: 'open',
    list: { label: 'Gestisci Sottoscrizioni', sidebar: true },
    create: { label: 'Crea Sottoscrizione', sidebar: true },
    edit: { label: 'Dettaglio Sottoscrizione' },
  },
  titles: {
    list: 'Gestisci Sottoscrizioni',
    create: 'Crea Sottoscrizione',
    edit: 'Modifica Sottoscrizione',
    createButton: 'Crea Sottoscrizione',
  },
  columns: subscriptionList.columns,
  filters: subscriptionList.filters,
  // The create and detail screens are custom (src/features/subscription); the generic form is not used.
  fields: [],
});
