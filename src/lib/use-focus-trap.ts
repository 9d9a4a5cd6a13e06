import { useEffect, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true',
  );
}

/**
 * While `active`: focus moves into `container`, Tab and Shift+Tab cycle inside it, Escape calls
 * `onEscape`. When it ends, focus goes back to `returnFocus` (the control that opened it).
 */
export function useFocusTrap(
  container: RefObject<HTMLElement | null>,
  active: boolean,
  onEscape: () => void,
  returnFocus?: RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    const root = container.current;
    if (!active || !root) return;
    const restoreTo = returnFocus?.current ?? (document.activeElement as HTMLElement | null);
    (focusables(root)[0] ?? root).focus();

    function onKeyDown(e: KeyboardEvent) {
      if (!root) return;
      // A confirmation opened from inside (sweetalert2) handles its own keys.
      if (document.querySelector('.swal2-container')) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        onEscape();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = focusables(root);
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const current = document.activeElement;
      if (e.shiftKey && (current === first || !root.contains(current))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (current === last || !root.contains(current))) {
        e.preventDefault();
        first.focus();
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      restoreTo?.focus();
    };
  }, [container, active, onEscape, returnFocus]);
}
