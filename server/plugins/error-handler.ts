import {
  TransitionRefused,
  subscriptionEventLabels,
  subscriptionStatusLabels,
} from '../../contract/subscription-status';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Envelope } from '../../contract/envelope';
import { fieldErrorsOf } from '../../contract/field-errors';
import { billingMessages, serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';
import { tenantDatabaseErrorOf } from '../db/tenancy/tenant-databases';
import { PgErrorCode, pgConstraint, pgErrorCode, uniqueFieldErrors } from '../lib/pg-errors';
import { isProviderError } from '../providers/payment-provider';

type Status = HttpError['statusCode'];

/**
 * A failure envelope. Beside `errors` ('field: message' strings, as the contract has them) it
 * carries `fieldErrors`, the same split by field, when any entry names a field.
 */
function envelope(message: string, extra: { errors?: string[]; data?: unknown } = {}): Envelope<unknown> {
  const fieldErrors = extra.errors ? fieldErrorsOf(extra.errors) : {};
  return {
    success: false,
    message,
    data: extra.data ?? null,
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...(Object.keys(fieldErrors).length > 0 ? { fieldErrors } : {}),
  };
}

/** `/name` → `name`, `/filters/isActive` → `filters.isActive`. */
function fieldOf(instancePath: string): string {
  return instancePath.replace(/^\//, '').replaceAll('/', '.');
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Il corpo della richiesta non è un JSON valido.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Il corpo della richiesta è vuoto.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Tipo di contenuto non supportato.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Lunghezza del contenuto non valida.',
};

/** Unique constraints whose violation has a message of its own. */
const UNIQUE_MESSAGES: Record<string, string> = {
  payment_providers_one_active_per_kind:
    'Questo tenant ha già un fornitore attivo di questo tipo: disattiva l’altro prima di attivare questo.',
};

/** Maps any error to [status, envelope]; nothing of a 5xx's internals reaches the response. */
export function toErrorResponse(error: unknown, request: FastifyRequest): [Status, Envelope<unknown>] {
  if (error instanceof HttpError) return [error.statusCode, envelope(error.message, error.options)];
  // A tenant's database out of reach or read-only (db/tenancy), raised by its connection and
  // wrapped by drizzle as a failed query: its own 503.
  const unreachable = tenantDatabaseErrorOf(error);
  if (unreachable) return [unreachable.statusCode, envelope(unreachable.message)];
  // The state machine refused a move (contract/subscription-status.ts): the contract's 409.
  if (error instanceof TransitionRefused)
    return [
      409,
      envelope(
        billingMessages.transitionRefused(
          subscriptionStatusLabels[error.from],
          subscriptionEventLabels[error.event],
        ),
      ),
    ];
  // A payment provider that failed or refused: its Italian message, as a bad gateway.
  if (isProviderError(error)) return [502, envelope(error.message)];

  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = error.validation.map((v) => {
      const message = v.message ?? serverMessages.validation;
      return v.instancePath && v.instancePath !== '/' ? `${fieldOf(v.instancePath)}: ${message}` : message;
    });
    return [400, envelope(serverMessages.validation, { errors })];
  }

  const dbCode = pgErrorCode(error);
  if (dbCode === PgErrorCode.foreignKeyViolation) {
    // Deleting a referenced row, or writing a reference to a row that does not exist.
    return request.method === 'DELETE'
      ? [409, envelope(serverMessages.inUse)]
      : [400, envelope(serverMessages.validation, { errors: [serverMessages.unknownReference] })];
  }
  if (dbCode === PgErrorCode.uniqueViolation) {
    // A value taken by another row (a region code, a plan name in the tenant): said on its field.
    const constraint = pgConstraint(error) ?? '';
    const taken = uniqueFieldErrors[constraint];
    if (taken) return [409, envelope(taken.message, { errors: [`${taken.field}: ${taken.message}`] })];
    const specific = UNIQUE_MESSAGES[constraint];
    return [409, envelope(specific ?? serverMessages.conflict)];
  }
  // Class 22 (data exception: a number out of range, a NUL byte, a malformed value) is a value
  // the client sent that a schema let through: the input is wrong, not the server.
  if (dbCode?.startsWith('22'))
    return [400, envelope(serverMessages.validation, { errors: [serverMessages.validation] })];

  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode ?? 500;
  if (status === 413) return [413, envelope(serverMessages.payloadTooLarge)];
  if (status === 429) return [429, envelope(serverMessages.rateLimited)];
  if (status === 401) return [401, envelope(serverMessages.tokenInvalid)];
  if (status === 404) return [404, envelope(serverMessages.routeNotFound)];
  if (status >= 400 && status < 500) {
    const detail = (fastifyError.code && FASTIFY_MESSAGES[fastifyError.code]) ?? serverMessages.validation;
    return [400, envelope(serverMessages.validation, { errors: [detail] })];
  }
  return [500, envelope(serverMessages.internal)];
}

/** The one place errors become envelopes (api-contract.md: 'Wire conventions'). */
export const errorHandlerPlugin = fp(
  (app, _opts, done) => {
    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const [status, body] = toErrorResponse(error, request);
      // A tenant-database 503 wrapped by drizzle keeps its headers (Retry-After) too.
      const headed = error instanceof HttpError ? error : tenantDatabaseErrorOf(error);
      if (headed?.options.headers) reply.headers(headed.options.headers);
      // The logger's serializers (lib/log-safe.ts) keep query parameters and values out of the line.
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ status, message: body.message }, 'request refused');
      return reply.code(status).type('application/json; charset=utf-8').send(body);
    });
    done();
  },
  { name: 'error-handler' },
);

/**
 * Fastify's `frameworkErrors`: errors met before a route is chosen (a malformed %-escape in the
 * path, a path parameter longer than the router's limit). No hook has run; answer the envelope.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const message = tooLong ? serverMessages.urlTooLong : serverMessages.badUrl;
  request.log.info({ code: error.code }, 'request refused');
  void reply
    .code(tooLong ? 414 : 400)
    .type('application/json; charset=utf-8')
    .send(envelope(serverMessages.validation, { errors: [message] }));
}

/**
 * Fastify's `clientErrorHandler`: what the HTTP parser refuses (a request line or headers over
 * Node's 16 KB, a malformed request) gets the envelope instead of Node's bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason] = tooLarge ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
  const body = JSON.stringify(
    envelope(serverMessages.validation, {
      errors: [tooLarge ? serverMessages.headersTooLarge : serverMessages.badUrl],
    }),
  );
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
