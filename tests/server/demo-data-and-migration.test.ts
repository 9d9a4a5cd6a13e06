import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../contract/envelope';
import type { PaymentProvider } from '../../contract/schemas/payment-provider';
import { SECRET_MASK } from '../../contract/schemas/payment-provider';
import type { Plan } from '../../contract/schemas/plan';
import type { User } from '../../contract/schemas/user';
import { isValidPartitaIva } from '../../contract/validation/italian';
import { migrationsFolder } from '../../server/db/client';
import { paymentProviders, plans } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed/seed';
import { createSecretBox } from '../../server/lib/secret-box';
import { dataOf } from './helpers/entity-checks';
import { createTestContext, JWT_SECRET } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';
import { openEmptyDatabase } from './helpers/test-database';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('demo data of Demo Srl', () => {
  it('four plans with their features (Plus, added with its trial: demo-lifecycle.ts); Studio Rossi has its own two', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const list = dataOf(await admin.get<Paged<Plan>>('/api/plan/getAll', { query: { pageSize: 100 } }));
    expect(
      list.items.map((p) => [p.name, p.recurringCostBeforeVAT, p.recurrenceTypeName, p.planFeatures.length]),
    ).toEqual([
      ['Basic', 9.9, 'Mensile', 2],
      ['Enterprise', 990, 'Annuale', 3],
      ['Plus', 19.9, 'Mensile', 2],
      ['Pro', 29.9, 'Mensile', 3],
    ]);
    const rossi = await ctx.as('superadmin', 'Studio Rossi');
    expect(dataOf(await rossi.get<Paged<Plan>>('/api/plan/getAll')).items.map((p) => p.name)).toEqual([
      'Check-up annuale',
      'Consulenza mensile',
    ]);
  });

  it('a PayPal sandbox row whose placeholder credentials say so; its secret is masked and encrypted', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const [provider] = dataOf(await admin.get<Paged<PaymentProvider>>('/api/paymentprovider/getAll')).items;
    expect(provider).toMatchObject({
      name: 'PayPal Sandbox (credenziali segnaposto)',
      apiUrl: 'https://api-m.sandbox.paypal.com',
      apiKey: 'SEGNAPOSTO-sandbox-client-id',
      apiSecret: SECRET_MASK,
    });
    const [row] = await ctx.db
      .select()
      .from(paymentProviders)
      .where(eq(paymentProviders.id, provider?.id ?? 0));
    expect(
      createSecretBox(JWT_SECRET).open(
        row?.apiSecretEncrypted ?? '',
        'payment_providers.api_secret_encrypted',
        row?.id ?? 0,
      ),
    ).toBe('SEGNAPOSTO-sandbox-secret');
  });

  it('customers with billing addresses (valid Partita IVA and SDI), and addresses of the demo User', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    const customers = dataOf(
      await admin.get<Paged<User>>('/api/user/getAll', { query: { 'filters[roleId]': 3, pageSize: 100 } }),
    ).items;
    // The catalogue's three customers and the demo User, among those of the billing history (demo-billing.ts).
    expect(customers.map((u) => u.name)).toEqual(
      expect.arrayContaining(['Bianchi Consulting Srl', 'Cliente Demo', 'Laura Verdi', 'Mario Rossi']),
    );
    expect(customers.length).toBeGreaterThanOrEqual(40);
    const company = customers.find((u) => u.name === 'Bianchi Consulting Srl');
    expect(isValidPartitaIva(company?.vatCode ?? '')).toBe(true);
    expect(company?.billingAddress).toMatchObject({
      municipality: { name: 'Milano' },
      province: { abbreviation: 'MI' },
      region: { name: 'Lombardia' },
    });
    // Every customer has a billing address in a comune (the demo User too), but the German business.
    expect(customers.filter((u) => !u.billingAddress?.municipality).map((u) => u.name)).toEqual([
      'Lindner Medien GmbH',
    ]);
    expect(customers.find((u) => u.name === 'Cliente Demo')?.billingAddress).toMatchObject({
      municipality: { name: 'Roma' },
    });
    const cliente = await ctx.as('cliente', 'Demo Srl');
    expect(dataOf(await cliente.get<Paged<unknown>>('/api/address/getAll')).totalCount).toBe(2);
    expect(dataOf(await admin.get<Paged<unknown>>('/api/address/getAll')).totalCount).toBe(3);
  });

  it('is seeded once: seeding again adds no plan', async () => {
    const plansNow = async () => (await ctx.db.select({ n: count() }).from(plans))[0]?.n;
    const before = await plansNow();
    expect(await seedDatabase(ctx.db, { seedDemo: true, demoPassword: 'altra' })).toEqual([]);
    expect(await plansNow()).toBe(before);
  });
});

// A fresh engine and every migration from an empty database: schema work rather than requests
// (2–4 s alone), so it has its own budget like the other start-up tests.
it('migration 0002 moves what a tenant knew of a user from the identity to the membership', async () => {
  // The migrations up to 0001, as a database created before this issue had them.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-migrations-'));
  const database = await openEmptyDatabase();
  try {
    await cp(migrationsFolder, dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const upTo = journal.entries.findIndex((e) => e.tag === '0001_init');
    await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo + 1) }));
    await database.handle.migrate(dir);

    const db = database.handle.db;
    await db.execute(sql`insert into tenants (id, name) values (1, 'Vecchio')`);
    await db.execute(
      sql`insert into users (id, email, name, pec, phone, sdi, vat_code, is_company, role_id)
          values (1, 'vecchio@example.com', 'Vecchio Cliente', 'v@pec.example.com', '+39 06 1', 'ABCDEFG', '12345678903', true, 3)`,
    );
    await db.execute(sql`insert into user_tenants (user_id, tenant_id) values (1, 1)`);

    await database.handle.migrate();
    const { rows } = (await db.execute(
      sql`select name, pec, phone, sdi, vat_code, is_company, is_active from user_tenants`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(rows).toEqual([
      {
        name: 'Vecchio Cliente',
        pec: 'v@pec.example.com',
        phone: '+39 06 1',
        sdi: 'ABCDEFG',
        vat_code: '12345678903',
        is_company: true,
        is_active: true,
      },
    ]);
  } finally {
    await database.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}, 30_000);
