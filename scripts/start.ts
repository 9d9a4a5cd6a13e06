/** `npm start`: build the SPA when its sources changed, then run the server (server/main.ts). */
import { existsSync } from 'node:fs';
import { buildSpaIfStale } from './build-if-stale';

// The build embeds some settings, so read .env before deciding whether to rebuild (the server
// reads it too; variables already set win, as loadEnvFile does not overwrite).
if (existsSync('.env')) process.loadEnvFile('.env');
buildSpaIfStale();
const { main } = await import('../server/main');
await main();
