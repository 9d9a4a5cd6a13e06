import { useEffect, useState, useSyncExternalStore, type CSSProperties, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { CloseButtonProps, ToastPosition } from 'react-toastify';
import { toastLibrary } from '../lib/notify';
import { useMediaQuery } from '../lib/use-media-query';

/** Below md the top bar wraps (breadcrumb on its own line) and titles span the width. */
const NARROW_QUERY = '(max-width: 767.98px)';

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

// Whether the signed-in shell (top bar, breadcrumb, page titles) is on screen.
let shellCount = 0;
const shellListeners = new Set<() => void>();
const subscribeShell = (listener: () => void) => {
  shellListeners.add(listener);
  return () => shellListeners.delete(listener);
};

/** Called by the signed-in shell: its toasts keep clear of the breadcrumb and the page title. */
export function useShellToasts(): void {
  useEffect(() => {
    shellCount += 1;
    shellListeners.forEach((l) => l());
    return () => {
      shellCount -= 1;
      shellListeners.forEach((l) => l());
    };
  }, []);
}

/** The top bar's height: a toast never goes above it. */
const TOP_BAR_PX = 72;

/**
 * Just below the page's header (its title, its count and its main actions: 'Crea Nuovo …',
 * 'Esporta'), or below the top bar once the header has scrolled under it. Measured again when the
 * page scrolls, resizes or changes.
 */
function useBelowPageHeader(enabled: boolean): number {
  const [top, setTop] = useState(TOP_BAR_PX);
  useEffect(() => {
    if (!enabled) return;
    let frame = 0;
    const measure = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const header = document.querySelector('main header') ?? document.querySelector('main h1');
        const bottom = header ? header.getBoundingClientRect().bottom + 8 : TOP_BAR_PX;
        setTop(Math.max(TOP_BAR_PX, Math.round(bottom)));
      });
    };
    measure();
    window.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    const main = document.querySelector('main');
    const observer = main ? new MutationObserver(measure) : null;
    if (main) observer?.observe(main, { childList: true, subtree: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [enabled]);
  return top;
}

/**
 * Where toasts appear: top-center (spec §2). In the signed-in shell a toast never covers the
 * breadcrumb, the page title or the page's main actions (issues 13 and 31): top-center just below
 * the page's header; on a phone, where the header spans the screen, bottom-center above the
 * SuperAdmin's tenant bar.
 */
export function useToastPlacement(): { position: ToastPosition; style?: CSSProperties } {
  const inShell = useSyncExternalStore(
    subscribeShell,
    () => shellCount > 0,
    () => false,
  );
  const phone = useMediaQuery(NARROW_QUERY);
  const top = useBelowPageHeader(inShell && !phone);
  if (!inShell) return { position: 'top-center' };
  if (phone)
    return { position: 'bottom-center', style: { bottom: 'calc(var(--tenant-bar-height, 0px) + 1rem)' } };
  return { position: 'top-center', style: { top: `${top}px` } };
}

/** The toast area as the spec describes it: 5 s, click/hover/focus/drag behaviour; placed as above. */
export function Toasts() {
  const { position, style } = useToastPlacement();
  // The library comes with the first toast (lib/notify.ts), not with the page; the toast raised
  // before the container mounts is queued by the library and shown once it does.
  const library = useSyncExternalStore(toastLibrary.subscribe, toastLibrary.get, () => undefined);
  if (!library) return null;
  const { ToastContainer } = library;
  return (
    <ToastContainer
      position={position}
      style={style}
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
