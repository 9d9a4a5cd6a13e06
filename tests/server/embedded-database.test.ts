/**
 * The embedded default (issue 8): PGlite in a child process, reached through a `pg` Pool on a
 * private Unix socket, the same driver and code path as PostgreSQL. Its one session is shared
 * by turns: these tests pin the turns (an extended query or a transaction is never interleaved
 * with another connection's messages), a connection lost mid-transaction, and durability when
 * the process is killed with SIGKILL.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { prestartEmbeddedDatabase } from '../../server/db/embedded/prestart.mjs';
import { openTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';

const embedded = !process.env.DATABASE_URL;
const poolOf = (database: TestDatabase) => (database.handle.db as unknown as { $client: pg.Pool }).$client;

describe.runIf(embedded)('embedded database served from its own process', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await openTestDatabase();
    pool = poolOf(database);
    await pool.query('CREATE TABLE turns (id int PRIMARY KEY, note text)');
  });
  afterAll(() => database.dispose());

  it('answers each connection its own statement, also with parameters split over many packets', async () => {
    const big = 'x'.repeat(300_000); // several socket reads: the extended query arrives in pieces
    const calls = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0
        ? pool.query<{ v: number; tag: string; n: number }>(
            "SELECT $1::int AS v, 'A' AS tag, length($2::text) AS n",
            [i, i % 30 === 0 ? big : 'y'],
          )
        : i % 3 === 1
          ? pool.query<{ v: string; tag: string }>("SELECT $1::text AS v, 'B' AS tag", [String(i)])
          : pool.query<{ v: number; tag: string }>('SELECT $1::int AS v, $2::text AS tag', [i, 'C']),
    );
    const rows = (await Promise.all(calls)).map((r) => r.rows[0]);
    rows.forEach((row, i) => {
      expect(row).toMatchObject({ v: i % 3 === 1 ? String(i) : i, tag: 'ABC'[i % 3] });
      if (i % 3 === 0) expect((row as unknown as { n: number }).n).toBe(i % 30 === 0 ? big.length : 1);
    });
  });

  it('keeps a transaction to its connection: others wait for the commit and see it whole', async () => {
    const a = await pool.connect();
    try {
      await a.query('BEGIN');
      await a.query("INSERT INTO turns VALUES (1, 'uno')");
      const other = pool.query<{ n: number }>('SELECT count(*)::int AS n FROM turns');
      await a.query("INSERT INTO turns VALUES (2, 'due')");
      await a.query('COMMIT');
      expect((await other).rows[0]?.n).toBe(2);
    } finally {
      a.release();
    }
    // A failed statement inside a transaction, then ROLLBACK: nothing kept, the session usable.
    const b = await pool.connect();
    try {
      await b.query('BEGIN');
      await b.query("INSERT INTO turns VALUES (3, 'tre')");
      await expect(b.query("INSERT INTO turns VALUES (1, 'doppio')")).rejects.toThrow(/duplicate key/);
      await b.query('ROLLBACK');
    } finally {
      b.release();
    }
    expect((await pool.query('SELECT id FROM turns ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('rolls back the transaction of a connection that goes away, and serves the others', async () => {
    const lost = await pool.connect();
    await lost.query('BEGIN');
    await lost.query("INSERT INTO turns VALUES (9, 'perso')");
    const waiting = pool.query<{ ids: number[] }>('SELECT array_agg(id ORDER BY id) AS ids FROM turns');
    lost.release(new Error('connection dropped by the test')); // destroys the socket
    expect((await waiting).rows[0]?.ids).toEqual([1, 2]);
  });
});

describe.runIf(embedded)('prepared statements of the shared session', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await openTestDatabase();
    pool = poolOf(database);
  });
  afterAll(() => database.dispose());

  it('keeps named statements per connection, as PostgreSQL does, and drops them with it', async () => {
    // node-postgres prepares a named statement once per connection (drizzle's .prepare()): two
    // connections preparing the same name must not collide in PGlite's one session.
    const named = (n: number) => ({ name: 'same_name', text: 'SELECT $1::int * 2 AS v', values: [n] });
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      expect((await a.query(named(1))).rows).toEqual([{ v: 2 }]);
      expect((await b.query(named(2))).rows).toEqual([{ v: 4 }]);
      expect((await a.query(named(3))).rows).toEqual([{ v: 6 }]); // reused, not prepared again
      const prepared = await a.query<{ name: string }>(
        'SELECT name FROM pg_prepared_statements ORDER BY name',
      );
      expect(prepared.rows.filter((r) => r.name.endsWith('same_name'))).toHaveLength(2);
    } finally {
      a.release(new Error('closed by the test')); // ends that connection
      b.release();
    }
    // The closed connection's statement is gone from the session once the database process has
    // seen that connection close (asynchronously); the other one's stays.
    const names = async () =>
      (await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows
        .map((r) => r.name)
        .filter((name) => name.endsWith('same_name'));
    await expect.poll(names, { timeout: 10_000 }).toHaveLength(1);
  });
});

describe.runIf(embedded)('npm start opening the database early', () => {
  it('adopts the process started for the same data directory, and ends one started for another', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-prestart-'));
    try {
      const dataDir = path.join(dir, 'pglite');
      const first = await openDatabase({ kind: 'pglite', dataDir }); // creates the data directory
      await first.close();

      prestartEmbeddedDatabase({ DATA_DIR: dir });
      const early = prestartedPid();
      const adopted = await openDatabase({ kind: 'pglite', dataDir });
      expect(adopted.embeddedPid).toBe(early);
      const adoptedPool = (adopted.db as unknown as { $client: pg.Pool }).$client;
      expect((await adoptedPool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await adopted.close();

      prestartEmbeddedDatabase({ DATA_DIR: dir });
      const guessed = prestartedPid();
      const other = await openDatabase({ kind: 'pglite' }); // another database: not that process
      expect(other.embeddedPid).not.toBe(guessed);
      await other.close();
      await waitForExit(guessed);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000); // three PGlite starts in new processes
});

const prestartedPid = () =>
  (globalThis as unknown as Record<symbol, { child: { pid: number } }>)[
    Symbol.for('rinnova.prestartedDatabase')
  ]?.child.pid;

/** Resolves once the process has ended (polls /proc; no timing assumption beyond the test's). */
async function waitForExit(pid: number | undefined): Promise<void> {
  if (pid === undefined) throw new Error('no process');
  while (
    await stat(`/proc/${pid}`).then(
      () => true,
      () => false,
    )
  )
    await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.runIf(embedded)('one database process per data directory', () => {
  it('a second open of a data directory waits for the first to close, then sees its data', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-lock-'));
    try {
      const dataDir = path.join(dir, 'pglite');
      const first = await openDatabase({ kind: 'pglite', dataDir });
      const firstPool = (first.db as unknown as { $client: pg.Pool }).$client;
      await firstPool.query('CREATE TABLE kept (value text)');
      await firstPool.query("INSERT INTO kept VALUES ('primo')");
      expect(await readFile(`${dataDir}.lock`, 'utf8')).toBe(String(first.embeddedPid));
      // A restart at once (the previous server still closing): the new process waits for the lock.
      const opening = openDatabase({ kind: 'pglite', dataDir });
      await first.close();
      const second = await opening;
      try {
        expect(await readFile(`${dataDir}.lock`, 'utf8')).toBe(String(second.embeddedPid));
        const secondPool = (second.db as unknown as { $client: pg.Pool }).$client;
        expect((await secondPool.query('SELECT value FROM kept')).rows).toEqual([{ value: 'primo' }]);
      } finally {
        await second.close();
      }
      await expect(stat(`${dataDir}.lock`)).rejects.toThrow(); // released with the database
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000); // two PGlite starts on disk in new processes
});

describe.runIf(embedded)('embedded database on disk', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps what was committed when the process is killed with SIGKILL, not what was not', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-kill9-'));
    dirs.push(dataDir);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./helpers/embedded-child.ts', import.meta.url)),
        dataDir,
        'salvato',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env } },
    );
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const handle = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
      expect((await pool.query('SELECT value FROM kept')).rows).toEqual([{ value: 'salvato' }]);
    } finally {
      await handle.close();
    }
    // The socket lives in a private directory, not in DATA_DIR.
    await expect(stat(path.join(dataDir, '.s.PGSQL.5432'))).rejects.toThrow();
  }, 120_000); // a new data directory runs initdb in the child: seconds, more on a loaded machine
});
