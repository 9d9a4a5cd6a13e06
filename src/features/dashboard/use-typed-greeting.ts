import { useEffect, useState } from 'react';

/** Spec §2: typed at 70 ms per character, with a 1000 ms pause between the two lines. */
export const TYPE_MS = 70;
export const PAUSE_MS = 1000;

function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true
  );
}

/**
 * The lines typed one character at a time: `[typed first, typed second]`. With reduced motion
 * the whole text shows at once.
 */
export function useTypedGreeting(first: string, second: string): [string, string, boolean] {
  const total = first.length + second.length;
  const [count, setCount] = useState(() => (prefersReducedMotion() ? total : 0));
  useEffect(() => {
    if (count >= total) return;
    const delay = count === first.length ? PAUSE_MS : TYPE_MS;
    const timer = setTimeout(() => setCount((c) => c + 1), delay);
    return () => clearTimeout(timer);
  }, [count, total, first.length]);
  const a = first.slice(0, Math.min(count, first.length));
  const b = count > first.length ? second.slice(0, count - first.length) : '';
  return [a, b, count >= total];
}
