import { count } from 'drizzle-orm';
import type { SecretBox } from '../../lib/secret-box';
import type { Database } from '../client';
import { regions, seedRuns } from '../schema';
import { seedDemo, seedFirstAdmin, type DemoInvoicer } from './accounts';
import { seedGeography } from './geography';
import { loadIstatGeography } from './istat';

export interface SeedOptions {
  seedDemo: boolean;
  demoPassword: string;
  adminEmail?: string | undefined;
  adminPassword?: string | undefined;
  /** Encrypts the demo's placeholder provider secret (the server's key); without it none is stored. */
  secretBox?: SecretBox | undefined;
  /**
   * Issues the demo's invoices (modules/invoice/demo-invoices.ts `issueDemoInvoices`): required
   * when the demo is seeded, which never happens without its year of invoices.
   */
  demoInvoices?: DemoInvoicer | undefined;
}

export type SeedStep = 'geography' | 'demo' | 'admin';

/**
 * Seeds what is missing and records each step in `seed_runs`, so later starts only read that
 * table: geography (whenever the regions table is empty), demo tenants, accounts, plans,
 * customers, a year of billing and its invoices and a placeholder PayPal row (when asked),
 * the first SuperAdmin (when ADMIN_EMAIL is set). Returns the steps that ran now.
 *
 * All or nothing: every step and its `seed_runs` record commit in ONE transaction, so a crash
 * (kill -9, power cut) at any moment of a first start leaves either everything or nothing, and
 * the next start seeds again from where the database really is. `afterStep` runs inside that
 * transaction after each step (tests use it to fail at a chosen moment).
 */
export async function seedDatabase(
  db: Database,
  options: SeedOptions,
  afterStep?: (step: SeedStep) => void | Promise<void>,
): Promise<SeedStep[]> {
  const done = new Set((await db.select({ name: seedRuns.name }).from(seedRuns)).map((r) => r.name));
  const wanted =
    !done.has('geography') ||
    (options.seedDemo && !done.has('demo')) ||
    (options.adminEmail !== undefined && options.adminPassword !== undefined && !done.has('admin'));
  if (!wanted) return [];

  return db.transaction(async (tx) => {
    const ran: SeedStep[] = [];
    const mark = async (step: SeedStep) => {
      await tx.insert(seedRuns).values({ name: step }).onConflictDoNothing();
      await afterStep?.(step);
    };
    if (!done.has('geography')) {
      const [existing] = await tx.select({ n: count() }).from(regions);
      // A database that already holds geography (loaded by other means) is left as it is.
      if ((existing?.n ?? 0) === 0) {
        await seedGeography(tx, loadIstatGeography());
        ran.push('geography');
      }
      await mark('geography');
    }
    if (options.seedDemo && !done.has('demo')) {
      if (!options.demoInvoices) throw new Error('demo seed: demoInvoices is required to seed the demo');
      await seedDemo(tx, options.demoPassword, options.secretBox, options.demoInvoices);
      ran.push('demo');
      await mark('demo');
    }
    if (options.adminEmail && options.adminPassword && !done.has('admin')) {
      if (await seedFirstAdmin(tx, options.adminEmail, options.adminPassword)) ran.push('admin');
      await mark('admin');
    }
    return ran;
  });
}
