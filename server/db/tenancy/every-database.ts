import type { Database } from '../client';

/**
 * Runs `work` on the control database and on every tenant database of its own, a few at a time
 * (a thousand tenant databases are not opened at once), and answers the results in that order: the
 * sweeps that look for work across tenants (which tenants sell through PayPal or Stripe, …).
 */
export async function acrossDatabases<T>(
  control: Database,
  own: (() => Promise<Database[]>) | undefined,
  work: (db: Database) => Promise<T>,
  concurrency = 8,
): Promise<T[]> {
  const databases = [control, ...((await own?.()) ?? [])];
  const results: T[] = new Array<T>(databases.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < databases.length; i = next++) results[i] = await work(databases[i] as Database);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, databases.length) }, worker));
  return results;
}

export interface EveryDatabaseOptions {
  /** The tenants' own databases (TenantDatabases.ownDatabases); absent: the control database only. */
  tenantDatabases?: (() => Promise<Database[]>) | undefined;
  /** Tenant databases worked on at once (default 8). */
  concurrency?: number;
  onError?: (error: unknown, db: Database) => void;
}

/**
 * Work that sweeps every database holding tenant rows and must not stop at one tenant's database
 * (jobs: request-log retention, webhook deliveries): the control database (the tenants still
 * there) first, then every tenant's own database a few at a time, as the outbox sweep does. A
 * tenant database that fails (unreachable, read-only during a move) is reported to `onError` and
 * the sweep goes on with the others; the control database's failure stands (the job fails and is
 * retried).
 */
export async function forEveryDatabase(
  control: Database,
  work: (db: Database) => Promise<void>,
  options: EveryDatabaseOptions = {},
): Promise<void> {
  await work(control);
  const queue = [...((await options.tenantDatabases?.()) ?? [])];
  const worker = async () => {
    for (let db = queue.shift(); db; db = queue.shift()) {
      try {
        await work(db);
      } catch (error) {
        options.onError?.(error, db);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, queue.length) }, worker));
}
