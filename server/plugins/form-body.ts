import fp from 'fastify-plugin';

/**
 * application/x-www-form-urlencoded bodies (the contact form may post as a plain HTML form),
 * parsed with URLSearchParams; repeated fields keep their last value. Fastify's body limit applies.
 */
export const formBodyPlugin = fp(
  (app, _opts, done) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, parsed) => {
        const out: Record<string, string> = Object.create(null) as Record<string, string>;
        for (const [key, value] of new URLSearchParams(String(body))) out[key] = value;
        parsed(null, out);
      },
    );
    done();
  },
  { name: 'form-body' },
);
