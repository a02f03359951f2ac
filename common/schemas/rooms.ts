import { z } from 'zod';
import { roomMessages as m } from '../messages/rooms';
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
