import type { EventBus } from '../../unit-of-work/events';
import { couponPeriodPaid } from '../../db/coupons';
import { restoreFullAmount } from './subscription.service';

/**
 * A coupon's periods (issue 30): when a discounted payment is paid, in its transaction, one paid
 * period fewer is left to discount; after the last, the subscription is asked the full price again.
 */
export function subscribeCouponPeriods(events: EventBus): void {
  events.subscribe('payment.paid', {
    name: 'coupon.periodPaid',
    phase: 'inTransaction',
    handle: async (w, { paymentId }) => {
      const changed = await couponPeriodPaid(w, paymentId, (subscriptionId) =>
        restoreFullAmount(w, subscriptionId),
      );
      if (changed)
        return { outcome: 'applied' as const, detail: `periodo scontato del pagamento ${paymentId} pagato` };
    },
  });
}
