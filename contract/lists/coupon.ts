import { defineListSpec } from './list-spec';

/** Coupons ('Coupon', issue 30): the labels are the server's (contract/schemas/coupon.ts). */
export const couponList = defineListSpec({
  columns: [
    { key: 'code', name: 'Codice', sortable: true, grow: true },
    { key: 'discountLabel', name: 'Sconto', align: 'right' },
    { key: 'durationLabel', name: 'Durata' },
    { key: 'usageLabel', name: 'Utilizzi', sortable: 'timesRedeemed', align: 'right' },
    { key: 'expiresAt', name: 'Scadenza', type: 'dateTime', sortable: true },
    { key: 'active', name: 'Attivo', type: 'bool' },
  ],
  filters: [{ kind: 'text', key: 'code', name: 'Codice' }],
});
