/** `npm start`: build the SPA when its sources changed, then run the server (server/main.ts). */
import { buildSpaIfStale } from './build-if-stale';

buildSpaIfStale();
const { main } = await import('../server/main');
await main();
