import { toast, type ToastOptions } from 'react-toastify';

/**
 * The one way screens raise a toast (the container lives in app/providers.tsx). Passing a
 * `toastId` de-duplicates: the same id is shown once even if raised twice.
 *   notify.success(messages.http.created);
 *   notify.error(messages.http.loadError, { toastId: 'load-error' });
 */
export const notify = {
  success: (message: string, options?: ToastOptions) => toast.success(message, options),
  error: (message: string, options?: ToastOptions) => toast.error(message, options),
  info: (message: string, options?: ToastOptions) => toast.info(message, options),
  warning: (message: string, options?: ToastOptions) => toast.warning(message, options),
  dismissAll: () => toast.dismiss(),
};
