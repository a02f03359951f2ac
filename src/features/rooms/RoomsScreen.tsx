/**
 * The rooms list (spec part 1 §2 `rooms`): the company's rooms from the local store with their grid
 * count and scan state; create a room (name and description, both required: createRoom's messages);
 * open one; delete one (Admin, after a confirmation). Works the same offline: a room made offline shows
 * at once and opens under its temporary id.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roomMessages } from '../../../common/messages/rooms';
import { createRoom, deleteRoom } from '../../api/rooms';
import { useAction, useLocalDocument, useLocalQuery, useSignedInUser } from '../../app/hooks';
import { ConfirmPanel, Field, FormButtons, FormError } from '../shell/forms';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { byName, type CompanyDoc, type GridDoc, type RoomDoc, scanText } from './model';
import './rooms.css';
import { roomsTexts } from './texts';

export function RoomsScreen() {
  const { t } = useTranslation(roomsTexts);
  const user = useSignedInUser();
  const companyKey = user ? String(user.companyId) : '';
  const rooms = useLocalQuery<RoomDoc>('rooms', { CompanyID: user?.companyId ?? -1 }, companyKey);
  const grids = useLocalQuery<GridDoc>('grids', { CompanyID: user?.companyId ?? -1 }, companyKey);
  const company = useLocalDocument<CompanyDoc>('company', companyKey || undefined).document;
  const [creating, setCreating] = useState(false);
  const pulling = useInitialPull();

  const gridCount = useMemo(() => {
    const counts = new Map<string, number>();
    for (const grid of grids.documents) counts.set(grid.roomId, (counts.get(grid.roomId) ?? 0) + 1);
    return counts;
  }, [grids.documents]);
  const sorted = useMemo(() => [...rooms.documents].sort(byName), [rooms.documents]);

  return (
    <Screen
      title={t('list.title')}
      loading={!user || rooms.loading}
      actions={
        !creating && (
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            {t('list.newRoom')}
          </button>
        )
      }
    >
      {creating && user && <CreateRoomForm companyId={user.companyId} onDone={() => setCreating(false)} />}
      {/* A new tablet's first pull: the rooms are on their way, whatever has arrived so far. */}
      {pulling && <InitialPull progress={pulling} />}
      {sorted.length === 0 ? (
        !pulling && <p className="empty">{t('list.empty')}</p>
      ) : (
        <ul className="room-list" aria-label={t('list.label')}>
          {sorted.map((room) => (
            <RoomCard key={room.id} room={room} grids={gridCount.get(room.id) ?? 0} company={company} canDelete={Boolean(user?.isAdmin)} />
          ))}
        </ul>
      )}
    </Screen>
  );
}

function CreateRoomForm({ companyId, onDone }: { companyId: number; onDone: () => void }) {
  const { t } = useTranslation(roomsTexts);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction(createRoom, roomMessages.created);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The spec's rules and messages are createRoom's own ('Room name is required.', …), so the form does not pre-empt them.
    if (await create.run({ companyId, name, description })) onDone();
  }

  return (
    <form className="form card room-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('createRoom.label')}>
      <h2>{t('createRoom.heading')}</h2>
      <Field label={t('createRoom.name')}>
        <input name="name" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" autoFocus />
      </Field>
      <Field label={t('createRoom.description')}>
        <textarea name="description" rows={2} value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <FormError error={create.error} />
      <FormButtons submitLabel={t('createRoom.submit')} busyLabel={t('createRoom.busy')} busy={create.busy} onCancel={onDone} />
    </form>
  );
}

function RoomCard({ room, grids, company, canDelete }: { room: RoomDoc; grids: number; company: CompanyDoc | null; canDelete: boolean }) {
  const { t } = useTranslation(roomsTexts);
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(deleteRoom, roomMessages.deleted);
  const name = room.Name ?? t('card.unnamed');
  return (
    <li className="card room-card" aria-label={name}>
      <div className="room-card-main">
        <h2>
          <Link to="/dashboard/rooms/$roomID" params={{ roomID: room.id }}>
            {name}
          </Link>
        </h2>
        {room.Description && <p className="muted">{room.Description}</p>}
        <p className="room-facts">
          <span>{t('counts.grids', { count: grids })}</span>
          <span className={`scan-state ${room.Scanned ? 'scanned' : 'not-scanned'}`}>{scanText(room, company)}</span>
        </p>
      </div>
      <FormError error={remove.error} />
      {confirming ? (
        <ConfirmPanel
          question={t('card.deleteQuestion', { name })}
          message={t('card.deleteMessage', { name })}
          confirmLabel={t('card.deleteConfirm')}
          keepLabel={t('card.keep')}
          busy={remove.busy}
          onConfirm={() => void remove.run({ roomId: room.id })}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <div className="room-card-actions">
          {/* A room in view is read ahead (its route's loader, rooms/preload.ts): it opens at once. */}
          <Link className="button primary" to="/dashboard/rooms/$roomID" params={{ roomID: room.id }} preload="viewport">
            {t('card.open')}
          </Link>
          {/* Deleting is Admin-only on the server (README "Roles"): other roles do not see it. */}
          {canDelete && (
            <button type="button" className="button danger" onClick={() => setConfirming(true)}>
              {t('card.delete')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
