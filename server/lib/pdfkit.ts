/**
 * pdfkit (and its font machinery: fontkit, brotli, unicode tables) loaded on the first PDF, not
 * at start-up: ~70 ms of CPU that a server answering no PDF request never needs.
 */
import type PDFKit from 'pdfkit';

let loading: Promise<typeof PDFKit> | undefined;

export function loadPdfKit(): Promise<typeof PDFKit> {
  loading ??= import('pdfkit').then((m) => m.default);
  return loading;
}
