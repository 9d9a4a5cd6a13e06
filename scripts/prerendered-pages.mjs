// @ts-check
/**
 * The public pages the build prerenders (scripts/prerender.mjs writes them into dist/) and the
 * server sends for their path (server/plugins/not-found.ts): path → file of dist/.
 * @type {Readonly<Record<string, string>>}
 */
export const PRERENDERED_PAGES = { '/login': 'login.html' };
