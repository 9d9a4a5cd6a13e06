import type { AxiosError, AxiosInstance } from 'axios';
import { messages } from '../../contract/messages';
import type { Envelope } from '../../contract/envelope';
import { notify } from './notify';
import { endSession } from './session';

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * Leave 401 and network errors of this request to its caller: the login call shows its own
     * error instead of running the logout routine (spec §8).
     */
    skipSessionRedirect?: boolean;
  }
}

/**
 * axios's own `isAxiosError`, without importing axios: this module is part of the first load
 * (sign-in page, session routine), axios is loaded with the first request (issue 8).
 */
export function isHttpError(error: unknown): error is AxiosError {
  return (
    typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true
  );
}

/** Toast ids: a burst of failing requests raises each message once. */
export const sessionToastIds = { expired: 'session-expired', unauthorized: 'unauthorized' } as const;

/** The server's envelope message of a failed call, if any. */
export function serverMessage(error: unknown): string | null {
  if (!isHttpError(error)) return null;
  const body = error.response?.data as Partial<Envelope<unknown>> | undefined;
  return typeof body?.message === 'string' && body.message.trim() !== '' ? body.message : null;
}

/** The envelope's data of a failed call (e.g. `resetUrl` of the 409 forced reset). */
export function errorData<T>(error: unknown): T | null {
  if (!isHttpError(error)) return null;
  const body = error.response?.data as Partial<Envelope<T>> | undefined;
  return body?.data ?? null;
}

/** True when the interceptor already dealt with this error (toast and redirect). */
export function isHandledByInterceptor(error: unknown): boolean {
  if (!isHttpError(error) || error.config?.skipSessionRedirect) return false;
  return error.response?.status === 401 || error.code === 'ERR_NETWORK';
}

/** The error catalogue's 401 and network rows (spec §8). */
export function handleHttpError(error: AxiosError): void {
  if (error.config?.skipSessionRedirect) return;
  if (error.response?.status === 401) {
    const expired = (serverMessage(error) ?? '').toLowerCase().includes('scaduto');
    if (expired) notify.error(messages.http.sessionExpired, { toastId: sessionToastIds.expired });
    else notify.error(messages.http.unauthorized, { toastId: sessionToastIds.unauthorized });
    endSession(expired ? 'expired' : 'unauthorized');
  } else if (error.code === 'ERR_NETWORK') {
    endSession('network');
  }
}

const installed = new WeakSet<AxiosInstance>();

/** Installs the catalogue on an axios instance, once (lib/http.ts does it for the SPA's). */
export function installHttpErrorHandling(instance: AxiosInstance): void {
  if (installed.has(instance)) return;
  installed.add(instance);
  instance.interceptors.response.use(undefined, (error: unknown) => {
    if (isHttpError(error)) handleHttpError(error);
    return Promise.reject(error);
  });
}

/* ---------------------------------------------------------------------------------------------
 * The one error path of the screens' calls (src/app/query-client.ts runs it for every failed
 * mutation and query that declares `meta.errorMessage`): log once, then toast the catalogue's
 * message once, unless the failure is already handled (the interceptor's 401 and network rows
 * above) or the screen handles it itself (`meta.silent`).
 * ------------------------------------------------------------------------------------------- */

/** A failure the screen shows itself: an HTTP status, or 'fieldErrors' (a 400 whose errors name fields). */
export type SilentCode = number | 'fieldErrors';

export interface ErrorMeta {
  /**
   * The toast of a failed call: a fixed text of contract/messages, or computed from the error
   * (`serverMessageOr(fallback)`: the server's Italian message, else the fallback). A call without
   * it is left to its screen.
   */
  errorMessage?: string | ((error: unknown) => string);
  /** Failures the screen handles itself: no toast (still logged). */
  silent?: readonly SilentCode[];
  /** De-duplicates the toast (e.g. a query that fails again on the next render). */
  toastId?: string;
  /** What the console line says before the error. */
  logLabel?: string;
}

/** The envelope of a failed call: an HTTP error's body, or an EnvelopeError's (a 2xx `success: false`). */
function envelopeOf(error: unknown): Partial<Envelope<unknown>> | null {
  if (isHttpError(error)) {
    const body: unknown = error.response?.data;
    return body && typeof body === 'object' ? (body as Partial<Envelope<unknown>>) : null;
  }
  // lib/entity-hooks.ts EnvelopeError, read by shape (importing it would load axios with this module).
  if (error instanceof Error && typeof (error as { envelope?: unknown }).envelope === 'object') {
    return (error as unknown as { envelope: Partial<Envelope<unknown>> | null }).envelope;
  }
  return null;
}

/** The first message of a failed call (the server's message, else its first error), or `fallback`. */
export function failureMessage(error: unknown, fallback: string): string {
  const env = envelopeOf(error);
  if (env && typeof env.message === 'string' && env.message.trim()) return env.message;
  if (env && Array.isArray(env.errors) && env.errors.length > 0) return String(env.errors[0]);
  return fallback;
}

/** `meta.errorMessage` that shows the server's message, or `fallback` when it sends none. */
export const serverMessageOr =
  (fallback: string) =>
  (error: unknown): string =>
    failureMessage(error, fallback);

/** Whether a failed call carries field errors ('field: message' entries or `fieldErrors`). */
export function hasFieldErrors(error: unknown): boolean {
  const env = envelopeOf(error);
  if (!env) return false;
  if (env.fieldErrors && typeof env.fieldErrors === 'object' && Object.keys(env.fieldErrors).length > 0)
    return true;
  return (
    Array.isArray(env.errors) && env.errors.some((e) => /^\s*[A-Za-z_$][\w$.[\]-]*:\s+\S/.test(String(e)))
  );
}

/** True when nobody should toast this failure: the interceptor did, or the screen shows it. */
export function isSilentFailure(error: unknown, silent: readonly SilentCode[] = []): boolean {
  if (isHandledByInterceptor(error)) return true;
  const status = isHttpError(error) ? error.response?.status : undefined;
  if (status !== undefined && silent.includes(status)) return true;
  return silent.includes('fieldErrors') && hasFieldErrors(error);
}

/** Logs a failed call once and toasts its message once (see ErrorMeta). Calls without a message are left alone. */
export function reportFailure(error: unknown, meta: ErrorMeta | undefined): void {
  if (!meta || meta.errorMessage === undefined) return;
  console.error(meta.logLabel ?? 'Chiamata non riuscita:', error);
  if (isSilentFailure(error, meta.silent)) return;
  const text = typeof meta.errorMessage === 'function' ? meta.errorMessage(error) : meta.errorMessage;
  if (text) notify.error(text, meta.toastId ? { toastId: meta.toastId } : undefined);
}
