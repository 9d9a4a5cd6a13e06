import type { EventBus } from '../../unit-of-work/events';
import { creditNoteForRefund, issueInvoiceForPayment } from './invoice.service';

/**
 * What invoicing does when billing tells it something: a paid payment gets its invoice, numbered
 * in the same transaction (so a number is never used by a payment that rolls back, and never
 * skipped); a refunded charge gets the credit note of its invoice, reported back to the provider
 * event that caused it.
 */
export function subscribeInvoicing(events: EventBus): void {
  events.subscribe('payment.paid', {
    name: 'invoice.issue',
    phase: 'inTransaction',
    handle: async (w, { paymentId }) => {
      await issueInvoiceForPayment(w, paymentId);
    },
  });
  events.subscribe('payment.refunded', {
    name: 'invoice.creditNote',
    phase: 'inTransaction',
    handle: (w, refund) => creditNoteForRefund(w, refund),
  });
}
