/**
 * One app instance in a process of its own (tests/server/postgres/two-instances.test.ts): the
 * real server (`startServer`, as `npm start` runs it) on DATABASE_URL, on a free port, without the
 * SPA; prints "ready <url>" once it listens, and stops cleanly on SIGTERM (or dies on SIGKILL).
 */
import { startServer } from '../../../server/start';

const server = await startServer({ port: 0, host: '127.0.0.1', quiet: true, spaDir: null, env: process.env });
console.log(`ready ${server.url}`);
process.once('SIGTERM', () => {
  void server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
