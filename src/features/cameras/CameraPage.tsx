/**
 * `/camera` (issue 17): the page a spare phone mounted in a grow room keeps open. It needs no sign-in,
 * only the device link an Admin made (Automated cameras → a phone camera → Device links); it captures
 * at the camera's interval and sends the photos, keeping them while offline (device-camera.ts). What
 * it is doing is shown large, to be read from a few steps away: the last photo, how many wait, the
 * connection, and a revoked link, after which it stops and says so.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cameraMessages as m } from '../../../common/messages/cameras';
import { translateMessage } from '../../i18n/messages';
import { type DeviceState, takeDeviceToken, useDeviceCamera } from './device-camera';
import { clockText, intervalName, placeText } from './model';
import { camerasTexts } from './texts';
import './cameras.css';

export function CameraPage() {
  const { t } = useTranslation(camerasTexts);
  // Read once: the address loses its token as soon as it is read.
  const [token] = useState(takeDeviceToken);
  const video = useRef<HTMLVideoElement | null>(null);
  const device = useDeviceCamera(token, video);
  const { config } = device;
  const stopped = device.phase === 'revoked' || device.phase === 'no-link';

  return (
    <main className="page camera-page">
      <h1>{config?.name ?? t('camera')}</h1>
      {config && <p className="camera-page-place">{placeText({ room_name: config.room_name, grid_name: config.grid_name, grid_box_name: config.grid_box_name })}</p>}
      {device.phase === 'no-link' && (
        <p className="banner error camera-page-banner" role="alert">
          {translateMessage(m.deviceTokenMissing)}
        </p>
      )}
      {device.phase === 'revoked' && (
        <p className="banner error camera-page-banner" role="alert">
          {t('page.stopped', { reason: translateMessage(m.deviceTokenInvalid) })}
          {device.discarded > 0 ? ` ${t('page.discarded', { count: device.discarded })}` : ''}
        </p>
      )}
      {!stopped && (
        <>
          <StatusPanel device={device} />
          {device.phase === 'camera-error' && (
            <div className="banner error camera-page-banner" role="alert">
              <p>{device.problem}</p>
              <button type="button" className="button primary" onClick={device.retryCamera}>
                {t('page.retryCamera')}
              </button>
            </div>
          )}
          <video ref={video} className="camera-page-preview" muted playsInline aria-label={t('page.preview')} />
        </>
      )}
    </main>
  );
}

function StatusPanel({ device }: { device: DeviceState }) {
  const { t } = useTranslation(camerasTexts);
  const { config } = device;
  const phaseText: Record<DeviceState['phase'], string> = {
    'no-link': t('page.phases.noLink'),
    starting: config ? t('page.phases.opening') : t('page.phases.readingSettings'),
    running: config ? t('page.phases.capturingEvery', { interval: intervalName(config.interval_seconds) }) : t('page.phases.capturing'),
    paused: t('page.phases.paused'),
    revoked: t('page.phases.stopped'),
    'camera-error': t('page.phases.cameraError'),
  };
  return (
    <section className="camera-page-status" aria-label={t('page.status')}>
      <p className={`camera-page-phase ${device.phase}`} role="status">
        {phaseText[device.phase]}
      </p>
      <dl className="camera-page-facts">
        <div>
          <dt>{t('page.lastPhoto')}</dt>
          <dd>{clockText(device.lastCaptureAt)}</dd>
        </div>
        <div>
          <dt>{t('page.waiting')}</dt>
          <dd>{device.waiting}</dd>
        </div>
        <div>
          <dt>{t('page.lastSent')}</dt>
          <dd>{clockText(device.lastUploadAt)}</dd>
        </div>
        <div>
          <dt>{t('page.connection')}</dt>
          <dd>{device.online ? t('page.online') : t('page.offlineState')}</dd>
        </div>
      </dl>
      {!device.online && <p className="banner offline camera-page-banner">{t('page.offline')}</p>}
      {device.problem && device.phase !== 'camera-error' && <p className="camera-page-problem">{device.problem}</p>}
    </section>
  );
}
