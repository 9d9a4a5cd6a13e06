/**
 * `npm run tenants -- …` (issue 25): the usage on a wrong command, and, on a migrated and seeded
 * database, each tenant with where its database lives.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runTenantsCli } from '../../../server/db/tenancy/cli';
import { openTestDatabase } from '../helpers/test-database';

afterEach(() => vi.unstubAllEnvs());

describe('npm run tenants', () => {
  it('answers its usage, in Italian, to an unknown command (exit 2)', async () => {
    const lines: string[] = [];
    expect(await runTenantsCli(['sposta-tutto'], (l) => lines.push(l))).toBe(2);
    expect(lines.join('\n')).toContain('Uso: npm run tenants -- <comando>');
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
});
