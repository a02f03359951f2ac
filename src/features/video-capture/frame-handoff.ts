/**
 * "Any frame can be sent to a scan" (issue 17): the video screen hands a frame it took to the scan
 * screen (`/dashboard/scanNow`), which takes it when it opens. Kept in this module, in the page's
 * memory: it crosses a navigation within the app, not a reload (a frame is taken again in a moment),
 * and nothing is written anywhere.
 */

export interface OfferedFrame {
  /** The frame as a PNG. */
  image: Blob;
  /** The box the video shows (its client id), for the scan to start there; null for a video of a row. */
  gridBoxId: string | null;
  /** The grid the video shows (its client id), when known. */
  gridId: string | null;
  /** The frame's place in the video, in seconds. */
  atSeconds: number;
}

let offered: OfferedFrame | null = null;

/** Offers a frame to the scan screen; a frame offered before and not taken is replaced. */
export function offerFrame(image: Blob, place: { gridBoxId: string | null; gridId?: string | null; atSeconds?: number }): void {
  offered = { image, gridBoxId: place.gridBoxId, gridId: place.gridId ?? null, atSeconds: place.atSeconds ?? 0 };
}

/** The frame offered, taken once (the next call answers null); null when none waits. */
export function takeOfferedFrame(): OfferedFrame | null {
  const frame = offered;
  offered = null;
  return frame;
}
