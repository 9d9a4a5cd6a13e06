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
