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
          // Whole screens driven by user-event take seconds on a loaded 2-core machine.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
