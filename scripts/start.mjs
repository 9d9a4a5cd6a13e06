// @ts-check
/**
 * `npm start`: builds what is stale (the SPA in dist/, the server bundle in dist-server/; after
 * `npm run build` nothing is), then runs the bundled server with plain Node: no TypeScript
 * transform at start. `npm run dev` runs the sources with tsx watch instead.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { prestartEmbeddedDatabase } from '../server/db/embedded/prestart.mjs';
import { buildIfStale, serverEntry } from './build-lib.mjs';

// The build embeds some settings, so read .env before deciding whether to rebuild (the server
// reads it too; variables already set win, as loadEnvFile does not overwrite).
if (existsSync('.env')) process.loadEnvFile('.env');
// The embedded database's process opens PGlite while the server's bundle loads (see prestart.mjs).
prestartEmbeddedDatabase(process.env);
try {
  await buildIfStale({ log: console.log });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
// Stack traces name the TypeScript sources (dist-server/main.mjs.map).
process.setSourceMapsEnabled(true);
/** @type {{ main: () => Promise<void> }} */
const server = await import(pathToFileURL(serverEntry).href);
await server.main();
