/**
 * This tablet pinned to a room (issue 19, src/app/kiosk-pin.ts): an Admin picks the room a kiosk
 * mounted in it starts on; growers see which room it is pinned to.
 */
import { useTranslation } from 'react-i18next';
import { useLocalQuery } from '../../app/hooks';
import { pinRoom, usePinnedRoom } from '../../app/kiosk-pin';
import { byName, type RoomDoc } from '../rooms/model';
import { settingsTexts } from './texts';

export function KioskPinSetting({ companyId, editable }: { companyId: number; editable: boolean }) {
  const { t } = useTranslation(settingsTexts);
  const pinned = usePinnedRoom();
  const rooms = [...useLocalQuery<RoomDoc>('rooms', { CompanyID: companyId }, `rooms-${companyId}`).documents].sort(byName);
  const nameOf = (room: RoomDoc) => (typeof room.Name === 'string' && room.Name ? room.Name : t('kiosk.unnamed'));
  return (
    <section className="card setting" aria-labelledby="setting-kiosk">
      <h2 id="setting-kiosk">{t('kiosk.heading')}</h2>
      <p className="muted">{t('kiosk.help')}</p>
      {editable ? (
        <select
          className="setting-select"
          aria-label={t('kiosk.label')}
          value={pinned?.roomId ?? ''}
          onChange={(event) => {
            const room = rooms.find((candidate) => candidate.id === event.target.value);
            pinRoom(room ? { roomId: room.id, roomName: nameOf(room) } : null);
          }}
        >
          <option value="">{t('kiosk.none')}</option>
          {rooms.map((room) => (
            <option key={room.id} value={room.id}>
              {nameOf(room)}
            </option>
          ))}
        </select>
      ) : (
        <p className="setting-value">{pinned ? pinned.roomName : t('kiosk.none')}</p>
      )}
    </section>
  );
}
