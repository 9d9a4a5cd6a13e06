import type * as ToastModule from 'react-toastify';
import type { ToastOptions } from 'react-toastify';

/**
 * The one way screens raise a toast (the container lives in app/providers.tsx). Passing a
 * `toastId` de-duplicates: the same id is shown once even if raised twice.
 *   notify.success(messages.http.created);
 *   notify.error(messages.http.loadError, { toastId: 'load-error' });
 *
 * The toast library is loaded with the first toast, not with the page (issue 8: nothing but what
 * the first screen needs in the first load). A toast raised before the container has mounted is
 * queued by the library and shown as soon as it mounts.
 */
type ToastLibrary = typeof ToastModule;
let library: Promise<ToastLibrary> | undefined;
let loaded: ToastLibrary | undefined;
const listeners = new Set<() => void>();

/** Loads the toast library (once); the first toast does it, tests do it up front. */
export function preloadToasts(): Promise<ToastLibrary> {
  return (library ??= import('react-toastify').then((m) => {
    loaded = m;
    listeners.forEach((l) => l());
    return m;
  }));
}

/** The toast library once loaded (app/providers.tsx mounts the container from then on). */
export const toastLibrary = {
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  get: (): ToastLibrary | undefined => loaded,
};

/** Shows at once when the library is here (every toast after the first), else once loaded. */
function withToasts(show: (lib: ToastLibrary) => void): void {
  if (loaded) show(loaded);
  else void preloadToasts().then(show);
}

type Kind = 'success' | 'error' | 'info' | 'warning';
const raise = (kind: Kind) => (message: string, options?: ToastOptions) =>
  withToasts(({ toast }) => toast[kind](message, options));

export const notify = {
  success: raise('success'),
  error: raise('error'),
  info: raise('info'),
  warning: raise('warning'),
  // Nothing to dismiss before the library is loaded.
  dismissAll: () => loaded?.toast.dismiss(),
};
