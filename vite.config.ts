import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const serverPort = Number(process.env.PORT ?? 3000);

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // WHATSAPP_PHONE and SUPPORT_EMAIL are shared with the server (.env.example), so the landing page
  // reads the same settings instead of duplicated VITE_ copies.
  envPrefix: ['VITE_', 'WHATSAPP_', 'SUPPORT_'],
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
          // The table-driven screen flows (list → create → edit → delete through react-select)
          // take 1–3 s alone and up to 5 s on a loaded 2-core machine: a margin, not a target.
          testTimeout: 15_000,
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // PostgreSQL-only tests (query plans) run when DATABASE_URL is set (CI's PostgreSQL stage).
          exclude: process.env.DATABASE_URL ? [] : ['tests/server/postgres/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
