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
