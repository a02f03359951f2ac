/**
 * Video capture (issue 17; the spec's `videoCapture` screen is a name only): record a short video of
 * a box or of a row of a grid, keep it on the tablet and upload it when the network allows, resuming
 * where an upload stopped; see a box's videos and send any frame of one to a scan.
 *
 * Where the spec is silent:
 * - The place is picked room → box, or room → grid → row, from the tablet's copy (offline too).
 * - The camera opens on a tap (the browser asks once for permission), the rear one, without sound.
 *   Recording stops by itself at VIDEO_MAX_SECONDS (common/messages/videos.ts says why).
 * - Save queues the video and clears the preview for the next one; the place stays chosen (a grower
 *   films several boxes of one bench in a row). Discard drops it.
 * - Waiting videos (every place's, this tablet's) are listed with their state: waiting for the network,
 *   uploading n % (the server's count), or refused with Retry and Discard.
 * - Below, the videos of the chosen box (its own and its row's) or of the chosen row, newest first.
 *   A video is fetched only when Play is pressed; Admins may delete one.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recordVideo, byRecordedAt, isVideoOfBox, type VideoDocument } from '../../api/videos';
import { type SignedInUser, useAction, useLocalQuery } from '../../app/hooks';
import { byCreation } from '../../api/records';
import { useSyncStatus } from '../../sync/sync-store';
import { BoxSelect, placedName, RoomSelect, useCompanyDoc, useCompanyRooms, useRoomBoxes } from '../plant-moves/places';
import { type GridDoc, gridSize, userName } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { Field } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { CameraPanel } from './CameraPanel';
import { useUploadProgress, useVideoPlaces } from './hooks';
import { useVideoRecorder } from './recorder';
import { videoCaptureTexts } from './texts';
import { VideoCard } from './VideoCard';
import { WaitingUploads } from './WaitingUploads';
import './video-capture.css';

export function VideoCaptureScreen() {
  const { t } = useTranslation(videoCaptureTexts);
  return <SignedIn title={t('title')}>{(user) => <VideoCapture user={user} />}</SignedIn>;
}

const NOTHING = '\u0000';
/** What a video shows: a box, or a row of a grid. */
const WHAT_CHOICES = ['box', 'row'] as const;

function VideoCapture({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(videoCaptureTexts);
  const { rooms, loading } = useCompanyRooms(user.companyId);
  const company = useCompanyDoc(user.companyId);
  const [what, setWhat] = useState<'box' | 'row'>('box');
  const [roomChoice, setRoomChoice] = useState('');
  const roomId = roomChoice || (rooms.length === 1 ? rooms[0]!.id : '');
  const [boxId, setBoxId] = useState('');
  const [gridChoice, setGridChoice] = useState('');
  const [rowChoice, setRowChoice] = useState('');

  const { placed } = useRoomBoxes(roomId || null, company);
  const gridList = useLocalQuery<GridDoc>('grids', { roomId: roomId || NOTHING }, `video-room-grids-${roomId}`);
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  const gridId = gridChoice || (grids.length === 1 ? grids[0]!.id : '');
  const grid = grids.find((candidate) => candidate.id === gridId) ?? null;
  const gridBoxes = useMemo(() => placed.filter((box) => box.box.gridId === gridId).map((box) => box.box), [placed, gridId]);
  const rows = grid ? gridSize(grid, gridBoxes).ny : 0;
  const row = Number(rowChoice) >= 1 && Number(rowChoice) <= rows ? Number(rowChoice) : 0;
  const chosenBox = placed.find((candidate) => candidate.box.id === boxId) ?? null;
  const placeChosen = what === 'box' ? chosenBox !== null : grid !== null && row > 0;
  const placeName = what === 'box' ? (chosenBox ? placedName(chosenBox) : null) : grid && row ? t('place.rowOf', { row, grid: grid.Name ?? t('place.theGrid') }) : null;

  const recorder = useVideoRecorder();
  const save = useAction(recordVideo, t('saved'), { inlineErrors: true });
  async function saveRecording() {
    const recording = recorder.recording;
    if (!recording) return;
    const done = await save.run({ video: recording.video, durationMs: recording.durationMs, what, ...(what === 'box' ? { gridBoxId: chosenBox?.box.id ?? '' } : { gridId, row }) });
    if (done) recorder.discard();
  }

  const videoList = useLocalQuery<VideoDocument>('operations', { kind: 'video' }, 'videos');
  const waiting = useMemo(() => videoList.documents.filter((video) => video.upload_pending === true).sort(byRecordedAt).reverse(), [videoList.documents]);
  const shown = useMemo(() => {
    const stored = videoList.documents.filter((video) => video.upload_pending !== true);
    if (what === 'box') return chosenBox ? stored.filter((video) => isVideoOfBox(video, chosenBox.box)).sort(byRecordedAt) : [];
    return grid && row ? stored.filter((video) => video.what === 'row' && String(video.grid_id) === grid.id && Number(video.row) === row).sort(byRecordedAt) : [];
  }, [videoList.documents, what, chosenBox, grid, row]);
  const online = useSyncStatus((status) => status.online);
  const progress = useUploadProgress(
    waiting.map((video) => video.id),
    online,
  );
  const placeOf = useVideoPlaces(useMemo(() => [...waiting, ...shown], [waiting, shown]), company);

  return (
    <Screen title={t('title')} loading={loading} empty={rooms.length === 0 ? t('noRooms') : null}>
      <div className="video-capture">
        <section className="card video-place" aria-labelledby="video-place-title">
          <h2 id="video-place-title">{t('place.heading')}</h2>
          <div className="video-what" role="radiogroup" aria-label={t('place.boxOrRow')}>
            {WHAT_CHOICES.map((choice) => (
              <label key={choice} className={`video-what-choice${what === choice ? ' chosen' : ''}`}>
                <input type="radio" name="video-what" value={choice} checked={what === choice} onChange={() => setWhat(choice)} />
                {choice === 'box' ? t('place.box') : t('place.row')}
              </label>
            ))}
          </div>
          <div className="video-fields">
            <RoomSelect
              label={t('place.room')}
              value={roomId}
              rooms={rooms}
              none={t('place.chooseRoom')}
              onChange={(id) => {
                setRoomChoice(id);
                setBoxId('');
                setGridChoice('');
                setRowChoice('');
              }}
            />
            {what === 'box' ? (
              <BoxSelect label={t('place.boxLabel')} value={chosenBox ? boxId : ''} boxes={placed} none={roomId ? t('place.chooseBox') : t('place.chooseRoomFirst')} disabled={!roomId} onChange={setBoxId} />
            ) : (
              <>
                <Field label={t('place.grid')}>
                  <select
                    value={grid ? gridId : ''}
                    disabled={!roomId}
                    onChange={(event) => {
                      setGridChoice(event.target.value);
                      setRowChoice('');
                    }}
                  >
                    <option value="">{roomId ? t('place.chooseGrid') : t('place.chooseRoomFirst')}</option>
                    {grids.map((candidate) => (
                      <option key={candidate.id} value={candidate.id}>
                        {candidate.Name || t('place.unnamedGrid')}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field label={t('place.rowLabel')}>
                  <select value={row ? String(row) : ''} disabled={!grid} onChange={(event) => setRowChoice(event.target.value)}>
                    <option value="">{grid ? t('place.chooseRow') : t('place.chooseGridFirst')}</option>
                    {Array.from({ length: rows }, (_, index) => (
                      <option key={index + 1} value={String(index + 1)}>
                        {t('place.rowNumber', { row: index + 1 })}
                      </option>
                    ))}
                  </select>
                </Field>
              </>
            )}
          </div>
        </section>

        <CameraPanel recorder={recorder} placeChosen={placeChosen} placeName={placeName} saving={save.busy} saveError={save.error} onSave={() => void saveRecording()} />

        <WaitingUploads videos={waiting} progress={progress} placeOf={placeOf} />

        {placeChosen && (
          <section className="card video-stored" aria-labelledby="video-stored-title">
            <h2 id="video-stored-title">{t('stored.heading', { place: placeName })}</h2>
            {shown.length === 0 ? (
              <p className="muted">{t('stored.none')}</p>
            ) : (
              <ul className="video-list">
                {shown.map((video) => (
                  <VideoCard key={video.id} video={video} place={placeOf(video)} recordedBy={userName(company, video.recorded_by)} canDelete={user.isAdmin} />
                ))}
              </ul>
            )}
          </section>
        )}
      </div>
    </Screen>
  );
}
