import { subscriptionStatusIds, subscriptionStatusLabels } from '../subscription-status';
import { defineListSpec } from './list-spec';

/** The five statuses as a filter's choices (spec §3), labelled in Italian. */
export const subscriptionStatusOptions = subscriptionStatusIds.map((value) => ({
  value,
  label: subscriptionStatusLabels[value],
}));

/**
 * Subscriptions ('Gestisci Sottoscrizioni'). The export writes the list's columns plus the
 * customer's e-mail and, when the customer turned the renewal off ('Disattiva il rinnovo', issue
 * 28) and did not turn it back on, the reason they gave and the day; its rows are the billing's
 * own (server: the values are bound there).
 */
export const subscriptionList = defineListSpec({
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
    // Issue 29: only the subscriptions with an overdue payment (`filters[overdue]=true`).
    { kind: 'bool', key: 'overdue', name: 'In ritardo', label: 'Solo in ritardo' },
  ],
  // The status's older name, still accepted by the API.
  apiFilters: [{ key: 'subscriptionStatus', kind: 'id' }],
  export: {
    fileName: 'sottoscrizioni',
    columns: [
      'user.name',
      { key: 'user.email', header: 'Email cliente' },
      'plan.name',
      'amountDue',
      'startDate',
      'nextBillingDate',
      'subscriptionStatus',
      { key: 'renewalStopReason', header: 'Motivo disattivazione rinnovo' },
      { key: 'renewalStoppedAt', header: 'Rinnovo disattivato il', type: 'date' },
    ],
  },
});
