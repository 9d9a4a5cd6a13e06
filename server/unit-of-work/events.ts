/**
 * Domain events between modules (issue 24). A unit of work publishes what happened
 * (`w.publish('payment.paid', { … })`); the modules that act on it subscribe at start-up, each in
 * its own module, and say when they run:
 * - 'inTransaction': inside the publishing unit, on its transaction (invoice numbering commits
 *   with the payment; a failure rolls the whole unit back);
 * - 'afterCommit': once the unit has committed, through the outbox: the unit writes one outbox row
 *   per consumer in its transaction, the dispatcher hands it to the consumer after commit, and a
 *   failed attempt is retried by the outbox sweep (a job every minute). For network calls.
 * Producers never import their consumers; consumers never import each other.
 */
import type { DomainEventName, DomainEvents } from '../../contract/domain-events';
import type { UnitOfWork } from './unit-of-work';

/**
 * What an in-transaction consumer may say of what it did (e.g. the credit note of a refund: which
 * one, or why none), for the producer to record (a provider event's outcome). Most say nothing.
 */
export interface EventReport {
  consumer: string;
  outcome: 'applied' | 'unchanged' | 'ignored';
  detail: string | null;
  /** Counts for a producer that answers them (the customer's own save: invoices issued, waiting). */
  figures?: Readonly<Record<string, number>>;
}

export interface InTransactionConsumer<N extends DomainEventName> {
  /** Who consumes (for logs and the outbox): 'invoice.issue', 'webhooks.payment'. */
  name: string;
  phase: 'inTransaction';
  handle(w: UnitOfWork, payload: DomainEvents[N]): Promise<Omit<EventReport, 'consumer'> | void>;
}

/** What an after-commit consumer receives: the event as published, in its tenant. */
export interface CommittedEvent<N extends DomainEventName> {
  tenantId: number;
  payload: DomainEvents[N];
  /** When the publishing unit ran (its clock). */
  at: Date;
  /** The outbox row: the same id on a retry, so a consumer can make its work idempotent. */
  outboxId: number;
}

export interface AfterCommitConsumer<N extends DomainEventName> {
  name: string;
  phase: 'afterCommit';
  handle(event: CommittedEvent<N>): Promise<void>;
}

export type Consumer<N extends DomainEventName> = InTransactionConsumer<N> | AfterCommitConsumer<N>;

/** The outbox row of an after-commit delivery (kind 'event'). */
export interface EventOutboxPayload {
  event: DomainEventName;
  consumer: string;
  payload: unknown;
  at: string;
}

export interface EventBus {
  subscribe<N extends DomainEventName>(event: N, consumer: Consumer<N>): void;
  /** The consumers of `event`, in subscription order. */
  consumersOf<N extends DomainEventName>(event: N): readonly Consumer<N>[];
  /** Runs an after-commit delivery read back from the outbox. */
  deliver(tenantId: number, outboxId: number, row: EventOutboxPayload): Promise<void>;
}

export function createEventBus(): EventBus {
  const consumers = new Map<DomainEventName, Consumer<DomainEventName>[]>();
  const afterCommit = new Map<string, AfterCommitConsumer<DomainEventName>>();
  return {
    subscribe(event, consumer) {
      const list = consumers.get(event) ?? [];
      if (list.some((c) => c.name === consumer.name))
        throw new Error(`events: ${consumer.name} subscribes to ${event} twice`);
      list.push(consumer as unknown as Consumer<DomainEventName>);
      consumers.set(event, list);
      if (consumer.phase === 'afterCommit')
        afterCommit.set(
          `${event} ${consumer.name}`,
          consumer as unknown as AfterCommitConsumer<DomainEventName>,
        );
    },
    consumersOf<N extends DomainEventName>(event: N) {
      return (consumers.get(event) ?? []) as unknown as readonly Consumer<N>[];
    },
    async deliver(tenantId, outboxId, row) {
      const consumer = afterCommit.get(`${row.event} ${row.consumer}`);
      if (!consumer) throw new Error(`events: nessun consumatore ${row.consumer} di ${row.event}`);
      await consumer.handle({
        tenantId,
        payload: row.payload as DomainEvents[DomainEventName],
        at: new Date(row.at),
        outboxId,
      });
    },
  };
}
