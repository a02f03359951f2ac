/**
 * QR decoding for the label scanner, with jsQR (pure JavaScript, no WebAssembly, works offline).
 * WARNING: import this module only from the lazily loaded scanner (LabelScanner.tsx): jsQR must stay
 * out of the sign-in page and a room's first load.
 */
import jsQR from 'jsqr';

/** Live frames are scaled down to this size: a label held to the tablet fills much of the frame, and a smaller picture decodes faster. */
export const FRAME_MAX_SIDE = 960;
/** Photos keep more detail: a label may fill only a corner of a 12-megapixel picture. */
export const PHOTO_MAX_SIDE = 2000;

/**
 * The pixels of `source` drawn into `canvas`, scaled down so the longer side is at most `maxSide`
 * (never up). The canvas is reused from one frame to the next.
 */
export function pixelsOf(source: CanvasImageSource, width: number, height: number, maxSide: number, canvas: HTMLCanvasElement): ImageData | null {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const scaledWidth = Math.max(1, Math.round(width * scale));
  const scaledHeight = Math.max(1, Math.round(height * scale));
  if (canvas.width !== scaledWidth) canvas.width = scaledWidth;
  if (canvas.height !== scaledHeight) canvas.height = scaledHeight;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, scaledWidth, scaledHeight);
  return context.getImageData(0, 0, scaledWidth, scaledHeight);
}

/**
 * The text of the QR code in `pixels`, or null when none is found. `thorough` also looks for light
 * codes on dark (a photo is read once, so it may take longer; live frames come again a moment later).
 */
export function readQr(pixels: ImageData, thorough = false): string | null {
  const code = jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: thorough ? 'attemptBoth' : 'dontInvert' });
  return code ? code.data : null;
}
