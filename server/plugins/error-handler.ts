import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Envelope } from '../../contract/envelope';
import { fieldErrorsOf } from '../../contract/field-errors';
import { serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';
import { PgErrorCode, pgConstraint, pgErrorCode, uniqueFieldErrors } from '../lib/pg-errors';

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

/** Maps any error to [status, envelope]; nothing of a 5xx's internals reaches the response. */
export function toErrorResponse(error: unknown, request: FastifyRequest): [Status, Envelope<unknown>] {
  if (error instanceof HttpError) return [error.statusCode, envelope(error.message, error.options)];

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
    const taken = uniqueFieldErrors[pgConstraint(error) ?? ''];
    return taken
      ? [409, envelope(taken.message, { errors: [`${taken.field}: ${taken.message}`] })]
      : [409, envelope(serverMessages.conflict)];
  }

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
      if (error instanceof HttpError && error.options.headers) reply.headers(error.options.headers);
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ status, message: body.message }, 'request refused');
      return reply.code(status).type('application/json; charset=utf-8').send(body);
    });
    done();
  },
  { name: 'error-handler' },
);
