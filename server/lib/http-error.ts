/**
 * An error that becomes an envelope with this status. Thrown anywhere in a request; the one
 * error handler (plugins/error-handler.ts) turns it into `{ success: false, message, data, errors }`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503,
    message: string,
    readonly options: { errors?: string[]; data?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
