import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { serverMessages } from '../../contract/messages';
import { isApiPath } from './request-context';

export interface NotFoundOptions {
  /** The built SPA (vite's dist/); undefined when the server runs API-only (tests). */
  spaDir?: string | undefined;
}

/** The embeddable plan widget (contract PLAN_WIDGET_PATH and below). */
export function isWidgetPath(url: string): boolean {
  const p = url.toLowerCase();
  return p === '/widget' || p.startsWith('/widget/') || p.startsWith('/widget?');
}

export const SPA_MISSING_MESSAGE =
  "Interfaccia non compilata: esegui 'npm run build' (manca dist/index.html).";

/**
 * Unknown /api routes answer a 404 envelope. With a built SPA, its files are served and any
 * other GET that accepts HTML gets dist/index.html (history fallback for client-side routes).
 */
export const notFoundPlugin = fp<NotFoundOptions>(
  async (app, { spaDir }) => {
    const spaReady = spaDir !== undefined && existsSync(path.join(spaDir, 'index.html'));
    if (spaDir !== undefined && spaReady) {
      await app.register(fastifyStatic, {
        root: spaDir,
        // Routes only for files present at start: unknown paths fall through to the handler below.
        wildcard: false,
        index: false,
        setHeaders: (reply, filePath) => {
          // Vite fingerprints assets; index.html must be revalidated so a new build is picked up.
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }

    app.setNotFoundHandler((request, reply) => {
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !isApiPath(request.url) &&
        (request.headers.accept ?? '').includes('text/html');
      if (wantsPage && spaDir !== undefined) {
        if (spaReady) {
          // Only the plan widget may be framed by other sites (its iframe code); every other
          // page only by Rinnova itself.
          reply.header(
            'content-security-policy',
            `frame-ancestors ${isWidgetPath(request.url) ? '*' : "'self'"}`,
          );
          return reply.sendFile('index.html');
        }
        return reply.code(404).send({ success: false, message: SPA_MISSING_MESSAGE, data: null });
      }
      return reply.code(404).send({ success: false, message: serverMessages.routeNotFound, data: null });
    });
  },
  { name: 'not-found' },
);
