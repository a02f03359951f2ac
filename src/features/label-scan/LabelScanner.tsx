/**
 * Reads a batch's printed QR label with the tablet's rear camera and hands the batch found on this
 * tablet to `onBatch` (issue 17, "Scan a label"). The live picture is decoded a few times a second,
 * not every frame (the tablet stays responsive and its battery lasts); the camera stops as soon as a
 * label opens a batch, and when the scanner closes. Without a camera, or without permission, a photo
 * of the label is read the same way. Other codes, and labels of batches not on this tablet, are said
 * plainly and scanning goes on.
 *
 * WARNING: load this module lazily (ScanLabelSheet.tsx `LazyLabelScanner`): it pulls in the QR decoder.
 */
import { type ChangeEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../i18n/messages';
import { FRAME_MAX_SIDE, PHOTO_MAX_SIDE, pixelsOf, readQr } from './decode';
import { findLabelledBatch, type LabelLookup } from './find-batch';
import { batchIdOfLabel, type ScannedBatch } from './label';
import { labelScanTexts } from './texts';
import './label-scan.css';

/** A few reads a second: enough to feel immediate, little enough to leave the tablet responsive. */
const SCAN_INTERVAL_MS = 250;

type CameraState = 'starting' | 'live' | 'no-camera' | 'refused' | 'busy' | 'insecure';

/** What the scanner says under the picture: a text of its own (texts.ts), with the values it names. */
type NoticeText =
  | { key: 'readingPhoto' | 'notAnImage' | 'noCodeInPhoto' | 'notALabel' | 'notOnTablet' | 'noSession' }
  | { key: 'opening'; batch: string }
  | { key: 'storeUnreadable'; reason: string };

type Notice = NoticeText & { kind: 'problem' | 'progress' };

/** The texts of the camera's states (translated at render). */
const cameraMessages = {
  starting: 'starting',
  'no-camera': 'noCamera',
  refused: 'refused',
  busy: 'cameraBusy',
  insecure: 'insecure',
} as const satisfies Record<Exclude<CameraState, 'live'>, string>;

const sameNotice = (a: Notice | null, b: Notice | null) => JSON.stringify(a) === JSON.stringify(b);

/** Whether this browser can open a camera at all (getUserMedia exists only on secure pages). */
function initialCameraState(): CameraState {
  if (typeof navigator !== 'undefined' && navigator.mediaDevices && typeof navigator.mediaDevices.getUserMedia === 'function') return 'starting';
  return typeof window !== 'undefined' && !window.isSecureContext ? 'insecure' : 'no-camera';
}

/** What a failed getUserMedia means for the grower. */
function cameraProblem(error: unknown): CameraState {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'refused';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'TypeError') return 'no-camera';
  return 'busy';
}

function stopTracks(stream: MediaStream | null) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

export interface LabelScannerProps {
  /** Called once, with the batch a label named, after the camera has stopped. */
  onBatch: (batch: ScannedBatch) => void;
}

export default function LabelScanner({ onBatch }: LabelScannerProps) {
  const { t } = useTranslation(labelScanTexts);
  const video = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [camera, setCamera] = useState<CameraState>(initialCameraState);
  /** Bumped by "Try the camera again": the camera effect runs anew. */
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [readingPhoto, setReadingPhoto] = useState(false);
  /** Set once a label has opened a batch: nothing is read after that. */
  const opened = useRef(false);
  /** Stops the running camera (set by the camera effect). */
  const stopCamera = useRef<() => void>(() => undefined);
  // Callers pass a new function each render; the scan loop calls the latest one.
  const onBatchLatest = useRef(onBatch);
  useEffect(() => {
    onBatchLatest.current = onBatch;
  }, [onBatch]);

  const canvasOf = () => (canvas.current ??= document.createElement('canvas'));
  // The same notice again (the same wrong code seen four times a second) neither re-renders nor is read out again.
  const show = useCallback((next: Notice | null) => setNotice((current) => (sameNotice(current, next) ? current : next)), []);

  /** What a read code means; true when it opened a batch (the caller stops reading). */
  const handleCode = useCallback(
    async (text: string): Promise<boolean> => {
      if (opened.current) return true;
      const address = batchIdOfLabel(text);
      if (address === null) {
        show({ key: 'notALabel', kind: 'problem' });
        return false;
      }
      let lookup: LabelLookup;
      try {
        lookup = await findLabelledBatch(address);
      } catch (error) {
        // The local store failed to answer (storage full, a broken database): say so, and keep scanning.
        show({ key: 'storeUnreadable', reason: messageOf(error), kind: 'problem' });
        return false;
      }
      if (opened.current) return true;
      if ('missing' in lookup) {
        show({ key: lookup.missing === 'session' ? 'noSession' : 'notOnTablet', kind: 'problem' });
        return false;
      }
      opened.current = true;
      stopCamera.current();
      show({ key: 'opening', batch: lookup.found.BatchNumber, kind: 'progress' });
      onBatchLatest.current(lookup.found);
      return true;
    },
    [show],
  );

  useEffect(() => {
    if (initialCameraState() !== 'starting' || opened.current) return undefined;
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const element = video.current;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      stopTracks(stream);
      stream = null;
      if (element) element.srcObject = null;
    };
    stopCamera.current = stop;

    const scan = async () => {
      if (stopped || !element) return;
      if (element.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && element.videoWidth > 0) {
        let text: string | null = null;
        try {
          const pixels = pixelsOf(element, element.videoWidth, element.videoHeight, FRAME_MAX_SIDE, canvasOf());
          text = pixels ? readQr(pixels) : null;
        } catch {
          // One unreadable frame (the camera switching resolution) must not end the scan: the next one comes a moment later.
        }
        if (text !== null && (await handleCode(text))) return;
      }
      if (!stopped) timer = setTimeout(() => void scan(), SCAN_INTERVAL_MS);
    };

    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false })
      .then(async (media) => {
        // Closed (or StrictMode's first run undone) while the browser was asking: let go of the camera at once.
        if (stopped || !element) return stopTracks(media);
        stream = media;
        element.srcObject = media;
        // play() rejects when the element is removed meanwhile; the frames are read from the element either way.
        await element.play().catch(() => undefined);
        if (stopped) return;
        setCamera('live');
        void scan();
      })
      .catch((error: unknown) => {
        if (!stopped) setCamera(cameraProblem(error));
      });
    return stop;
  }, [attempt, handleCode]);

  async function readPhoto(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // The same photo may be chosen again after a retry.
    input.value = '';
    if (!file || opened.current) return;
    setReadingPhoto(true);
    show({ key: 'readingPhoto', kind: 'progress' });
    try {
      // The content decides, not the name or the type the file claims: a file the browser cannot decode is refused.
      const bitmap = await createImageBitmap(file).catch(() => null);
      if (!bitmap) return show({ key: 'notAnImage', kind: 'problem' });
      let text: string | null;
      try {
        const pixels = pixelsOf(bitmap, bitmap.width, bitmap.height, PHOTO_MAX_SIDE, canvasOf());
        text = pixels ? readQr(pixels, true) : null;
      } finally {
        bitmap.close();
      }
      if (text === null) return show({ key: 'noCodeInPhoto', kind: 'problem' });
      await handleCode(text);
    } finally {
      setReadingPhoto(false);
    }
  }

  const live = camera === 'live';
  const cameraUnusable = camera !== 'live' && camera !== 'starting';
  return (
    <div className="ls-scanner">
      <div className="ls-viewfinder" hidden={cameraUnusable}>
        {/* The picture says nothing a screen reader needs: the status line below says what is happening. */}
        <video ref={video} className="ls-video" muted playsInline aria-hidden="true" />
        {live && <div className="ls-target" aria-hidden="true" />}
      </div>
      <p className={`ls-status${cameraUnusable ? ' banner' : ''}`} role="status">
        {live ? t('scanning') : t(cameraMessages[camera])}
      </p>
      {notice && (
        <p className={`ls-notice banner${notice.kind === 'problem' ? ' error' : ''}`} role={notice.kind === 'problem' ? 'alert' : 'status'}>
          {notice.key === 'opening' ? t('opening', { batch: notice.batch }) : notice.key === 'storeUnreadable' ? t('storeUnreadable', { reason: notice.reason }) : t(notice.key)}
        </p>
      )}
      <div className="ls-actions">
        {/* The label wraps the input, so the control is named by the words on the button. */}
        <label className={`button ls-photo${cameraUnusable ? ' primary' : ''}${readingPhoto ? ' ls-busy' : ''}`}>
          {t('takePhoto')}
          <input className="ls-photo-input" type="file" accept="image/*" capture="environment" disabled={readingPhoto} onChange={(event) => void readPhoto(event)} />
        </label>
        {(camera === 'refused' || camera === 'busy') && (
          <button
            type="button"
            className="button"
            onClick={() => {
              setCamera('starting');
              setAttempt((count) => count + 1);
            }}
          >
            {t('tryCameraAgain')}
          </button>
        )}
      </div>
    </div>
  );
}
