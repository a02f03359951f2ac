/** A frame of a video as an image, for a scan (issue 17: "any frame can be sent to a scan"). */
import { videoClientMessages as cm } from '../../../common/messages/videos';

/**
 * The frame the video shows now, at its own size, as a PNG (lossless: the scan's analyses see what the
 * camera saw). The video must be of this origin (a Blob URL of a stored file is), or the canvas would
 * refuse to give its pixels. Fails with 'The frame could not be taken from the video.' before a frame
 * is shown (the video not loaded yet).
 */
export async function takeFrame(video: HTMLVideoElement): Promise<Blob> {
  const { videoWidth: width, videoHeight: height } = video;
  if (!width || !height) throw new Error(cm.frameFailed);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const drawing = canvas.getContext('2d');
  if (!drawing) throw new Error(cm.frameFailed);
  drawing.drawImage(video, 0, 0, width, height);
  const image = await new Promise<Blob | null>((resolve) => {
    try {
      canvas.toBlob(resolve, 'image/png');
    } catch {
      resolve(null);
    }
  });
  if (!image) throw new Error(cm.frameFailed);
  return image;
}
