/**
 * A phone camera's device links (Admins): make one and show it once, as text to copy and as a QR code
 * to scan with the phone that will photograph the room; list the links with when each was last used,
 * and revoke one (the phone using it stops at its next call and says so).
 */
import { useEffect, useState } from 'react';
import { toString as qrSvg } from 'qrcode';
import { type Camera, createDeviceLink, revokeDeviceLink } from '../../api/cameras';
import { useAction } from '../../app/hooks';
import { FormError } from '../shell/forms';
import { useDeviceLinks } from './hooks';
import { timeText } from './model';

/** The link as a QR code (an SVG data URL, allowed by the page's image policy). */
function useQrCode(text: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!text) {
      setUrl(null);
      return undefined;
    }
    let alive = true;
    void qrSvg(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then((svg) => alive && setUrl(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`));
    return () => {
      alive = false;
    };
  }, [text]);
  return url;
}

export function DeviceLinks({ camera, onChanged }: { camera: Camera; onChanged: () => void }) {
  const [fresh, setFresh] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const links = useDeviceLinks(camera.camera_id, true);
  const qr = useQrCode(fresh);
  const making = useAction(
    async (context) => {
      const made = await createDeviceLink(context, { cameraId: camera.camera_id });
      setFresh(made.url);
      setCopied(false);
      links.reload();
      onChanged();
    },
    undefined,
    { inlineErrors: true },
  );
  const revoking = useAction(
    async (context, tokenId: number) => {
      await revokeDeviceLink(context, { tokenId });
      links.reload();
      onChanged();
    },
    'Device link revoked.',
    { inlineErrors: true },
  );

  async function copy() {
    if (!fresh) return;
    await navigator.clipboard?.writeText(fresh).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }

  return (
    <section className="device-links" aria-label={`Device links of ${camera.name}`}>
      <div className="device-links-head">
        <h3>Device links</h3>
        <button type="button" className="button primary" disabled={making.busy} onClick={() => void making.run()}>
          {making.busy ? 'Making…' : 'Make a device link'}
        </button>
      </div>
      {fresh && (
        <div className="device-link-new" role="status">
          <p>Open this link on the phone that photographs the room (it is shown only now):</p>
          <p className="device-link-url">
            <a href={fresh} target="_blank" rel="noreferrer">
              {fresh}
            </a>
          </p>
          {qr && <img className="device-link-qr" src={qr} alt={`QR code of the device link of ${camera.name}`} width={220} height={220} />}
          <div className="form-actions">
            <button type="button" className="button" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy link'}
            </button>
            <button type="button" className="button" onClick={() => setFresh(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      <FormError error={making.error ?? revoking.error ?? links.error} />
      {links.data && links.data.length === 0 && <p className="muted">No device links yet.</p>}
      {links.data && links.data.length > 0 && (
        <ul className="device-link-list">
          {links.data.map((link) => (
            <li key={link.token_id} className={link.revoked_at ? 'device-link revoked' : 'device-link'}>
              <span>
                Made {timeText(link.created_at)} · last used {timeText(link.last_used_at)}
                {link.revoked_at ? ` · revoked ${timeText(link.revoked_at)}` : ''}
              </span>
              {!link.revoked_at && (
                <button type="button" className="button danger" disabled={revoking.busy} onClick={() => void revoking.run(link.token_id)} aria-label={`Revoke the link made ${timeText(link.created_at)}`}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
