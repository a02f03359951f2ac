/**
 * `/camera` (issue 17): the page a spare phone mounted in a grow room keeps open. It needs no sign-in,
 * only the device link an Admin made (Automated cameras → a phone camera → Device links); it captures
 * at the camera's interval and sends the photos, keeping them while offline (device-camera.ts). What
 * it is doing is shown large, to be read from a few steps away: the last photo, how many wait, the
 * connection, and a revoked link, after which it stops and says so.
 */
import { useRef, useState } from 'react';
import { cameraMessages as m, intervalText } from '../../../common/messages/cameras';
import { type DeviceState, takeDeviceToken, useDeviceCamera } from './device-camera';
import { clockText, placeText } from './model';
import './cameras.css';

export function CameraPage() {
  // Read once: the address loses its token as soon as it is read.
  const [token] = useState(takeDeviceToken);
  const video = useRef<HTMLVideoElement | null>(null);
  const device = useDeviceCamera(token, video);
  const { config } = device;
  const stopped = device.phase === 'revoked' || device.phase === 'no-link';

  return (
    <main className="page camera-page">
      <h1>{config?.name ?? 'Camera'}</h1>
      {config && <p className="camera-page-place">{placeText({ room_name: config.room_name, grid_name: config.grid_name, grid_box_name: config.grid_box_name })}</p>}
      {device.phase === 'no-link' && (
        <p className="banner error camera-page-banner" role="alert">
          {m.deviceTokenMissing}
        </p>
      )}
      {device.phase === 'revoked' && (
        <p className="banner error camera-page-banner" role="alert">
          Stopped: {m.deviceTokenInvalid}
          {device.discarded > 0 ? ` ${device.discarded === 1 ? 'One photo that was waiting was' : `${device.discarded} photos that were waiting were`} discarded.` : ''}
        </p>
      )}
      {!stopped && (
        <>
          <StatusPanel device={device} />
          {device.phase === 'camera-error' && (
            <div className="banner error camera-page-banner" role="alert">
              <p>{device.problem}</p>
              <button type="button" className="button primary" onClick={device.retryCamera}>
                Try the camera again
              </button>
            </div>
          )}
          <video ref={video} className="camera-page-preview" muted playsInline aria-label="What the camera sees" />
        </>
      )}
    </main>
  );
}

function StatusPanel({ device }: { device: DeviceState }) {
  const { config } = device;
  const phaseText: Record<DeviceState['phase'], string> = {
    'no-link': 'No camera link',
    starting: config ? 'Opening the camera…' : 'Reading the camera’s settings…',
    running: config ? `Capturing every ${intervalText(config.interval_seconds)}` : 'Capturing',
    paused: 'Paused by an Admin: no photos are taken',
    revoked: 'Stopped',
    'camera-error': 'The camera is not open',
  };
  return (
    <section className="camera-page-status" aria-label="Camera status">
      <p className={`camera-page-phase ${device.phase}`} role="status">
        {phaseText[device.phase]}
      </p>
      <dl className="camera-page-facts">
        <div>
          <dt>Last photo</dt>
          <dd>{clockText(device.lastCaptureAt)}</dd>
        </div>
        <div>
          <dt>Waiting to send</dt>
          <dd>{device.waiting}</dd>
        </div>
        <div>
          <dt>Last sent</dt>
          <dd>{clockText(device.lastUploadAt)}</dd>
        </div>
        <div>
          <dt>Connection</dt>
          <dd>{device.online ? 'Online' : 'Offline'}</dd>
        </div>
      </dl>
      {!device.online && <p className="banner offline camera-page-banner">Offline: photos are kept on this phone and sent in order when the network returns.</p>}
      {device.problem && device.phase !== 'camera-error' && <p className="camera-page-problem">{device.problem}</p>}
    </section>
  );
}
