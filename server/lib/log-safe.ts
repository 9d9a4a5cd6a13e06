import type { IncomingMessage } from 'node:http';
import { pgErrorCode } from './pg-errors';

/**
 * What the logs may hold. Every logger of the server uses these serializers (app.ts), so no log
 * line carries a query's parameters (personal data, ciphertext of secrets), a driver's `detail`
 * ('Key (email)=(…) already exists'), or the values of a URL's query string (reset tokens,
 * search terms).
 */

const MAX_CAUSES = 4;

/** Drizzle's "Failed query: <sql>\nparams: <values>" keeps its SQL (placeholders only), not the values. */
function withoutParams(text: string): string {
  return text.replace(/\nparams:[^\n]*/g, '\nparams: [redatti]');
}

/** A database error's own message may quote the offending value ('invalid input syntax …: "x"'). */
function withoutQuotedValues(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/'(?:[^'\\]|\\.)*'/g, "'…'");
}

export interface SafeError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string;
  sqlstate?: string;
  statusCode?: number;
  cause?: SafeError;
}

/**
 * An error as logged: type, message, stack, codes and causes. Enumerable extras (`params`,
 * `query`, `detail`, `parameters`, `where`) are never copied; messages and stacks lose query
 * parameters, and database errors lose quoted values.
 */
export function safeError(error: unknown, depth = 0): SafeError {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) {
    return { type: typeof error, message: '[valore non registrato]', stack: '' };
  }
  const e = error as Error & { code?: unknown; statusCode?: unknown; cause?: unknown };
  const isDbError = typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
  const clean = (text: string) =>
    isDbError ? withoutQuotedValues(withoutParams(text)) : withoutParams(text);
  const out: SafeError = {
    type: e.constructor?.name ?? 'Error',
    message: clean(String(e.message ?? '')),
    stack: typeof e.stack === 'string' ? clean(e.stack) : '',
  };
  if (typeof e.code === 'string') out.code = e.code;
  const sqlstate = pgErrorCode(error);
  if (sqlstate) out.sqlstate = sqlstate;
  if (typeof e.statusCode === 'number') out.statusCode = e.statusCode;
  if (e.cause !== undefined && depth < MAX_CAUSES) out.cause = safeError(e.cause, depth + 1);
  return out;
}

/** `/path?token=abc&x=1` → `/path?token=…&x=…`: keys stay (useful), values do not. */
export function urlWithoutQueryValues(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const keys = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0] ?? ''}=…`);
  return `${url.slice(0, at)}?${keys.join('&')}`;
}

/** The request line of Fastify's 'incoming request' log: method, path, query keys, client address. */
export function safeRequest(request: {
  method?: string;
  url?: string;
  ip?: string;
  raw?: IncomingMessage;
  socket?: { remoteAddress?: string };
}): Record<string, unknown> {
  return {
    method: request.method,
    url: urlWithoutQueryValues(request.url ?? ''),
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
  };
}

export const safeSerializers = {
  err: safeError,
  error: safeError,
  req: safeRequest,
};
