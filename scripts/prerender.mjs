// @ts-check
/**
 * The public pages written as HTML with their markup (issue 8): src/app/prerender.tsx built by
 * Vite in SSR mode into a temporary folder, run, and its markup put into #root of the built
 * index.html, saved as dist/<page>.html (served for that path by server/plugins/not-found.ts).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRERENDERED_PAGES } from './prerendered-pages.mjs';

/** @param {string} root the checkout @param {string} distDir the client build's output */
export async function prerenderPages(root, distDir) {
  const { build } = await import('vite');
  // Inside the checkout, so the bundle's bare imports (react, react-router…) resolve from node_modules.
  const outDir = await mkdtemp(path.join(root, 'node_modules', '.rinnova-prerender-'));
  try {
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      logLevel: 'warn',
      build: {
        ssr: path.join(root, 'src/app/prerender.tsx'),
        outDir,
        emptyOutDir: true,
        copyPublicDir: false,
        rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
      },
    });
    /** @type {{ renderPage(pathname: string): Promise<string> }} */
    const entry = await import(pathToFileURL(path.join(outDir, 'prerender.mjs')).href);
    const shell = await readFile(path.join(distDir, 'index.html'), 'utf8');
    const slot = '<div id="root"></div>';
    if (!shell.includes(slot)) throw new Error(`prerender: ${slot} missing from index.html`);
    for (const [pathname, file] of Object.entries(PRERENDERED_PAGES)) {
      const markup = await entry.renderPage(pathname);
      await writeFile(path.join(distDir, file), shell.replace(slot, `<div id="root">${markup}</div>`));
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
