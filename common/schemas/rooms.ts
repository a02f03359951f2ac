import { z } from 'zod';
import { roomMessages as m } from '../messages/rooms';
import { answer, recordRef, timestamp } from './answers';
import { gridWithBoxes } from './grids';
import { formBody, optionalId, requiredId, requiredNumber, requiredText, optionalClientId } from './fields';

export const roomCompanyQuery = z.object({ company_id: requiredId(m.companyIdRequired) });

export const createRoomBody = formBody({
  name: requiredText(m.nameRequired, 200),
  description: requiredText(m.descriptionRequired, 2000),
  client_id: optionalClientId(),
});

export const loadRoomGridsBoxesQuery = z.object({ company_id: requiredId(m.companyIdRequired), room_id: optionalId(m.roomIdInvalid) });

export const deleteRoomQuery = z.object({ room_id: requiredId(m.roomIdRequired) });

export const roomScrollQuery = z.object({ company_id: requiredId(m.companyIdRequired), room_id: requiredId(m.roomIdRequired) });

/** The scroll value comes as `setValue` or `start_scroll`, in the query or the body; the handler checks it with `scrollNumber`. */
export const scrollNumber = requiredNumber(m.scrollRequired);
export const scrollBody = z.preprocess((value) => value ?? {}, z.object({ setValue: z.unknown().optional(), start_scroll: z.unknown().optional() }));

export const updateRoomScrollQuery = roomScrollQuery.extend({ setValue: z.unknown().optional(), start_scroll: z.unknown().optional() });
export const updateAllRoomScrollQuery = z.object({ company_id: requiredId(m.companyIdRequired), setValue: z.unknown().optional(), start_scroll: z.unknown().optional() });

// ——— Answers ———

/** A room, as answers and the synced `rooms` collection show it (spec part 1 §3 offline-store fields). */
export const roomRecord = z.object({
  RoomID: recordRef,
  CompanyID: z.number().int(),
  Name: z.string(),
  Description: z.string(),
  CreatedDateTime: timestamp,
  UpdatedDateTime: timestamp,
  Scanned: z.boolean(),
  ScannedDateTime: timestamp.nullable(),
  LastScannedBy: z.number().int().nullable(),
  WhiteboardImage: z.string().nullable(),
  StartScroll: z.number(),
});

export type RoomRecord = z.infer<typeof roomRecord>;

export const roomWithGrids = roomRecord.extend({ grids: z.array(gridWithBoxes) });

export type RoomWithGrids = z.infer<typeof roomWithGrids>;

export const createRoomAnswer = answer({ room: roomRecord, RoomID: recordRef, client_id: z.string() });
export const loadRoomGridsBoxesAnswer = answer({ rooms: z.array(roomWithGrids) });
export const deleteRoomAnswer = answer({ RoomID: recordRef });
export const roomScrollAnswer = answer({ StartScroll: z.number() });
export const allRoomScrollAnswer = answer({ StartScroll: z.number(), updated: z.number().int() });
