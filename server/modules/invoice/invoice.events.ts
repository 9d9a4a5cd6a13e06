import type { EventBus } from '../../unit-of-work/events';
import {
  creditNoteForPlanChange,
  creditNoteForRefund,
  issueInvoiceForPayment,
  retryBlockedPayments,
  type RetryOutcome,
} from './invoice.service';

/** Where a retry that failed unexpectedly is told (the app's logger). */
export interface InvoicingLog {
  warn(details: object, message: string): void;
}

/** What a retry did, for the publishing unit's report. */
function reportOf(outcome: RetryOutcome) {
  const issued = outcome.issued.map((i) => i.number);
  return {
    outcome: issued.length > 0 ? ('applied' as const) : ('unchanged' as const),
    detail:
      [
        issued.length > 0 ? `fatture ${issued.join(', ')} emesse` : '',
        outcome.blocked.length > 0 ? `${outcome.blocked.length} pagamenti ancora in attesa` : '',
      ]
        .filter(Boolean)
        .join('; ') || null,
    figures: { issued: issued.length, waiting: outcome.blocked.length },
  };
}

/**
 * What invoicing does when billing tells it something: a paid payment gets its invoice, numbered
 * in the same transaction (so a number is never used by a payment that rolls back, and never
 * skipped); a refunded charge gets the credit note of its invoice, reported back to the provider
 * event that caused it. When the data an invoice waits for are saved (a customer's record, the
 * tenant's billing profile), the payments waiting for them are retried in the saving unit: what
 * is now complete is issued, what still lacks data keeps waiting with this attempt's messages, and
 * a retry never fails the save.
 */
export function subscribeInvoicing(events: EventBus, log?: InvoicingLog): void {
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
  // A plan change took effect (issue 30): the partial credit note of the unused days, in its unit.
  events.subscribe('subscription.planChanged', {
    name: 'invoice.planChangeCredit',
    phase: 'inTransaction',
    handle: (w, { planChangeId }) => creditNoteForPlanChange(w, planChangeId),
  });
  events.subscribe('customer.billingDataChanged', {
    name: 'invoice.retryCustomer',
    phase: 'inTransaction',
    handle: async (w, { userId }) => {
      const outcome = await retryBlockedPayments(w, { userId, tolerant: true });
      if (outcome.failed.length > 0)
        log?.warn(
          { tenantId: w.tenantId, userId, failed: outcome.failed },
          'fatture in attesa non riprovate',
        );
      return reportOf(outcome);
    },
  });
  events.subscribe('tenant.billingProfileChanged', {
    name: 'invoice.retrySeller',
    phase: 'inTransaction',
    handle: async (w) => {
      const outcome = await retryBlockedPayments(w, { tolerant: true });
      if (outcome.failed.length > 0)
        log?.warn({ tenantId: w.tenantId, failed: outcome.failed }, 'fatture in attesa non riprovate');
      return reportOf(outcome);
    },
  });
}
