import { count } from 'drizzle-orm';
import type { SecretBox } from '../../lib/secret-box';
import type { Database } from '../client';
import { regions, seedRuns } from '../schema';
import { seedDemo, seedFirstAdmin } from './accounts';
import { seedGeography } from './geography';
import { loadIstatGeography } from './istat';

export interface SeedOptions {
  seedDemo: boolean;
  demoPassword: string;
  adminEmail?: string | undefined;
  adminPassword?: string | undefined;
  /** Encrypts the demo's placeholder provider secret (the server's key); without it none is stored. */
  secretBox?: SecretBox | undefined;
}

export type SeedStep = 'geography' | 'demo' | 'admin';

/**
 * Seeds what is missing and records each step in `seed_runs`, so later starts only read that
 * table: geography (whenever the regions table is empty), demo tenants, accounts, plans,
 * customers and a placeholder PayPal row (when asked),
 * the first SuperAdmin (when ADMIN_EMAIL is set). Returns the steps that ran now.
 */
export async function seedDatabase(db: Database, options: SeedOptions): Promise<SeedStep[]> {
  const done = new Set((await db.select({ name: seedRuns.name }).from(seedRuns)).map((r) => r.name));
  const ran: SeedStep[] = [];
  const mark = (step: SeedStep) => db.insert(seedRuns).values({ name: step }).onConflictDoNothing();

  if (!done.has('geography')) {
    const [existing] = await db.select({ n: count() }).from(regions);
    // A database that already holds geography (loaded by other means) is left as it is.
    if ((existing?.n ?? 0) === 0) {
      await seedGeography(db, loadIstatGeography());
      ran.push('geography');
    }
    await mark('geography');
  }
  if (options.seedDemo && !done.has('demo')) {
    await seedDemo(db, options.demoPassword, options.secretBox);
    await mark('demo');
    ran.push('demo');
  }
  if (options.adminEmail && options.adminPassword && !done.has('admin')) {
    if (await seedFirstAdmin(db, options.adminEmail, options.adminPassword)) ran.push('admin');
    await mark('admin');
  }
  return ran;
}
