import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Fastify's JSON parser (prototype-poisoning protection included), except that an empty body is
 * "no body" on a DELETE: clients (axios among them) send `Content-Type: application/json` on
 * body-less DELETEs, which the default parser refuses as an empty JSON body.
 */
export const jsonBodyPlugin = fp(
  (app, _opts, done) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      (
        request: FastifyRequest,
        body: string | Buffer,
        parsed: (err: Error | null, body?: unknown) => void,
      ) => {
        if (request.method === 'DELETE' && String(body).trim() === '') {
          parsed(null, undefined);
          return;
        }
        parseJson(request, String(body), parsed);
      },
    );
    done();
  },
  { name: 'json-body' },
);
