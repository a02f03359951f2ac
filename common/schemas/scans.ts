import { z } from 'zod';
import { scanMessages as m } from '../messages/scans';
import { answer, timestamp } from './answers';
import { formBody, optionalId, requiredId } from './fields';
import { gridRecord } from './grids';
import { roomRecord } from './rooms';

export const markRoomScannedQuery = z.object({ room_id: requiredId(m.roomIdRequired), user_id: requiredId(m.userIdRequired) });
export const markGridScannedQuery = z.object({ grid_id: requiredId(m.gridIdRequired), user_id: requiredId(m.userIdRequired) });
export const roomIdQuery = z.object({ room_id: requiredId(m.roomIdRequired) });
export const gridIdQuery = z.object({ grid_id: requiredId(m.gridIdRequired) });
export const resetScannedQuery = z.object({ company_id: optionalId(m.companyIdRequired) });
export const deleteScanQuery = z.object({ company_id: requiredId(m.companyIdRequired), scan_id: requiredId(m.scanIdRequired) });

/** The uploaded file stays a Buffer (or is absent); saveImage checks it. */
const upload = z.unknown().optional();

export const uploadWhiteboardBody = formBody({ room_id: requiredId(m.roomIdRequired), imageFile: upload });
export const uploadGridImageQuery = z.object({ GridID: requiredId(m.gridImageIdRequired) });
export const uploadGridImageBody = formBody({ image: upload });
export const gridBackgroundQuery = z.object({ RoomID: requiredId(m.gridRoomIdRequired) });

// ——— Answers ———

export const markRoomScannedAnswer = answer({ room: roomRecord });
export const markGridScannedAnswer = answer({ grid: gridRecord });

/** A room's or grid's scan state, with the last scanner's name. */
export const scanDetailsRecord = z.object({
  Scanned: z.boolean(),
  ScannedDateTime: timestamp.nullable(),
  LastScannedBy: z.number().int().nullable(),
  LastScannedByName: z.string().nullable(),
});

export type ScanDetailsRecord = z.infer<typeof scanDetailsRecord>;

/** get_room_scan_details, get_grid_scan_details: the scan state's fields beside the envelope's. */
export const scanDetailsAnswer = answer(scanDetailsRecord.shape);

/** How many rooms and grids lost their scan state. */
export const resetScannedAnswer = answer({ rooms_reset: z.number().int(), grids_reset: z.number().int() });

export const uploadWhiteboardAnswer = answer({ WhiteboardImage: z.string(), room: roomRecord });

/** One upload of a room's whiteboard (its history keeps them all). Only the server makes these: its id is the server's. */
export const whiteboardImageRecord = z.object({
  id: z.number().int(),
  ImagePath: z.string(),
  UploadedBy: z.number().int().nullable(),
  UploadedAt: timestamp,
});

export type WhiteboardImageRecord = z.infer<typeof whiteboardImageRecord>;

/** A room's whiteboard images, newest first. */
export const whiteboardHistoryAnswer = answer({ history: z.array(whiteboardImageRecord) });

export const uploadGridImageAnswer = answer({ ImageName: z.string() });

/** A grid of a room with its background image (get_grid_background). */
export const gridBackgroundRecord = gridRecord.pick({ id: true, Name: true, ImageName: true });

export type GridBackgroundRecord = z.infer<typeof gridBackgroundRecord>;

export const gridBackgroundAnswer = answer({ grids: z.array(gridBackgroundRecord) });
