import { useEffect, useRef } from 'react';

/** Device pixel ratio used for the canvas: sharp on retina, never more than 2× (spec §9). */
export function cappedPixelRatio(ratio: number | undefined): number {
  return Math.min(ratio && ratio > 0 ? ratio : 1, 2);
}

/** Backing-store size of a canvas drawn at `css` pixels on a display of `ratio`. */
export function canvasSize(cssWidth: number, cssHeight: number, ratio: number | undefined) {
  const dpr = cappedPixelRatio(ratio);
  return { width: Math.round(cssWidth * dpr), height: Math.round(cssHeight * dpr), dpr };
}

/** The three brand colours, as rgb for translucent radial gradients. */
const blobs = [
  { rgb: '14, 165, 233', x: 0.18, y: 0.2, r: 0.55, speed: 0.00011, phase: 0 }, // sky
  { rgb: '59, 130, 246', x: 0.78, y: 0.15, r: 0.5, speed: 0.00009, phase: 2.1 }, // blue
  { rgb: '99, 102, 241', x: 0.62, y: 0.72, r: 0.6, speed: 0.00007, phase: 4.2 }, // indigo
  { rgb: '14, 165, 233', x: 0.05, y: 0.85, r: 0.4, speed: 0.0001, phase: 1.3 }, // sky
] as const;

function draw(ctx: CanvasRenderingContext2D, width: number, height: number, time: number) {
  // An opaque base, so the canvas fully replaces the CSS fallback gradient underneath.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  const size = Math.max(width, height);
  for (const b of blobs) {
    const t = time * b.speed + b.phase;
    const cx = (b.x + Math.sin(t) * 0.08) * width;
    const cy = (b.y + Math.cos(t * 1.3) * 0.08) * height;
    const radius = b.r * size;
    const gradient = ctx.createRadialGradient(cx, cy, 0, cx, cy, radius);
    gradient.addColorStop(0, `rgba(${b.rgb}, 0.28)`);
    gradient.addColorStop(0.5, `rgba(${b.rgb}, 0.1)`);
    gradient.addColorStop(1, `rgba(${b.rgb}, 0)`);
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, width, height);
  }
}

/**
 * A soft gradient mesh in the brand colours behind the hero. Purely decorative: it animates
 * slowly, at most 30 frames a second, only while visible, and draws one still frame when the
 * visitor prefers reduced motion. Without canvas support the CSS gradient underneath shows.
 */
export function MeshBackground() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;

    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    let frame = 0;
    let visible = true;
    let last = 0;

    const resize = () => {
      const rect = canvas.getBoundingClientRect();
      const { width, height, dpr } = canvasSize(rect.width, rect.height, window.devicePixelRatio);
      canvas.width = width;
      canvas.height = height;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      draw(ctx, rect.width, rect.height, performance.now());
    };

    const tick = (now: number) => {
      frame = 0;
      if (!visible || document.hidden) return;
      if (now - last >= 33) {
        last = now;
        const rect = canvas.getBoundingClientRect();
        draw(ctx, rect.width, rect.height, now);
      }
      frame = requestAnimationFrame(tick);
    };
    const start = () => {
      if (!reducedMotion && !frame) frame = requestAnimationFrame(tick);
    };

    resize();
    start();
    window.addEventListener('resize', resize);
    document.addEventListener('visibilitychange', start);

    let observer: IntersectionObserver | undefined;
    if (typeof IntersectionObserver !== 'undefined') {
      observer = new IntersectionObserver(([entry]) => {
        visible = entry?.isIntersecting ?? true;
        if (visible) start();
      });
      observer.observe(canvas);
    }

    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', resize);
      document.removeEventListener('visibilitychange', start);
      observer?.disconnect();
    };
  }, []);

  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10 overflow-hidden">
      <div className="absolute inset-0 bg-[radial-gradient(60%_50%_at_15%_10%,rgba(14,165,233,0.16),transparent),radial-gradient(50%_45%_at_85%_5%,rgba(59,130,246,0.16),transparent),radial-gradient(60%_55%_at_65%_75%,rgba(99,102,241,0.14),transparent)]" />
      <canvas ref={canvasRef} className="absolute inset-0 h-full w-full" />
      <div className="absolute inset-0 bg-[linear-gradient(to_right,rgba(15,23,42,0.04)_1px,transparent_1px),linear-gradient(to_bottom,rgba(15,23,42,0.04)_1px,transparent_1px)] bg-[size:48px_48px] [mask-image:radial-gradient(ellipse_at_top,black_30%,transparent_75%)]" />
      <div className="absolute inset-x-0 bottom-0 h-32 bg-gradient-to-b from-transparent to-white" />
    </div>
  );
}
