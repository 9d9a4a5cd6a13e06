import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canvasSize, cappedPixelRatio, MeshBackground } from '../../../src/features/landing/mesh-background';
import { whatsappUrl } from '../../../src/features/landing/landing-links';

describe('cappedPixelRatio / canvasSize', () => {
  it('never exceeds a device pixel ratio of 2', () => {
    expect(cappedPixelRatio(3)).toBe(2);
    expect(cappedPixelRatio(1.5)).toBe(1.5);
    expect(cappedPixelRatio(undefined)).toBe(1);
    expect(cappedPixelRatio(0)).toBe(1);
    expect(canvasSize(400, 300, 3)).toEqual({ width: 800, height: 600, dpr: 2 });
  });
});

describe('MeshBackground', () => {
  const original = window.devicePixelRatio;
  afterEach(() => {
    Object.defineProperty(window, 'devicePixelRatio', { value: original, configurable: true });
    vi.restoreAllMocks();
  });

  function fakeContext() {
    return {
      fillStyle: '',
      fillRect: vi.fn(),
      setTransform: vi.fn(),
      createRadialGradient: vi.fn(() => ({ addColorStop: vi.fn() })),
    };
  }

  function setup({ reducedMotion }: { reducedMotion: boolean }) {
    Object.defineProperty(window, 'devicePixelRatio', { value: 3, configurable: true });
    const ctx = fakeContext();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
      ctx as unknown as CanvasRenderingContext2D,
    );
    vi.spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect').mockReturnValue({
      width: 400,
      height: 300,
    } as DOMRect);
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => ({ matches: reducedMotion && query.includes('reduce'), media: query }) as MediaQueryList,
    );
    const raf = vi.spyOn(window, 'requestAnimationFrame').mockReturnValue(1);
    const { container, unmount } = render(<MeshBackground />);
    return { canvas: container.querySelector('canvas')!, ctx, raf, unmount };
  }

  it('sizes the canvas at twice its CSS size on a 3× display', () => {
    const { canvas, ctx } = setup({ reducedMotion: false });
    expect(canvas.width).toBe(800);
    expect(canvas.height).toBe(600);
    expect(ctx.setTransform).toHaveBeenCalledWith(2, 0, 0, 2, 0, 0);
    expect(canvas.closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('animates normally, and draws one still frame when motion is reduced', () => {
    const moving = setup({ reducedMotion: false });
    expect(moving.raf).toHaveBeenCalled();
    moving.unmount();
    vi.restoreAllMocks();

    const still = setup({ reducedMotion: true });
    expect(still.ctx.fillRect).toHaveBeenCalled();
    expect(still.raf).not.toHaveBeenCalled();
  });
});

describe('whatsappUrl', () => {
  it('keeps only the digits of the international number', () => {
    expect(whatsappUrl('+39 333 123-4567')).toBe('https://wa.me/393331234567');
    expect(whatsappUrl('0039 (333) 1234567')).toBe('https://wa.me/393331234567');
  });

  it('is null without a usable number', () => {
    expect(whatsappUrl('')).toBeNull();
    expect(whatsappUrl(undefined)).toBeNull();
    expect(whatsappUrl(' - ')).toBeNull();
  });
});
