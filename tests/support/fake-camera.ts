/**
 * A camera for the end-to-end tests: Chromium's fake capture device plays a Y4M file in a loop
 * (`--use-file-for-fake-video-capture`), so a test feeds the page's getUserMedia whatever frames it
 * draws here. Frames are grey or RGB pictures of one size; the file is YUV 4:2:0 (I420), the only
 * layout Chromium's file device reads. `qrFrames` draws a QR code (a batch label) with its quiet zone.
 */
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

/** A grey picture: one byte of brightness per pixel, row by row. */
export interface GrayFrame {
  width: number;
  height: number;
  gray: Uint8Array;
}

/** A colour picture: three bytes (red, green, blue) per pixel, row by row. */
export interface RgbFrame {
  width: number;
  height: number;
  rgb: Uint8Array;
}

export type Frame = GrayFrame | RgbFrame;

/** The Chromium flags that make `file` (a .y4m written by writeY4m) the camera and grant it without asking. */
export function fakeCameraArgs(file: string): string[] {
  return ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${file}`];
}

/** A grey frame filled with one brightness (white by default). */
export function grayFrame(width: number, height: number, brightness = 255): GrayFrame {
  return { width, height, gray: new Uint8Array(width * height).fill(brightness) };
}

const clampByte = (value: number) => Math.max(0, Math.min(255, Math.round(value)));

/** A frame as its three I420 planes (full-range BT.601, as Chromium's file device takes it). */
function i420Of(frame: Frame): Uint8Array {
  const { width, height } = frame;
  const chromaWidth = width / 2;
  const chromaHeight = height / 2;
  const out = new Uint8Array(width * height + 2 * chromaWidth * chromaHeight);
  const uOffset = width * height;
  const vOffset = uOffset + chromaWidth * chromaHeight;
  if ('gray' in frame) {
    out.set(frame.gray, 0);
    out.fill(128, uOffset);
    return out;
  }
  const { rgb } = frame;
  for (let index = 0; index < width * height; index += 1) {
    out[index] = clampByte(0.299 * rgb[index * 3]! + 0.587 * rgb[index * 3 + 1]! + 0.114 * rgb[index * 3 + 2]!);
  }
  // Each chroma sample is the mean of its 2×2 block.
  for (let y = 0; y < chromaHeight; y += 1) {
    for (let x = 0; x < chromaWidth; x += 1) {
      let u = 0;
      let v = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        const pixel = ((y * 2 + dy) * width + x * 2 + dx) * 3;
        const r = rgb[pixel]!;
        const g = rgb[pixel + 1]!;
        const b = rgb[pixel + 2]!;
        u += -0.168736 * r - 0.331264 * g + 0.5 * b + 128;
        v += 0.5 * r - 0.418688 * g - 0.081312 * b + 128;
      }
      out[uOffset + y * chromaWidth + x] = clampByte(u / 4);
      out[vOffset + y * chromaWidth + x] = clampByte(v / 4);
    }
  }
  return out;
}

/**
 * Writes `frames` (all of one size, even width and height) as a Y4M video at `fps` frames a second.
 * Chromium plays it in a loop for as long as the page keeps the camera open.
 */
export function writeY4m(path: string, frames: readonly Frame[], fps = 10): void {
  const first = frames[0];
  if (!first) throw new Error('A Y4M video needs at least one frame');
  const { width, height } = first;
  if (width % 2 !== 0 || height % 2 !== 0) throw new Error(`Y4M 4:2:0 frames need an even width and height, not ${width}×${height}`);
  for (const frame of frames) {
    if (frame.width !== width || frame.height !== height) throw new Error('Every frame of a Y4M video has the same size');
    const length = 'gray' in frame ? frame.gray.length : frame.rgb.length / 3;
    if (length !== width * height) throw new Error(`A ${width}×${height} frame has ${width * height} pixels, not ${length}`);
  }
  const parts: Uint8Array[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`, 'ascii')];
  for (const frame of frames) parts.push(Buffer.from('FRAME\n', 'ascii'), i420Of(frame));
  writeFileSync(path, Buffer.concat(parts));
}

/**
 * Frames showing the QR code of `text` as a printed label does (black modules on white with a quiet
 * zone of four modules), about two thirds of the frame's height, drifting a few pixels from frame to
 * frame like a label held in a hand.
 */
export function qrFrames(text: string, options: { width?: number; height?: number; count?: number } = {}): GrayFrame[] {
  const { width = 640, height = 480, count = 6 } = options;
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const quietZone = 4;
  const modulePixels = Math.max(2, Math.floor((Math.min(width, height) * 0.66) / (size + 2 * quietZone)));
  const side = (size + 2 * quietZone) * modulePixels;
  const frames: GrayFrame[] = [];
  for (let index = 0; index < count; index += 1) {
    // The scene around the label: mid grey, so the label stands out as paper does.
    const frame = grayFrame(width, height, 150);
    const drift = (index % 3) * 2 - 2;
    const left = Math.floor((width - side) / 2) + drift;
    const top = Math.floor((height - side) / 2) - drift;
    for (let y = 0; y < side; y += 1) {
      const moduleY = Math.floor(y / modulePixels) - quietZone;
      for (let x = 0; x < side; x += 1) {
        const moduleX = Math.floor(x / modulePixels) - quietZone;
        const dark = moduleX >= 0 && moduleY >= 0 && moduleX < size && moduleY < size && qr.modules.get(moduleY, moduleX) !== 0;
        frame.gray[(top + y) * width + left + x] = dark ? 20 : 245;
      }
    }
    frames.push(frame);
  }
  return frames;
}
