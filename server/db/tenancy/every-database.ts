/**
 * Work that sweeps every database holding tenant rows (jobs: retention, webhook deliveries, secret
 * rewrap): the control database (the tenants still there) first, then every tenant's own database
 * a few at a time, as the outbox sweep does. A tenant database that fails (unreachable, read-only
 * during a move) is reported to `onError` and the sweep goes on with the others; the control
 * database's failure stands (the job fails and is retried).
 */
import type { Database } from '../client';

export interface EveryDatabaseOptions {
  /** The tenants' own databases (TenantDatabases.ownDatabases); absent: the control database only. */
  tenantDatabases?: (() => Promise<Database[]>) | undefined;
  /** Tenant databases worked on at once (default 8). */
  concurrency?: number;
  onError?: (error: unknown, db: Database) => void;
}

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
