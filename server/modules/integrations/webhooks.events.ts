import type { WebhookEventType } from '../../../contract/integrations';
import type { SubscriptionEvent } from '../../../contract/subscription-status';
import type { EventBus } from '../../unit-of-work/events';
import { emitBankTransferApproved, emitPaymentSucceeded, emitSubscriptionEvent } from './webhook-emit';

/** The outbound webhook each move of the state machine fires (none for the others). */
const webhookOfMove: Partial<Record<SubscriptionEvent, WebhookEventType>> = {
  pay: 'subscription.activated',
  providerActivated: 'subscription.activated',
  confirmBankTransfer: 'subscription.activated',
  providerSuspended: 'subscription.renewal_failed',
  collectionExhausted: 'subscription.renewal_failed',
  cancel: 'subscription.canceled',
  providerCanceled: 'subscription.canceled',
  expire: 'subscription.expired',
  // Issue 30: a trial that ended unpaid (its start is `subscription.created`, already live).
  trialExpired: 'subscription.expired',
};

/**
 * The tenant's outbound webhooks, fired by billing's events: the deliveries are rows written in
 * the publishing transaction (a rolled-back change sends nothing), sent by the delivery job after
 * commit (the unit's 'webhooks' signal).
 */
export function subscribeOutboundWebhooks(events: EventBus): void {
  events.subscribe('subscription.created', {
    name: 'webhooks.subscriptionCreated',
    phase: 'inTransaction',
    handle: (w, { subscriptionId }) => emitSubscriptionEvent(w, 'subscription.created', subscriptionId),
  });
  events.subscribe('subscription.statusChanged', {
    name: 'webhooks.subscriptionStatus',
    phase: 'inTransaction',
    handle: async (w, { subscriptionId, event }) => {
      const type = webhookOfMove[event];
      if (type) await emitSubscriptionEvent(w, type, subscriptionId);
    },
  });
  events.subscribe('subscription.planChanged', {
    name: 'webhooks.subscriptionPlanChanged',
    phase: 'inTransaction',
    handle: (w, { subscriptionId }) => emitSubscriptionEvent(w, 'subscription.plan_changed', subscriptionId),
  });
  events.subscribe('subscription.paused', {
    name: 'webhooks.subscriptionPaused',
    phase: 'inTransaction',
    handle: (w, { subscriptionId }) => emitSubscriptionEvent(w, 'subscription.paused', subscriptionId),
  });
  events.subscribe('subscription.resumed', {
    name: 'webhooks.subscriptionResumed',
    phase: 'inTransaction',
    handle: (w, { subscriptionId }) => emitSubscriptionEvent(w, 'subscription.resumed', subscriptionId),
  });
  events.subscribe('payment.paid', {
    name: 'webhooks.paymentSucceeded',
    phase: 'inTransaction',
    handle: (w, { paymentId }) => emitPaymentSucceeded(w, paymentId),
  });
  events.subscribe('bankTransfer.approved', {
    name: 'webhooks.bankTransferApproved',
    phase: 'inTransaction',
    handle: (w, { bankTransferId }) => emitBankTransferApproved(w, bankTransferId),
  });
}
