/**
 * Automated cameras (spec part 1 §2 `automatedcameras`; issue 17): the company's cameras, each with
 * where it looks, its kind, its state and its last image; Admins add, edit, pause and delete them,
 * photograph an IP camera now, and make or revoke a phone's device link (shown once, as text and a QR
 * code). Online only (src/api/cameras.ts says why): offline the screen says so and shows no copy.
 * The list reads itself again every few seconds, so a new image or a failing camera shows without
 * asking.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cameraMessages } from '../../../common/messages/cameras';
import { type Camera, type CameraLimits, captureCameraNow, deleteCamera } from '../../api/cameras';
import { type SignedInUser, useAction, useLocalQuery } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { byName, type RoomDoc } from '../rooms/model';
import { useStoredImage } from '../rooms/hooks';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { CameraForm } from './CameraForm';
import { DeviceLinks } from './DeviceLinks';
import { useCameras, useEvery } from './hooks';
import { intervalName, kindName, placeText, stateText, timeText } from './model';
import { camerasTexts } from './texts';
import './cameras.css';

/** How often the list reads itself again. */
const REFRESH_MS = 10_000;

export function CamerasScreen() {
  const { t } = useTranslation(camerasTexts);
  return <SignedIn title={t('title')}>{(user) => <Cameras user={user} />}</SignedIn>;
}

type Editing = null | 'new' | Camera;

function Cameras({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(camerasTexts);
  const online = useSyncStatus((status) => status.online);
  const read = useCameras(user.companyId);
  const [editing, setEditing] = useState<Editing>(null);
  useEvery(REFRESH_MS, online && editing === null, read.reload);
  const rooms = [...useLocalQuery<RoomDoc>('rooms', { CompanyID: user.companyId }, `rooms-${user.companyId}`).documents].sort(byName);
  const cameras = read.data?.cameras ?? [];
  const limits = read.data?.limits;
  const saved = () => {
    setEditing(null);
    read.reload();
  };
  const form = (camera?: Camera) =>
    limits && <CameraForm user={user} camera={camera} limits={limits} rooms={rooms} onSaved={saved} onCancel={() => setEditing(null)} />;

  return (
    <Screen
      title={t('title')}
      offline={t('offline')}
      actions={
        online && user.isAdmin && editing === null && limits ? (
          <button type="button" className="button primary" onClick={() => setEditing('new')}>
            {t('list.add')}
          </button>
        ) : null
      }
      loading={online && read.loading && read.data === null}
      error={read.error}
      empty={
        online && read.data?.cameras.length === 0 && editing !== 'new'
          ? user.isAdmin
            ? t('list.emptyAdmin')
            : t('list.empty')
          : null
      }
    >
      {online && (
        <div className="cameras">
          {!user.isAdmin && <p className="muted">{t('list.adminsOnly')}</p>}
          {read.error && (
            <button type="button" className="button" onClick={read.reload}>
              {t('list.tryAgain')}
            </button>
          )}
          {editing === 'new' && form()}
          <ul className="camera-list">
            {cameras.map((camera) =>
              editing !== null && editing !== 'new' && editing.camera_id === camera.camera_id ? (
                <li key={camera.camera_id} className="camera-card card">
                  {form(camera)}
                </li>
              ) : (
                <CameraCard key={camera.camera_id} camera={camera} user={user} limits={limits} onEdit={() => setEditing(camera)} onChanged={read.reload} />
              ),
            )}
          </ul>
        </div>
      )}
    </Screen>
  );
}

/** The camera's last image, small (its thumbnail when made). */
function LastImage({ camera }: { camera: Camera }) {
  const { t } = useTranslation(camerasTexts);
  const image = camera.last_image;
  const stored = useStoredImage(image ? (image.thumbnail_path ?? image.image_path) : null);
  if (!image) return <div className="camera-thumb empty-thumb">{t('list.noImage')}</div>;
  if (!stored.url) return <div className="camera-thumb empty-thumb">{stored.error ?? t('list.loadingImage')}</div>;
  return <img className="camera-thumb" src={stored.url} alt={t('list.lastImage', { name: camera.name, time: timeText(image.captured_at) })} />;
}

function CameraCard({ camera, user, onEdit, onChanged }: { camera: Camera; user: SignedInUser; limits: CameraLimits | undefined; onEdit: () => void; onChanged: () => void }) {
  const { t } = useTranslation(camerasTexts);
  const [confirming, setConfirming] = useState(false);
  const [linksOpen, setLinksOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  const removing = useAction(deleteCamera, cameraMessages.cameraDeleted, { inlineErrors: true });
  const capturing = useAction(
    async (context, cameraId: number) => {
      await captureCameraNow(context, { cameraId });
      setAsked(true);
      // The image arrives moments later: the list reads itself again meanwhile.
      setTimeout(onChanged, 3_000);
    },
    undefined,
    { inlineErrors: true },
  );

  return (
    <li className={`camera-card card state-${camera.enabled ? camera.state : 'paused'}`}>
      {/* A larger target for a finger; the heading's link is the one a screen reader and the keyboard use. */}
      <Link to="/dashboard/automatedcameradetail/$camera_id" params={{ camera_id: String(camera.camera_id) }} className="camera-thumb-link" tabIndex={-1} aria-hidden="true">
        <LastImage camera={camera} />
      </Link>
      <div className="camera-body">
        <h2 className="camera-name">
          <Link to="/dashboard/automatedcameradetail/$camera_id" params={{ camera_id: String(camera.camera_id) }}>
            {camera.name}
          </Link>
        </h2>
        <p className="camera-place">{placeText(camera)}</p>
        <p className="camera-meta">
          <span className="chip camera-kind">{kindName(camera.kind)}</span> {t('card.meta', { interval: intervalName(camera.interval_seconds), time: timeText(camera.last_capture_at) })}
        </p>
        <p className={`camera-state ${camera.enabled ? camera.state : 'paused'}`} role={camera.state === 'failing' ? 'alert' : undefined}>
          {stateText(camera)}
        </p>
        {camera.snapshot_url && <p className="camera-address muted">{camera.snapshot_url}</p>}
        {asked && <p role="status">{t('card.captureAsked')}</p>}
        {user.isAdmin &&
          (confirming ? (
            <ConfirmPanel
              question={t('card.deleteQuestion', { name: camera.name })}
              message={t('card.deleteMessage')}
              confirmLabel={t('card.delete')}
              busy={removing.busy}
              onKeep={() => setConfirming(false)}
              onConfirm={() => void removing.run({ cameraId: camera.camera_id }).then((done) => done && onChanged())}
            />
          ) : (
            <div className="form-actions camera-actions">
              {camera.kind === 'ip' && (
                <button type="button" className="button" disabled={capturing.busy} onClick={() => void capturing.run(camera.camera_id)}>
                  {capturing.busy ? t('card.asking') : t('card.captureNow')}
                </button>
              )}
              {camera.kind === 'device' && (
                <button type="button" className="button" aria-expanded={linksOpen} onClick={() => setLinksOpen((open) => !open)}>
                  {linksOpen ? t('card.hideLinks') : t('card.showLinks', { links: camera.active_device_links })}
                </button>
              )}
              <button type="button" className="button" onClick={onEdit}>
                {t('card.edit')}
              </button>
              <button type="button" className="button danger" onClick={() => setConfirming(true)}>
                {t('card.deleteShort')}
              </button>
            </div>
          ))}
        <FormError error={capturing.error ?? removing.error} />
        {linksOpen && user.isAdmin && <DeviceLinks camera={camera} onChanged={onChanged} />}
      </div>
    </li>
  );
}
