import axios, { AxiosHeaders } from 'axios';
import { config } from './config';
import { installHttpErrorHandling } from './http-errors';
import { readStorage, storageKeys } from './storage';
import { getSelectedTenantId } from './tenant-store';

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * The tenant this request acts in (null: none), when it must be the one a query key or a
     * screen was built for rather than whatever storage holds when the request leaves.
     */
    tenantId?: number | null;
  }
}

export interface HeaderInputs {
  token: string | null;
  apiKey: string;
  tenantId: number | null;
}

/** Headers of one request, built fresh each time (never on axios.defaults). */
export function buildHeaders({ token, apiKey, tenantId }: HeaderInputs): Record<string, string> {
  const headers: Record<string, string> = { 'x-api-key': apiKey };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (tenantId !== null) headers['X-Tenant-Id'] = String(tenantId);
  return headers;
}

/** The one axios instance of the SPA, with the error catalogue of lib/http-errors.ts. */
export const http = axios.create({ baseURL: config.apiBaseUrl.replace(/\/?$/, '/') });
installHttpErrorHandling(http);

http.interceptors.request.use((request) => {
  const headers = buildHeaders({
    token: readStorage(storageKeys.token),
    apiKey: config.apiKey,
    tenantId: request.tenantId !== undefined ? request.tenantId : getSelectedTenantId(),
  });
  const merged = AxiosHeaders.from(request.headers);
  for (const [k, v] of Object.entries(headers)) {
    // A caller may override a header for one request (e.g. the public payment page's tenant).
    if (!merged.has(k)) merged.set(k, v);
  }
  request.headers = merged;
  return request;
});
