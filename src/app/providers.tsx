import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ToastContainer, type CloseButtonProps } from 'react-toastify';

/** Alt+T focuses the notifications (spec §2, 'Notifications'). */
export const toastHotKeys = (e: KeyboardEvent) => e.altKey && e.code === 'KeyT';

/** The library's close button is labelled in English; ours speaks Italian. */
function ToastCloseButton({ closeToast }: CloseButtonProps) {
  return (
    <button
      type="button"
      aria-label="Chiudi notifica"
      className="ml-2 self-start rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
      onClick={(e) => {
        e.stopPropagation();
        closeToast(true);
      }}
    >
      <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-4 w-4">
        <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
      </svg>
    </button>
  );
}

/** The toast area as the spec describes it: top-center, 5 s, click/hover/focus/drag behaviour. */
export function Toasts() {
  return (
    <ToastContainer
      position="top-center"
      autoClose={5000}
      closeOnClick
      pauseOnHover
      pauseOnFocusLoss
      draggable
      draggablePercent={80}
      hotKeys={toastHotKeys}
      aria-label="Notifiche (Alt+T)"
      limit={5}
      newestOnTop
      theme="light"
      closeButton={ToastCloseButton}
    />
  );
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toasts />
    </QueryClientProvider>
  );
}
