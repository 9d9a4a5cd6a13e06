/**
 * One unit of work per server action (architecture: 'Billing and everything that acts without a
 * signed-in user'): who acts, in which tenant, at what time, inside which transaction, and what
 * must happen after commit.
 *
 *   await uow.run({ tenantId, actor }, async (w) => { ...w.tx queries...; await w.outbox.email(msg) });
 *
 * - `tenantId` is fixed for the whole unit; billing repositories take the unit as a required
 *   argument and read the tenant from it, so a query cannot forget its tenant.
 * - `now` is read once from the injected clock: every timestamp of the unit is the same instant,
 *   and tests move the clock (no `new Date()` in billing code).
 * - `tx` is the transaction; the connection comes from `connectionFor(tenantId)`, so a dedicated
 *   database per tenant is a matter of which connection the unit opens.
 * - `outbox` writes rows of the `outbox` table in the same transaction; after commit they are
 *   dispatched (e-mails now). No network call runs inside the transaction.
 */
import type { RoleId } from '../../contract/enums';
import type { ActorKind } from '../../contract/subscription-status';
import { actorKindOfRole } from '../../contract/subscription-status';
import type { Database, Transaction } from '../db/client';
import { outbox as outboxTable } from '../db/schema';
import type { MailMessage } from '../mail/mailer';
import type { DomainEventName, DomainEvents } from '../../contract/domain-events';
import type { EventBus, EventOutboxPayload, EventReport } from './events';
import type { OutboxDispatcher } from './outbox';

export type { Transaction };

export type Actor =
  | { kind: 'user'; userId: number; roleId: RoleId; email?: string }
  | { kind: 'paymentToken'; tokenId: number }
  | { kind: 'provider'; provider: string; eventId?: string }
  | { kind: 'system'; job: string }
  | { kind: 'apiKey'; keyId: number };

/** The state machine's view of an actor ('admin', 'customer', 'provider', 'system', 'apiKey'), or null. */
export function machineActorOf(actor: Actor): ActorKind | null {
  switch (actor.kind) {
    case 'user':
      // A customer (role User) signed in acts on their own subscriptions as 'subscriber'.
      return actorKindOfRole(actor.roleId);
    case 'paymentToken':
      return 'customer';
    case 'provider':
      return 'provider';
    case 'system':
      return 'system';
    case 'apiKey':
      return 'apiKey';
  }
}

/** How an actor is recorded in histories: kind, id and a readable name. */
export function describeActor(actor: Actor): { kind: Actor['kind']; id: string | null; name: string | null } {
  switch (actor.kind) {
    case 'user':
      return { kind: 'user', id: String(actor.userId), name: actor.email ?? null };
    case 'paymentToken':
      return { kind: 'paymentToken', id: String(actor.tokenId), name: 'Cliente (link di pagamento)' };
    case 'provider':
      return { kind: 'provider', id: actor.eventId ?? null, name: actor.provider };
    case 'system':
      return { kind: 'system', id: null, name: actor.job };
    case 'apiKey':
      return { kind: 'apiKey', id: String(actor.keyId), name: null };
  }
}

export interface OutboxWriter {
  /** An e-mail sent after commit (never if the unit rolls back). */
  email(message: MailMessage): Promise<void>;
}

/** Where a query runs and for which tenant (a UnitOfWork, or a read outside one). */
export interface TenantScope {
  readonly tenantId: number;
  readonly tx: Database | Transaction;
}

/** A write that belongs to no tenant (reference data, the tenants themselves). */
export interface GlobalUnitOfWork {
  readonly tenantId: number | null;
  readonly actor: Actor;
  readonly now: Date;
  readonly tx: Transaction;
  readonly outbox: OutboxWriter;
  /**
   * Names work to start after commit (e.g. 'webhooks': deliveries written in this unit); the
   * runner's `afterCommit` receives the names once the transaction committed, never on rollback.
   */
  signal(name: string): void;
  /**
   * The control database's transaction of a unit that writes both databases (scope `database:
   * 'both'`: a tenant's record of a control identity, its members): absent otherwise, and the same
   * transaction as `tx` while the tenant's rows are in the control database.
   */
  readonly control?: Transaction;
}

/** A write inside one tenant: billing repositories require this one. */
export interface UnitOfWork extends GlobalUnitOfWork {
  readonly tenantId: number;
  /**
   * Tells the modules that act on it what happened (events.ts): in-transaction consumers run now,
   * on this transaction; after-commit ones get an outbox row, delivered once the unit commits.
   */
  publish<N extends DomainEventName>(event: N, payload: DomainEvents[N]): Promise<EventReport[]>;
}

/**
 * The unit as a tenant's unit (one that publishes domain events), when it is one: the generic
 * CRUD writes receive every unit typed as global, a tenant-scoped entity's being a tenant's.
 */
export function tenantUnitOf(w: GlobalUnitOfWork): UnitOfWork | null {
  return w.tenantId !== null && typeof (w as Partial<UnitOfWork>).publish === 'function'
    ? (w as UnitOfWork)
    : null;
}

export type UnitDatabase = 'tenant' | 'control' | 'both';

export interface UnitOfWorkScope {
  tenantId: number;
  actor: Actor;
  /**
   * Where the unit's transaction runs: the tenant's database (default); the control database
   * (identities and memberships alone); or both, for a tenant's record of a person whose identity
   * and membership live in the control database (members, customers): `tx` is then the tenant's
   * transaction and `control` the control database's, opened inside it, so the control one commits
   * first and a failure of either before that undoes both. A tenant whose rows are still in the
   * control database gets one transaction for both.
   */
  database?: UnitDatabase;
}

export interface UnitOfWorkRunner {
  run<T>(scope: UnitOfWorkScope, work: (uow: UnitOfWork) => Promise<T>): Promise<T>;
  /** The same for writes of global data (geography, tenants), on the shared database. */
  runGlobal<T>(actor: Actor, work: (uow: GlobalUnitOfWork) => Promise<T>): Promise<T>;
  /** The clock units read `now` from. */
  clock(): Date;
}

export interface UnitOfWorkOptions {
  /** The connection of a tenant's data: one shared database today. */
  connectionFor: (tenantId: number) => Database;
  /** The database of global data (geography, tenants, sign-in identities). */
  shared: Database;
  clock: () => Date;
  dispatcher: OutboxDispatcher;
  /** Where units publish their domain events (absent: nobody consumes them). */
  events?: EventBus;
  /**
   * True when the tenant's rows live in a database of their own (db/tenancy); absent: never, every
   * tenant in `shared`. A 'both' unit opens one transaction when false.
   */
  hasOwnDatabase?: (tenantId: number) => Promise<boolean>;
  /**
   * Called after commit with the names the unit signalled and its tenant (null: a global unit); a
   * failure never undoes the unit.
   */
  afterCommit?: (signals: ReadonlySet<string>, tenantId: number | null) => Promise<void>;
}

export function createUnitOfWorkRunner({
  connectionFor,
  shared,
  clock,
  dispatcher,
  afterCommit,
  events,
  hasOwnDatabase,
}: UnitOfWorkOptions): UnitOfWorkRunner {
  async function execute<T, W extends GlobalUnitOfWork>(
    database: Database,
    tenantId: number | null,
    actor: Actor,
    work: (uow: W) => Promise<T>,
    /** 'both' units: the control database, whose transaction opens inside the unit's (null: the same one). */
    control?: Database | null,
  ): Promise<T> {
    const written: number[] = [];
    const signals = new Set<string>();
    const now = clock();
    const result = await database.transaction(async (tx) => {
      const inside = (controlTx: Transaction) => body(tx, controlTx);
      if (control === undefined) return body(tx, undefined);
      if (control === null) return inside(tx);
      return control.transaction(inside);
    });
    async function body(tx: Transaction, controlTx: Transaction | undefined): Promise<T> {
      const outbox: OutboxWriter = {
        async email(message) {
          const [row] = await tx
            .insert(outboxTable)
            .values({ tenantId, kind: 'email', payload: message, createdAt: now })
            .returning({ id: outboxTable.id });
          if (row) written.push(row.id);
        },
      };
      const signal = (name: string) => void signals.add(name);
      const unit = {
        tenantId,
        actor,
        now,
        tx,
        outbox,
        signal,
        ...(controlTx ? { control: controlTx } : {}),
      } as GlobalUnitOfWork & {
        publish?: UnitOfWork['publish'];
      };
      if (tenantId !== null)
        unit.publish = async (event, payload) => {
          const reports: EventReport[] = [];
          for (const consumer of events?.consumersOf(event) ?? []) {
            if (consumer.phase === 'inTransaction') {
              const report = await consumer.handle(unit as UnitOfWork, payload);
              if (report) reports.push({ consumer: consumer.name, ...report });
              continue;
            }
            const delivery: EventOutboxPayload = {
              event,
              consumer: consumer.name,
              payload,
              at: now.toISOString(),
            };
            const [row] = await tx
              .insert(outboxTable)
              .values({ tenantId, kind: 'event', payload: delivery, createdAt: now })
              .returning({ id: outboxTable.id });
            if (row) written.push(row.id);
          }
          return reports;
        };
      return work(unit as W);
    }
    // After commit: dispatch what this unit wrote. A failure is recorded on the row and
    // retried later; it never undoes the committed work.
    if (written.length > 0) await dispatcher.dispatch(written, database);
    if (signals.size > 0 && afterCommit) await afterCommit(signals, tenantId).catch(() => undefined);
    return result;
  }
  return {
    clock,
    async run(scope, work) {
      if (scope.database === 'both') {
        const own = (await hasOwnDatabase?.(scope.tenantId)) ?? false;
        return execute(connectionFor(scope.tenantId), scope.tenantId, scope.actor, work, own ? shared : null);
      }
      return execute(
        scope.database === 'control' ? shared : connectionFor(scope.tenantId),
        scope.tenantId,
        scope.actor,
        work,
      );
    },
    runGlobal: (actor, work) => execute(shared, null, actor, work),
  };
}
