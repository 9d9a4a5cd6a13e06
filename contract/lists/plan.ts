import { defineListSpec } from './list-spec';

/** Subscription plans ('Gestisci piani di abbonamento'). */
export const planList = defineListSpec({
  columns: [
    { key: 'name', name: 'Nome', sortable: true, grow: true },
    { key: 'recurringCostBeforeVAT', name: 'Costo (IVA esclusa)', type: 'currency', sortable: true },
    { key: 'vatPercentage', name: 'IVA', type: 'percent', sortable: true },
    { key: 'recurrenceTypeName', name: 'Ricorrenza', sortable: 'recurrenceType' },
    // Issue 30: the plan's free trial, in days (empty: none).
    { key: 'trialDays', name: 'Prova (giorni)' },
    { key: 'isActive', name: 'Attivo', type: 'bool', sortable: true },
  ],
  filters: [
    { kind: 'text', key: 'name', name: 'Nome' },
    { kind: 'bool', key: 'isActive', name: 'Attivo' },
  ],
  apiFilters: [{ key: 'recurrenceType', kind: 'id' }],
  export: {
    fileName: 'piani',
    columns: ['name', 'recurringCostBeforeVAT', 'vatPercentage', 'recurrenceTypeName', 'isActive'],
  },
});
