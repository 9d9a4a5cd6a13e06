import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { outbox } from '../db/schema';
import type { Mailer, MailMessage } from '../mail/mailer';
import type { EventBus, EventOutboxPayload } from './events';

export interface OutboxDispatcher {
  /** Sends the given pending rows (after their unit committed), in the database the unit wrote them to. */
  dispatch(ids: readonly number[], database?: Database): Promise<void>;
  /**
   * Sends every row still pending (after a crash between commit and dispatch, or a failed send),
   * in the control database and, unless `controlOnly`, in every tenant's own database (a few at a
   * time).
   */
  dispatchPending(options?: { controlOnly?: boolean }): Promise<number>;
}

/**
 * Sends outbox rows once: a row is claimed by setting `sent_at` in the same statement that reads
 * it (`UPDATE … WHERE sent_at IS NULL RETURNING`), so two dispatchers never send it twice; a failed
 * send clears the claim, counts the attempt and keeps the error for the next sweep.
 */
export function createOutboxDispatcher(deps: {
  db: Database;
  mailer: Mailer;
  log: FastifyBaseLogger;
  clock: () => Date;
  /** After-commit consumers of domain events (rows of kind 'event'). */
  events?: EventBus;
  /** The tenants' own databases, each with its outbox (db/tenancy); absent: the control database only. */
  tenantDatabases?: () => Promise<Database[]>;
}): OutboxDispatcher {
  const { mailer, log, clock, events } = deps;

  async function send(row: {
    id: number;
    tenantId: number | null;
    kind: string;
    payload: unknown;
  }): Promise<void> {
    if (row.kind === 'email') return mailer.send(row.payload as MailMessage);
    if (row.kind === 'event' && events && row.tenantId !== null)
      return events.deliver(row.tenantId, row.id, row.payload as EventOutboxPayload);
    throw new Error(`outbox: unknown kind ${row.kind}`);
  }

  async function dispatchRows(db: Database, where: ReturnType<typeof and>): Promise<number> {
    const claimed = await db
      .update(outbox)
      .set({ sentAt: clock(), attempts: sql`${outbox.attempts} + 1` })
      .where(and(isNull(outbox.sentAt), where))
      .returning({ id: outbox.id, tenantId: outbox.tenantId, kind: outbox.kind, payload: outbox.payload });
    claimed.sort((a, b) => a.id - b.id);
    let sent = 0;
    for (const row of claimed) {
      try {
        await send(row);
        sent++;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.warn(
          { outboxId: row.id, kind: row.kind, error: message },
          'invio dalla outbox fallito: riprovo più tardi',
        );
        await db
          .update(outbox)
          .set({ sentAt: null, lastError: message.slice(0, 500) })
          .where(eq(outbox.id, row.id));
      }
    }
    return sent;
  }

  return {
    async dispatch(ids, database = deps.db) {
      await dispatchRows(database, inArray(outbox.id, [...ids]));
    },
    async dispatchPending(options = {}) {
      let sent = await pendingIn(deps.db);
      if (options.controlOnly) return sent;
      const queue = [...((await deps.tenantDatabases?.()) ?? [])];
      const worker = async () => {
        // Read the total after the await: `sent += await …` would add to the value read before it
        // and drop what the other workers counted meanwhile.
        for (let db = queue.shift(); db; db = queue.shift()) {
          const n = await pendingIn(db);
          sent += n;
        }
      };
      await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
      return sent;
    },
  };

  async function pendingIn(db: Database): Promise<number> {
    const pending = await db
      .select({ id: outbox.id })
      .from(outbox)
      .where(isNull(outbox.sentAt))
      .orderBy(asc(outbox.id))
      .limit(1000);
    if (pending.length === 0) return 0;
    return dispatchRows(
      db,
      inArray(
        outbox.id,
        pending.map((p) => p.id),
      ),
    );
  }
}
