import { useEffect, useState } from 'react';

/** `text` (a link, an otpauth:// URI) as an SVG QR code; the encoder is loaded only when a link is shown. */
export function useQrCode(link: string): string | null {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) => (qr.default ?? qr).toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((out) => live && setSvg(out))
      .catch((error: unknown) => console.error('QR code non generato:', error));
    return () => {
      live = false;
    };
  }, [link]);
  return svg;
}
