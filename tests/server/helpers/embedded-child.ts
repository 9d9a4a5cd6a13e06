/**
 * A process holding the embedded database (tests/server/embedded-database.test.ts): opens
 * DATA_DIR (argv[2]), commits the row named by argv[3], leaves a second one in an open
 * transaction, prints "ready" and waits to be killed.
 */
import type pg from 'pg';
import { openDatabase } from '../../../server/db/client';

const [dataDir, value] = process.argv.slice(2);
const handle = await openDatabase({ kind: 'pglite', dataDir: dataDir as string });
const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
await pool.query('CREATE TABLE IF NOT EXISTS kept (value text NOT NULL)');
await pool.query('INSERT INTO kept (value) VALUES ($1)', [value]);
const open = await pool.connect();
await open.query('BEGIN');
await open.query('INSERT INTO kept (value) VALUES ($1)', [`${value}-uncommitted`]);
console.log('ready');
setInterval(() => undefined, 1_000);
