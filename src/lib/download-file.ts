/**
 * Authenticated file downloads (invoices, list exports, the PDF report): the bytes through the
 * SPA's axios instance (API key, token and tenant headers), then saved under the server's file
 * name (Content-Disposition) or a fallback.
 */
import type { AxiosProgressEvent, AxiosRequestConfig, AxiosResponse } from 'axios';
import { isAxiosError } from 'axios';
import { http } from './http';

/** Saves a blob under a name (an invisible link, revoked afterwards). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** `attachment; filename="x.csv"` → 'x.csv' (null when absent). */
export function fileNameOf(disposition: unknown): string | null {
  if (typeof disposition !== 'string') return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? null;
}

export interface DownloadProgress {
  loaded: number;
  /** Absent when the server streams without a length (exports). */
  total?: number;
}

export interface DownloadOptions {
  fileName?: string;
  params?: Record<string, string | number>;
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** The request options a download shares, GET or POST: bytes, progress, abort. */
function downloadConfig(options: DownloadOptions): AxiosRequestConfig {
  return {
    // Bytes, then a Blob of the answer's type (a 'blob' response type is not portable to every XHR).
    responseType: 'arraybuffer',
    params: options.params,
    signal: options.signal,
    onDownloadProgress: options.onProgress
      ? (e: AxiosProgressEvent) => options.onProgress?.({ loaded: e.loaded, total: e.total || undefined })
      : undefined,
  };
}

/** Saves an answer's bytes under the server's name (Content-Disposition) or the fallback; returns the name. */
function saveResponse(res: AxiosResponse<ArrayBuffer>, fallback: string | undefined): string {
  const type = String(res.headers['content-type'] ?? 'application/octet-stream');
  const name = fileNameOf(res.headers['content-disposition']) ?? fallback ?? 'download';
  saveBlob(new Blob([res.data], { type }), name);
  return name;
}

export async function downloadFile(path: string, options: DownloadOptions = {}): Promise<string> {
  const res = await http.get<ArrayBuffer>(path, downloadConfig(options));
  return saveResponse(res, options.fileName);
}

/**
 * A download produced by a POST (e.g. a tenant's export, which does work on the server): `body`
 * as JSON when given, then the answer saved as `downloadFile` does.
 */
export async function downloadFilePost(
  path: string,
  body?: unknown,
  options: DownloadOptions = {},
): Promise<string> {
  const res = await http.post<ArrayBuffer>(path, body, downloadConfig(options));
  return saveResponse(res, options.fileName);
}

/** The server's message of a failed download (its envelope arrives as bytes), if any. */
export function downloadErrorMessage(error: unknown): string | null {
  if (!isAxiosError(error)) return null;
  const data: unknown = error.response?.data;
  try {
    const text =
      data instanceof ArrayBuffer ? new TextDecoder().decode(data) : typeof data === 'string' ? data : null;
    const parsed = text ? (JSON.parse(text) as { message?: unknown; errors?: unknown }) : data;
    const envelope = parsed as { message?: unknown; errors?: unknown } | null;
    const errors = Array.isArray(envelope?.errors)
      ? envelope.errors.filter((e) => typeof e === 'string')
      : [];
    const message = typeof envelope?.message === 'string' ? envelope.message : null;
    return [message, ...errors].filter(Boolean).join(' ') || null;
  } catch {
    return null;
  }
}

/**
 * `meta.errorMessage` of a download (lib/http-errors.ts ErrorMeta): the server's message read
 * from the bytes of its answer, or `fallback` when it sends none.
 */
export const downloadMessageOr =
  (fallback: string) =>
  (error: unknown): string =>
    downloadErrorMessage(error) ?? fallback;
