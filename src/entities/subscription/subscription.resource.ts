import type { Subscription } from '../../../contract/schemas/subscription';
import { subscriptionStatusIds, subscriptionStatusLabels } from '../../../contract/subscription-status';
import { defineResource } from '../../lib/resource';

/** The five statuses as a filter's choices (spec §3), labelled in Italian. */
export const subscriptionStatusOptions = subscriptionStatusIds.map((value) => ({
  value,
  label: subscriptionStatusLabels[value],
}));

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
  columns: [
    { key: 'user.name', name: 'Cliente', fallback: 'user.email' },
    { key: 'plan.name', name: 'Piano' },
    { key: 'amountDue', name: 'Importo', type: 'currency', align: 'right' },
    { key: 'startDate', name: 'Data di inizio', type: 'dateTime' },
    { key: 'nextBillingDate', name: 'Prossima fatturazione', type: 'dateTime' },
    { key: 'subscriptionStatus', name: 'Stato', type: 'subscriptionstatusenum' },
  ],
  filters: [
    { kind: 'choice', key: 'status', name: 'Stato', options: subscriptionStatusOptions },
    { kind: 'select', key: 'planId', name: 'Piano', source: { entity: 'plan', pageSize: 100 } },
    { kind: 'select', key: 'userId', name: 'Cliente', source: { entity: 'user', pageSize: 100 } },
  ],
  // The create and detail screens are custom (src/features/subscription); the generic form is not used.
  fields: [],
});
