/**
 * The request log of tenant-key calls, written after the answer: rows are buffered and inserted
 * in one statement on the next turn of the event loop (with the keys' `last_used_at`), so a call
 * never waits for its log line. `flush()` writes what is buffered (the log screen reads after it;
 * the app flushes on close).
 */
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { apiKeys, apiRequestLogs } from '../../db/schema';

export type RequestLogRow = typeof apiRequestLogs.$inferInsert;

export interface RequestLogWriter {
  add(row: RequestLogRow): void;
  flush(): Promise<void>;
}

export const REQUEST_LOG_DAYS = 30;

export function createRequestLogWriter(db: Database, log: FastifyBaseLogger): RequestLogWriter {
  let buffer: RequestLogRow[] = [];
  let pending: Promise<void> | null = null;

  async function write(rows: RequestLogRow[]): Promise<void> {
    try {
      await db.insert(apiRequestLogs).values(rows);
      // Last use per key: the latest time of this batch, never moved back.
      const latest = new Map<number, Date>();
      for (const r of rows) {
        const at = r.at as Date;
        const seen = latest.get(r.apiKeyId);
        if (!seen || seen < at) latest.set(r.apiKeyId, at);
      }
      for (const [id, at] of latest) {
        await db
          .update(apiKeys)
          .set({ lastUsedAt: at })
          .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, at))));
      }
    } catch (error) {
      log.warn({ err: error, rows: rows.length }, 'registro delle chiamate API: scrittura non riuscita');
    }
  }

  function schedule(): Promise<void> {
    if (!pending) {
      pending = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        while (buffer.length > 0) {
          const rows = buffer;
          buffer = [];
          await write(rows);
        }
        pending = null;
      });
    }
    return pending;
  }

  return {
    add(row) {
      buffer.push(row);
      void schedule();
    },
    async flush() {
      while (pending || buffer.length > 0) await schedule();
    },
  };
}

/** Deletes log rows older than 30 days (the recurring purge job); answers how many. */
export async function purgeRequestLog(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - REQUEST_LOG_DAYS * 86_400_000);
  const removed = await db
    .delete(apiRequestLogs)
    .where(lt(apiRequestLogs.at, cutoff))
    .returning({ id: apiRequestLogs.id });
  return removed.length;
}
