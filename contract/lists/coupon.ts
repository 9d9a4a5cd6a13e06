import { defineListSpec } from './list-spec';

/**
 * Coupons ('Coupon', issue 30). The screen draws 'Sconto', 'Durata' and 'Utilizzi' from these keys
 * (couponDiscountLabel, couponDurationLabel in contract/schemas/coupon.ts).
 */
export const couponList = defineListSpec({
  columns: [
    { key: 'code', name: 'Codice', sortable: true, grow: true },
    { key: 'percentOff', name: 'Sconto %', type: 'percent' },
    { key: 'amountOff', name: 'Sconto €', type: 'currency' },
    { key: 'duration', name: 'Durata' },
    { key: 'timesRedeemed', name: 'Utilizzi', sortable: true },
    { key: 'expiresAt', name: 'Scadenza', type: 'dateTime', sortable: true },
    { key: 'active', name: 'Attivo', type: 'bool' },
  ],
  filters: [{ kind: 'text', key: 'code', name: 'Codice' }],
});
