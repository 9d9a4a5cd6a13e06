import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { serverMessages } from '../../contract/messages';
import { PRERENDERED_PAGES } from '../../scripts/prerendered-pages.mjs';
import { isApiPath } from './request-context';
import { declarePublic } from './route-access';

export interface NotFoundOptions {
  /** The built SPA (vite's dist/); undefined when the server runs API-only (tests). */
  spaDir?: string | undefined;
}

export const SPA_MISSING_MESSAGE =
  "Interfaccia non compilata: esegui 'npm run build' (manca dist/index.html).";

/**
 * Cache-Control of a file of the built SPA. Vite fingerprints everything under assets/ (a new
 * build, a new name): cached for a year. index.html and the unhashed files (logo, fonts) are
 * revalidated on each use, so a new build is picked up at once.
 */
export function staticCacheControl(spaDir: string, filePath: string): string {
  const [top] = path.relative(spaDir, filePath).split(path.sep);
  return top === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function pathnameOf(url: string): string {
  return url.split(/[?#]/)[0] ?? '';
}

function looksLikeFile(url: string): boolean {
  const pathname = pathnameOf(url);
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return /\.[a-z0-9]+$/i.test(last);
}

/**
 * Unknown /api routes answer a 404 envelope. With a built SPA, its files are served and any
 * other GET that accepts HTML gets dist/index.html (history fallback for client-side routes).
 */
export const notFoundPlugin = fp<NotFoundOptions>(
  async (app, { spaDir }) => {
    const spaReady = spaDir !== undefined && existsSync(path.join(spaDir, 'index.html'));
    // The public pages the build prerendered (scripts/prerendered-pages.mjs): their
    // HTML carries the page's markup, painted before the JavaScript runs, then hydrated.
    const prerendered = new Map(
      Object.entries(PRERENDERED_PAGES).filter(([, file]) => spaDir && existsSync(path.join(spaDir, file))),
    );
    if (spaDir !== undefined && spaReady) {
      const files = {
        root: spaDir,
        // The build writes file.br and file.gz beside each file (scripts/build-lib.mjs): sent as
        // the client's Accept-Encoding allows (brotli first), with `Vary: accept-encoding`.
        preCompressed: true,
        setHeaders: (reply: FastifyReply, filePath: string) =>
          reply.header('cache-control', staticCacheControl(spaDir, filePath)),
      };
      // `reply.sendFile` for the pages below (no routes here)…
      await app.register(fastifyStatic, { ...files, serve: false });
      // …and a public route for each file present at start (unknown paths fall through to the
      // handler below).
      await app.register(async (context) => {
        declarePublic(context);
        await context.register(fastifyStatic, {
          ...files,
          decorateReply: false,
          wildcard: false,
          index: false,
        });
      });
    }

    app.setNotFoundHandler((request, reply) => {
      // A page is any GET outside /api that is not a file: `curl /` (Accept: */*) gets the SPA
      // too. A missing file (`/logo.png`) stays a 404 unless the browser asks for HTML.
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !isApiPath(pathnameOf(request.url).toLowerCase()) &&
        ((request.headers.accept ?? '').includes('text/html') || !looksLikeFile(request.url));
      if (wantsPage && spaDir !== undefined) {
        // Framing (only the plan widget may be framed by other sites) and the rest of the
        // Content-Security-Policy are set per path by plugins/security-headers.ts.
        if (spaReady) {
          const page = prerendered.get(pathnameOf(request.url));
          return reply.sendFile(page ?? 'index.html');
        }
        return reply.code(404).send({ success: false, message: SPA_MISSING_MESSAGE, data: null });
      }
      return reply.code(404).send({ success: false, message: serverMessages.routeNotFound, data: null });
    });
  },
  { name: 'not-found' },
);
