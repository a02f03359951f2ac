import { z } from 'zod';
import { scanMessages as m } from '../messages/scans';
import { formBody, optionalId, requiredId } from './fields';

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
