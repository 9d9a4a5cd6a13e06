/**
 * The one inbox of payment providers' events (PayPal and Stripe webhooks): a verified event is
 * claimed by (tenant, provider, event id) in `provider_webhook_events` in the same unit of work that
 * applies it, with its outcome, so a second delivery (or two at once) finds it and does nothing.
 * Each provider's module says how its event reads (id, type, the subscription it is about, who
 * acts) and what it does; this module is the rest.
 */
import { eq } from 'drizzle-orm';
import type { ProviderKind } from '../../providers/payment-provider';
import { providerWebhookEvents } from '../../db/schema';
import type { Actor, UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import type { WebhookOutcome } from './provider-payments';

export interface InboxEvent {
  provider: ProviderKind;
  id: string;
  type: string;
  /** The provider's subscription (or charge) the event is about, when it names one. */
  resourceId: string | null;
  /** What is stored of the event (its payload as the provider sent it, or the part that matters). */
  payload: unknown;
  /** Who acts in the unit: the provider, or the customer's payment token it confirms. */
  actor: Actor;
}

export type InboxResult = { outcome: WebhookOutcome; detail: string | null };

export async function receiveProviderEvent(
  uow: UnitOfWorkRunner,
  tenantId: number,
  event: InboxEvent,
  handle: (w: UnitOfWork) => Promise<InboxResult>,
): Promise<InboxResult> {
  return uow.run({ tenantId, actor: event.actor }, async (w) => {
    const [claimed] = await w.tx
      .insert(providerWebhookEvents)
      .values({
        tenantId: w.tenantId,
        provider: event.provider,
        eventId: event.id.slice(0, 200),
        eventType: event.type.slice(0, 100),
        resourceId: event.resourceId?.slice(0, 200) ?? null,
        outcome: 'received',
        payload: event.payload,
        receivedAt: w.now,
      })
      .onConflictDoNothing()
      .returning({ id: providerWebhookEvents.id });
    if (!claimed) return { outcome: 'duplicate', detail: null };
    const result = await handle(w);
    await w.tx
      .update(providerWebhookEvents)
      .set({ outcome: result.outcome, detail: result.detail })
      .where(eq(providerWebhookEvents.id, claimed.id));
    return result;
  });
}
