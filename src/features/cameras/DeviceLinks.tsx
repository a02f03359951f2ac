/**
 * A phone camera's device links (Admins): make one and show it once, as text to copy and as a QR code
 * to scan with the phone that will photograph the room; list the links with when each was last used,
 * and revoke one (the phone using it stops at its next call and says so).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toString as qrSvg } from 'qrcode';
import { type Camera, createDeviceLink, revokeDeviceLink } from '../../api/cameras';
import { useAction } from '../../app/hooks';
import { FormError } from '../shell/forms';
import { useDeviceLinks } from './hooks';
import { timeText } from './model';
import { camerasTexts } from './texts';

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
  const { t } = useTranslation(camerasTexts);
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
    t('links.revoked'),
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
    <section className="device-links" aria-label={t('links.label', { name: camera.name })}>
      <div className="device-links-head">
        <h3>{t('links.heading')}</h3>
        <button type="button" className="button primary" disabled={making.busy} onClick={() => void making.run()}>
          {making.busy ? t('links.making') : t('links.make')}
        </button>
      </div>
      {fresh && (
        <div className="device-link-new" role="status">
          <p>{t('links.openOnPhone')}</p>
          <p className="device-link-url">
            <a href={fresh} target="_blank" rel="noreferrer">
              {fresh}
            </a>
          </p>
          {qr && <img className="device-link-qr" src={qr} alt={t('links.qr', { name: camera.name })} width={220} height={220} />}
          <div className="form-actions">
            <button type="button" className="button" onClick={() => void copy()}>
              {copied ? t('links.copied') : t('links.copy')}
            </button>
            <button type="button" className="button" onClick={() => setFresh(null)}>
              {t('links.done')}
            </button>
          </div>
        </div>
      )}
      <FormError error={making.error ?? revoking.error ?? links.error} />
      {links.data && links.data.length === 0 && <p className="muted">{t('links.none')}</p>}
      {links.data && links.data.length > 0 && (
        <ul className="device-link-list">
          {links.data.map((link) => (
            <li key={link.token_id} className={link.revoked_at ? 'device-link revoked' : 'device-link'}>
              <span>
                {t('links.made', { made: timeText(link.created_at), used: timeText(link.last_used_at) })}
                {link.revoked_at ? t('links.revokedAt', { time: timeText(link.revoked_at) }) : ''}
              </span>
              {!link.revoked_at && (
                <button type="button" className="button danger" disabled={revoking.busy} onClick={() => void revoking.run(link.token_id)} aria-label={t('links.revokeLabel', { time: timeText(link.created_at) })}>
                  {t('links.revoke')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
