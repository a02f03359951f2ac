/**
 * Photos taken on a tablet, made fit to queue before they are: the server takes PNG, JPEG or WebP up to
 * its upload limit (10 MB by default), and a photo refused later, after the grower has left the
 * plant, is a photo lost. A photo of another type that the browser can read (HEIC on some cameras), a
 * large file or a very large picture is redrawn as a JPEG of at most MAX_SIDE pixels a side; one the
 * browser cannot read is refused now, with the server's own message.
 */
import { fileMessages } from '../../common/messages/files';
import type { ApiContext } from '../api/context';

const ACCEPTED = new Set(['image/png', 'image/jpeg', 'image/webp']);
/** Above this a photo is redrawn smaller (well under the server's default 10 MB limit). */
export const MAX_PHOTO_BYTES = 4 * 1024 * 1024;
const MAX_SIDE = 2560;
const JPEG_QUALITY = 0.85;

export class PhotoError extends Error {
  override readonly name = 'PhotoError';
}

/** The photo as it will be queued: the file itself when it fits, else a smaller JPEG of it. */
export async function preparePhoto(file: Blob): Promise<Blob> {
  if (ACCEPTED.has(file.type) && file.size <= MAX_PHOTO_BYTES) {
    // Small and of a kind the server takes; only a huge picture in a small file is redrawn.
    const size = await pictureSize(file);
    if (size === null) throw new PhotoError(fileMessages.imageType);
    if (Math.max(size.width, size.height) <= MAX_SIDE) return file;
  }
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new PhotoError(fileMessages.imageType);
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = new OffscreenCanvas(Math.max(1, Math.round(bitmap.width * scale)), Math.max(1, Math.round(bitmap.height * scale)));
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
  const name = file instanceof File ? file.name.replace(/\.[^.]*$/, '') || 'photo' : 'photo';
  return new File([jpeg], `${name}.jpg`, { type: 'image/jpeg' });
}

/** The picture's size, or null when the browser cannot read it (not a picture, whatever its name says). */
async function pictureSize(file: Blob): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

/** A domain function that uploads `image`, given the photo made fit first (its name follows when it was redrawn). */
export function withFittedPhoto<Input extends { image: Blob; fileName?: string }, Result>(action: (context: ApiContext, input: Input) => Promise<Result>) {
  return async (context: ApiContext, input: Input): Promise<Result> => {
    const image = await preparePhoto(input.image);
    return action(context, { ...input, image, fileName: image !== input.image && image instanceof File ? image.name : input.fileName });
  };
}
