import type { Plan } from '../../../contract/schemas/plan';
import {
  MAX_TRIAL_DAYS,
  planInputSchema,
  recurrenceTypeIds,
  recurrenceTypeNames,
  trialMessages,
} from '../../../contract/schemas/plan';
import { naturaCodes, naturaIds } from '../../../contract/invoice/fatturapa';
import { DEFAULT_VAT_PERCENTAGE } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { planList } from '../../../contract/lists/plan';
import { defineResource } from '../../lib/resource';

export const recurrenceOptions = recurrenceTypeIds.map((value) => ({
  value,
  label: `${recurrenceTypeNames[value]} (${value === 1 ? '1 mese' : `${value} mesi`})`,
}));

/** FatturaPA Natura codes a 0 % plan needs (the invoice's line and VAT summary carry it). */
export const naturaOptions = naturaIds.map((value) => ({ value, label: `${value} - ${naturaCodes[value]}` }));

/**
 * Subscription plans. Spec §5: name, cost, VAT and recurrence required, cost and VAT with step
 * 0.01, VAT 22 by default; §8: a failed save shows the first of the server's `errors`. The plan's
 * features and its iframe code live under the form (src/features/plan).
 */
export const planResource = defineResource<Plan>({
  name: 'plan',
  label: 'Piano',
  routes: {
    access: 'guarded',
    list: { label: 'Gestisci piani di abbonamento', sidebar: true },
    create: { label: 'Nuovo piano' },
    edit: { label: 'Dettaglio piano' },
  },
  titles: { list: 'Gestisci piani di abbonamento' },
  columns: planList.columns,
  filters: planList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome', required: true },
    {
      kind: 'choice',
      key: 'recurrenceType',
      label: 'Ricorrenza',
      required: true,
      options: recurrenceOptions,
    },
    {
      kind: 'number',
      key: 'recurringCostBeforeVAT',
      label: 'Costo ricorrente (IVA esclusa)',
      required: true,
      step: 0.01,
      min: 0,
      suffix: '€',
    },
    {
      kind: 'number',
      key: 'vatPercentage',
      label: 'IVA (%)',
      required: true,
      step: 0.01,
      min: 0,
      max: 100,
      suffix: '%',
      defaultValue: DEFAULT_VAT_PERCENTAGE,
    },
    {
      kind: 'choice',
      key: 'natura',
      label: 'Natura IVA (solo con IVA 0 %)',
      options: naturaOptions,
      placeholder: 'Nessuna (IVA applicata)',
    },
    // Issue 30: a new subscription on the plan starts with this many free days (empty: none).
    {
      kind: 'number',
      key: 'trialDays',
      label: trialMessages.label,
      step: 1,
      min: 0,
      max: MAX_TRIAL_DAYS,
      suffix: 'giorni',
    },
    { kind: 'text', key: 'paypalPlanId', label: 'ID piano PayPal' },
    { kind: 'text', key: 'stripePlanId', label: 'ID piano Stripe' },
    { kind: 'checkbox', key: 'isActive', label: 'Piano attivo', defaultValue: true },
  ],
  // The rule pairing VAT 0 % and Natura is the server's (its 400 names the field, shown by saveFailed).
  schema: planInputSchema,
  // Its features can only be added once the plan exists: a new plan stays open after 'Crea'.
  afterCreate: 'edit',
  messages: {
    saveFailed: (errors) => errors[0] ?? messages.http.saveError,
    deleteFailed: messages.user.deleteError,
  },
});
