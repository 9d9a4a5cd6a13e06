import { z } from 'zod';
import type { Coupon } from '../../../contract/schemas/coupon';
import { couponInputSchema, couponRule, MAX_DURATION_PERIODS } from '../../../contract/schemas/coupon';
import { couponList } from '../../../contract/lists/coupon';
import { messages } from '../../../contract/messages';
import { defineResource } from '../../lib/resource';

export const durationOptions = [
  { value: 'once', label: 'Una volta (il primo periodo)' },
  { value: 'repeating', label: 'Per un numero di periodi' },
  { value: 'forever', label: 'Sempre' },
];

const couponCheck = couponInputSchema.superRefine(couponRule);

/**
 * The contract's rules as a check only: the body is sent as typed (euros and percent), while the
 * contract's schema turns them into cents and hundredths for the server.
 */
const couponFormSchema = z.unknown().superRefine((value, ctx) => {
  const result = couponCheck.safeParse(value);
  if (!result.success)
    for (const issue of result.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});

/**
 * Coupons (issue 30, Admin): code, percentage or amount, duration, expiry, maximum uses. The rules
 * are the contract's (checked here before sending, and by the server, whose errors land on their
 * fields). The plans a coupon is limited to are kept as they are by this form.
 */
export const couponResource = defineResource<Coupon>({
  name: 'coupon',
  label: 'Coupon',
  routes: {
    access: 'guarded',
    list: { label: 'Coupon', sidebar: true },
    create: { label: 'Nuovo coupon' },
    edit: { label: 'Dettaglio coupon' },
  },
  titles: { list: 'Coupon', create: 'Crea Nuovo Coupon', edit: 'Modifica Coupon' },
  columns: couponList.columns,
  filters: couponList.filters,
  fields: [
    { kind: 'text', key: 'code', label: 'Codice', required: true, placeholder: 'ES. BENVENUTO10' },
    {
      kind: 'number',
      key: 'percentOff',
      label: 'Sconto percentuale',
      step: 0.01,
      min: 0,
      max: 100,
      suffix: '%',
    },
    {
      kind: 'number',
      key: 'amountOff',
      label: 'Oppure sconto in euro (IVA esclusa)',
      step: 0.01,
      min: 0,
      suffix: '€',
    },
    { kind: 'choice', key: 'duration', label: 'Durata', required: true, options: durationOptions },
    {
      kind: 'number',
      key: 'durationPeriods',
      label: 'Numero di periodi (solo per «Per un numero di periodi»)',
      step: 1,
      min: 1,
      max: MAX_DURATION_PERIODS,
    },
    { kind: 'text', key: 'expiresAt', label: 'Ultimo giorno di validità', inputType: 'date' },
    { kind: 'number', key: 'maxRedemptions', label: 'Utilizzi massimi', step: 1, min: 1 },
  ],
  schema: couponFormSchema,
  messages: {
    saveFailed: (errors) => errors[0] ?? messages.http.saveError,
    deleteFailed: messages.user.deleteError,
  },
});
