import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compressDir, embeddedPrefixes, writeSpaStamp } from './scripts/build-lib.mjs';
import { prerenderPages } from './scripts/prerender.mjs';

const serverPort = Number(process.env.PORT ?? 3000);

/** The screens whose chunks the HTML preloads: a signed-out visit to any page lands on /login. */
const PRELOADED_SCREENS = ['src/features/auth/login-page.tsx'];

/**
 * `<link rel="modulepreload">` for the preloaded screens' chunks and every chunk they import
 * (the form library, zod, the auth card), so the browser fetches them beside the entry instead
 * of discovering them only once the entry has run and the router asked for the lazy screen.
 */
function preloadScreens(): Plugin {
  return {
    name: 'rinnova:preload-screens',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const chunks = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
        };
        for (const screen of PRELOADED_SCREENS) {
          const chunk = chunks.find((c) => c.facadeModuleId === path.resolve(import.meta.dirname, screen));
          if (!chunk) throw new Error(`preloadScreens: no chunk for ${screen}`);
          visit(chunk.fileName);
        }
        const tags: HtmlTagDescriptor[] = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head',
          }));
        return tags;
      },
    },
  };
}

/**
 * After every build (`npm run build` and the one `npm start` runs when sources changed): the
 * prerendered public pages (scripts/prerender.mjs), file.br and file.gz beside each compressible
 * file of dist/ (served with content negotiation), and the
 * stamp of the embedded settings `npm start` compares (scripts/build-lib.mjs).
 */
function precompressAndStamp(): Plugin {
  let outDir = 'dist';
  let write = true;
  let ssr = false;
  return {
    name: 'rinnova:precompress-and-stamp',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      write = config.build.write;
      ssr = Boolean(config.build.ssr);
    },
    async closeBundle() {
      // The prerender's own SSR build (scripts/prerender.mjs) is a temporary file, not the SPA.
      if (!write || ssr) return;
      await prerenderPages(import.meta.dirname, outDir);
      await compressDir(outDir);
      if (outDir === path.resolve(import.meta.dirname, 'dist')) writeSpaStamp();
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), preloadScreens(), precompressAndStamp()],
  // WHATSAPP_PHONE and SUPPORT_EMAIL are shared with the server (.env.example), so the landing page
  // reads the same settings instead of duplicated VITE_ copies.
  envPrefix: embeddedPrefixes,
  // react-paginate ships CommonJS whose default export Vite 8 otherwise leaves wrapped (stack notes).
  legacy: { inconsistentCjsInterop: true },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${serverPort}`, changeOrigin: true } },
  },
  build: { outDir: 'dist', sourcemap: false, reportCompressedSize: true },
  test: {
    // Vitest's default is one worker per core minus one: a single worker on the 2-core machines
    // this project is tested on, leaving a core idle while the main process mostly waits. Two
    // workers there (the suites are written for a loaded machine: no timing assumptions).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Expected console.error lines (logged load/save failures) are printed only for failing tests.
    silent: 'passed-only',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
          // An upper bound, not a wait: a first render loads its screen's modules, which took over
          // 5 s (the default) on a 2-core machine busy with other suites.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          // One module graph per worker instead of one per file: every file builds its own app on
          // its own database (createTestContext), so nothing is shared but the loaded code, and
          // importing the server once per worker instead of per file took the suite from ~230 s
          // to ~85 s on 2 cores.
          isolate: false,
          include: ['tests/server/**/*.test.ts'],
          // A file's beforeAll seeds its own database (createTestContext): over 10 s (the default)
          // on a loaded 2-core machine. An upper bound, not a wait.
          hookTimeout: 30_000,
          // A scenario over a moved clock (a ladder, a renewal) makes dozens of calls: over 5 s (the
          // default) on a 2-core machine busy with other suites. An upper bound, not a wait.
          testTimeout: 20_000,
          globalSetup: ['tests/server/global-setup.ts'],
          // PostgreSQL-only tests (query plans) run when DATABASE_URL is set (CI's PostgreSQL stage).
          exclude: process.env.DATABASE_URL ? [] : ['tests/server/postgres/**'],
        },
      },
    ],
  },
});
