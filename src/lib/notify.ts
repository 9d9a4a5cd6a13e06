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
let wanted = false;
const listeners = new Set<() => void>();

function loadToasts(): Promise<ToastLibrary> {
  if (!wanted) {
    wanted = true;
    listeners.forEach((l) => l());
  }
  return (library ??= import('react-toastify'));
}

/** Whether a toast has been raised (the container mounts from then on). */
export const toastsWanted = {
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  get: () => wanted,
};

type Kind = 'success' | 'error' | 'info' | 'warning';
const raise = (kind: Kind) => (message: string, options?: ToastOptions) => {
  void loadToasts().then(({ toast }) => toast[kind](message, options));
};

export const notify = {
  success: raise('success'),
  error: raise('error'),
  info: raise('info'),
  warning: raise('warning'),
  dismissAll: () => {
    // Nothing to dismiss before the first toast.
    if (library) void library.then(({ toast }) => toast.dismiss());
  },
};
