/**
 * `npm run tenants -- …` (issue 25): the usage on a wrong command, and, on a migrated and seeded
 * database, each tenant with where its database lives.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tenancyMessages } from '../../../contract/messages';
import { plans, tenants } from '../../../server/db/schema';
import { runTenantsCli } from '../../../server/db/tenancy/cli';
import { createTenantDatabases } from '../../../server/db/tenancy/tenant-databases';
import { openTestDatabase } from '../helpers/test-database';

afterEach(() => vi.unstubAllEnvs());

describe('npm run tenants', () => {
  it('answers its usage, in Italian, to an unknown command (exit 2)', async () => {
    const lines: string[] = [];
    expect(await runTenantsCli(['sposta-tutto'], (l) => lines.push(l))).toBe(2);
    expect(lines.join('\n')).toContain('Uso: npm run tenants -- <comando>');
    for (const command of [
      'backup <id>',
      'restore <id> <file>',
      'export <id>',
      'delete <id> --yes',
      'move <id>',
    ])
      expect(lines.join('\n')).toContain(command);
    // An operation without a tenant id, or a restore without its file: the usage.
    expect(await runTenantsCli(['backup'], () => undefined)).toBe(2);
    expect(await runTenantsCli(['restore', '7'], () => undefined)).toBe(2);
    // Deleting asks for --yes before opening anything.
    const refused: string[] = [];
    expect(await runTenantsCli(['delete', '7'], (l) => refused.push(l))).toBe(2);
    expect(refused).toEqual(['Eliminare il tenant 7 è definitivo: aggiungi --yes per confermare.']);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'lists each tenant with its database, server and state',
    async () => {
      const database = await openTestDatabase();
      try {
        vi.stubEnv('DATABASE_URL', database.handle.url ?? '');
        const lines: string[] = [];
        expect(await runTenantsCli(['list'], (l) => lines.push(l))).toBe(0);
        const name = new URL(database.handle.url ?? '').pathname.slice(1);
        expect(lines).toContain(`1\tDemo Srl\tcontrol\t${name}\tready\t—`);
        const one: string[] = [];
        expect(await runTenantsCli(['where', '999999'], (l) => one.push(l))).toBe(2);
        expect(one).toEqual(['Tenant 999999 inesistente.']);
      } finally {
        await database.dispose();
      }
    },
  );

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'backup, restore, export, move and delete one tenant from the terminal',
    { timeout: 120_000 },
    async () => {
      const database = await openTestDatabase();
      const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-cli-ops-'));
      const setup = createTenantDatabases({
        control: database.handle,
        servers: { second: process.env.DATABASE_URL ?? '' },
      });
      try {
        const url = database.handle.url ?? '';
        vi.stubEnv('DATABASE_URL', url);
        vi.stubEnv('TENANT_DATABASE_SERVERS', `second=${process.env.DATABASE_URL ?? ''}`);
        const [row] = await database.handle.db
          .insert(tenants)
          .values({ name: 'Tenant da terminale' })
          .returning({ id: tenants.id });
        const id = row?.id ?? 0;
        await setup.create(id, 'control');
        const names = async () =>
          (
            await setup
              .connectionFor(id)
              .select({ name: plans.name })
              .from(plans)
              .where(eq(plans.tenantId, id))
          ).map((r) => r.name);
        await setup
          .connectionFor(id)
          .insert(plans)
          .values({ tenantId: id, name: 'Prima', recurringCostBeforeVat: '1.00', recurrenceType: 1 })
          .execute();
        const run = async (...argv: string[]) => {
          const lines: string[] = [];
          const code = await runTenantsCli(argv, (l) => lines.push(l), { directoryTtlMs: 0 });
          await setup.invalidate(id);
          return { code, lines };
        };
        const file = path.join(dir, 'uno.backup');
        const backup = await run('backup', String(id), file);
        expect(backup.code).toBe(0);
        expect(backup.lines[0]).toMatch(new RegExp(`^Backup del tenant ${id} scritto in ${file} \\(`));
        await setup
          .connectionFor(id)
          .update(plans)
          .set({ name: 'Dopo' })
          .where(eq(plans.tenantId, id))
          .execute();
        expect((await run('restore', String(id), file)).code).toBe(0);
        expect(await names()).toEqual(['Prima']);
        // Refused with the Italian reason, exit 1.
        expect(await run('restore', '1', file)).toEqual({
          code: 1,
          lines: [tenancyMessages.backupOfAnotherTenant(id, 1)],
        });
        expect(await run('backup', '1')).toEqual({ code: 1, lines: [tenancyMessages.noOwnDatabase] });

        const moved = await run('move', String(id), 'second');
        expect(moved.code).toBe(0);
        expect(moved.lines[0]).toContain(`Tenant ${id} spostato sul server second`);
        expect(await setup.placementOf(id)).toMatchObject({ server: 'second' });
        expect(await names()).toEqual(['Prima']);

        const exported = await run('export', String(id), path.join(dir, 'export'));
        expect(exported.code).toBe(0);
        expect(await readdir(path.join(dir, 'export'))).toEqual([
          expect.stringMatching(/^tenant-\d+-\d{8}-\d{6}\.zip$/),
        ]);

        // delete writes its own export first, then deletes.
        const deleted = await run('delete', String(id), '--yes', path.join(dir, 'prima-di-eliminare'));
        expect(deleted.code).toBe(0);
        expect(deleted.lines[0]).toMatch(/^Esportazione del tenant \d+ scritta in .*\.zip/);
        expect(deleted.lines[1]).toBe(
          `Tenant ${id} eliminato: database, voce della directory e iscrizioni rimossi.`,
        );
        expect(await database.handle.db.select().from(tenants).where(eq(tenants.id, id))).toEqual([]);
        expect(await setup.placementOf(id)).toMatchObject({ database: null });
      } finally {
        await setup.close();
        await database.dispose();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
