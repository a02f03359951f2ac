/** Domain functions of rooms (spec part 1 §3, §5, §7, §8). */
import { createRoomBody, roomCompanyQuery } from '../../common/schemas/rooms';
import { newTempId } from '../../sync/record';
import { type ApiContext, check, multipart, now, record } from './context';

/** create_room: the room appears at once under a temporary id (spec's `createRoomQueue`). */
export async function createRoom(context: ApiContext, input: { companyId: number; name: string; description: string }) {
  const { company_id } = check(roomCompanyQuery, { company_id: input.companyId });
  const { name, description } = check(createRoomBody, { name: input.name, description: input.description });
  const roomId = newTempId();
  const at = now();
  await record(context, {
    method: 'POST',
    path: '/create_room',
    query: { company_id },
    body: multipart({ name, description }),
    creates: [{ tempId: roomId, collection: 'rooms', path: ['RoomID'] }],
    effects: [
      {
        op: 'upsert',
        collection: 'rooms',
        id: roomId,
        data: { RoomID: roomId, CompanyID: company_id, Name: name, Description: description, CreatedDateTime: at, UpdatedDateTime: at, Scanned: false, ScannedDateTime: null, LastScannedBy: null, WhiteboardImage: null, StartScroll: 0 },
      },
    ],
    label: `Create room ${name}`,
  });
  return { RoomID: roomId };
}
