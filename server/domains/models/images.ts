/**
 * Photos as the analyses read them on the server: checked by their bytes (PNG, JPEG or WebP, as
 * saveImage checks uploads), decoded with sharp, turned upright by their EXIF orientation and scaled
 * down to a working size first (a 12-megapixel photo is 48 MB of RGBA; the analyses need far less).
 */
import sharp from 'sharp';
import { fileMessages } from '../../../common/messages/files';
import { modelMessages as m } from '../../../common/messages/models';
import type { RgbaImage } from '../../../common/vision/image';
import { HttpError, badRequest } from '../../http/errors';
import { sniffImageType } from '../files/storage';

/** Larger photos are refused before decoding (a decompression bomb): 64 megapixels is a 48 MP phone's with room. */
const MAX_INPUT_PIXELS = 64_000_000;

/**
 * An uploaded photo as RGBA, its longer side at most `maxSide` (never enlarged). A missing file
 * answers 400, another type 415, a damaged or oversized image 415 with its message.
 */
export async function decodePhoto(upload: unknown, maxSide: number): Promise<RgbaImage> {
  if (!Buffer.isBuffer(upload) || upload.length === 0) throw badRequest(fileMessages.imageRequired);
  if (!sniffImageType(upload)) throw new HttpError(415, fileMessages.imageType);
  try {
    const { data, info } = await sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', autoOrient: true })
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) };
  } catch {
    throw new HttpError(415, m.imageUnreadable);
  }
}
