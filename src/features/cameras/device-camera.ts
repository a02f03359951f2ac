/**
 * The phone camera's work on the public /camera page (issue 17), as one hook: it reads the camera's
 * settings with the device token, opens the rear camera, takes a still at the camera's interval (a
 * canvas frame as a JPEG), keeps each in the page's own store (capture-store.ts) and sends them in the
 * order taken whenever the server answers; offline, they wait. A revoked link stops everything: the
 * camera is closed, the waiting photos are dropped (no server takes them any more) and the page says so.
 * The screen is kept awake (Screen Wake Lock) where the browser offers it.
 *
 * Nothing here loads the app's local database or sync worker: the page has no session, only its token.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { newClientId } from '../../../common/client-ids';
import { type DeviceConfig, deviceClient, getDeviceConfig, linkRevoked, uploadDeviceCapture } from '../../api/cameras';
import { backendUrl } from '../../api/client';
import { ApiError, unanswered } from '../../api/errors';
import { i18next } from '../../i18n/i18n';
import { messageOf } from '../../i18n/messages';
import { captureStore } from './capture-store';
import { camerasTexts } from './texts';

const TOKEN_KEY = 'growroom.cameraDeviceToken';
const CONFIG_KEY = 'growroom.cameraDeviceConfig';
/** The camera's settings are read again this often (a new interval, a pause), and when the network returns. */
const CONFIG_REFRESH_MS = 5 * 60_000;
/** Sending waiting photos is tried again this often while some wait and the server did not answer. */
const RETRY_MS = 15_000;
/** The longer side of a photo sent: enough for the analyses, small enough for a weak signal. */
const MAX_SIDE = 1920;

export type DevicePhase = 'no-link' | 'starting' | 'running' | 'paused' | 'revoked' | 'camera-error';

export interface DeviceState {
  phase: DevicePhase;
  config: DeviceConfig | null;
  /** The server answered the last call (false: no network, or the server unreachable). */
  online: boolean;
  waiting: number;
  lastCaptureAt: string | null;
  lastUploadAt: string | null;
  /** What went wrong last (the camera refused, a photo refused), for the person at the phone, in the reader's language. */
  problem: string | null;
  /** Photos dropped when the link was found revoked. */
  discarded: number;
}

/**
 * The device token: taken from the address (`/camera?token=…`), kept in this browser's storage and
 * removed from the address bar (a photo of the screen, the history and a shared screen do not show
 * it); later visits without it use the kept one.
 */
export function takeDeviceToken(): string | null {
  const fromAddress = new URLSearchParams(window.location.search).get('token');
  if (fromAddress) {
    localStorage.setItem(TOKEN_KEY, fromAddress);
    localStorage.removeItem(CONFIG_KEY);
    window.history.replaceState(window.history.state, '', window.location.pathname);
    return fromAddress;
  }
  return localStorage.getItem(TOKEN_KEY);
}

function keptConfig(): DeviceConfig | null {
  try {
    return JSON.parse(localStorage.getItem(CONFIG_KEY) ?? 'null') as DeviceConfig | null;
  } catch {
    return null;
  }
}

/** A still of the video as a JPEG, its longer side at most MAX_SIDE. */
async function still(video: HTMLVideoElement): Promise<Blob | null> {
  const { videoWidth: width, videoHeight: height } = video;
  if (!width || !height) return null;
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
}

export function useDeviceCamera(token: string | null, video: RefObject<HTMLVideoElement | null>): DeviceState & { retryCamera: () => void } {
  const [state, setState] = useState<DeviceState>(() => ({
    phase: token ? 'starting' : 'no-link',
    config: token ? keptConfig() : null,
    online: navigator.onLine,
    waiting: 0,
    lastCaptureAt: null,
    lastUploadAt: null,
    problem: null,
    discarded: 0,
  }));
  const [cameraRound, setCameraRound] = useState(0);
  const patch = useCallback((change: Partial<DeviceState>) => setState((current) => ({ ...current, ...change })), []);
  const revoked = useRef(false);
  const [client] = useState(() => deviceClient(backendUrl(window.location.host, import.meta.env)));

  const stopAsRevoked = useCallback(async () => {
    if (revoked.current) return;
    revoked.current = true;
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(CONFIG_KEY);
    const discarded = await captureStore.clear();
    patch({ phase: 'revoked', waiting: 0, discarded });
  }, [patch]);

  // Sending the waiting photos, oldest first, one at a time; one sending at once.
  const sending = useRef<Promise<void> | null>(null);
  const send = useCallback(() => {
    if (!token || revoked.current || sending.current) return sending.current ?? Promise.resolve();
    sending.current = (async () => {
      for (;;) {
        const next = await captureStore.oldest();
        if (!next || revoked.current) break;
        try {
          await uploadDeviceCapture(client, token, next);
          await captureStore.remove(next.id);
          patch({ online: true, lastUploadAt: new Date().toISOString(), waiting: await captureStore.count() });
        } catch (error) {
          if (linkRevoked(error)) return stopAsRevoked();
          const status = error instanceof ApiError ? error.status : null;
          if (unanswered(error) || status === 429 || (status !== null && status >= 500)) {
            // Not now: the photo waits for the next try.
            patch({ online: !unanswered(error) });
            break;
          }
          // Refused for good (not an image, too large): it can never be sent; the next ones go on.
          await captureStore.remove(next.id);
          patch({ problem: i18next.t('page.photoRefused', { ns: camerasTexts, reason: messageOf(error) }), waiting: await captureStore.count() });
        }
      }
      return undefined;
    })().finally(() => {
      sending.current = null;
    });
    return sending.current;
  }, [client, token, patch, stopAsRevoked]);

  // The camera's settings: now, every few minutes and when the network returns.
  useEffect(() => {
    if (!token) return undefined;
    let alive = true;
    const read = async () => {
      try {
        const config = await getDeviceConfig(client, token);
        if (!alive) return;
        localStorage.setItem(CONFIG_KEY, JSON.stringify(config));
        patch({ config, online: true });
      } catch (error) {
        if (!alive) return;
        if (linkRevoked(error)) await stopAsRevoked();
        else patch({ online: false });
      }
    };
    void read();
    const timer = setInterval(() => void read(), CONFIG_REFRESH_MS);
    const onOnline = () => {
      void read();
      void send();
    };
    window.addEventListener('online', onOnline);
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
    };
  }, [client, token, patch, send, stopAsRevoked]);

  // The rear camera, opened once the settings are known and closed when the page closes or the link ends.
  const hasConfig = state.config !== null;
  const ended = state.phase === 'revoked';
  useEffect(() => {
    if (!token || !hasConfig || ended) return undefined;
    let stream: MediaStream | null = null;
    let alive = true;
    if (!navigator.mediaDevices?.getUserMedia) {
      patch({ phase: 'camera-error', problem: i18next.t('page.noCameraApi', { ns: camerasTexts }) });
      return undefined;
    }
    navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false }).then(
      async (opened) => {
        if (!alive) {
          for (const track of opened.getTracks()) track.stop();
          return;
        }
        stream = opened;
        const element = video.current;
        if (element) {
          element.srcObject = opened;
          await element.play().catch(() => undefined);
        }
        patch({ phase: 'running', problem: null });
      },
      (error: unknown) => alive && patch({ phase: 'camera-error', problem: i18next.t('page.cameraRefused', { ns: camerasTexts, reason: messageOf(error) }) }),
    );
    return () => {
      alive = false;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [token, hasConfig, ended, cameraRound, video, patch]);

  // A still at the camera's interval (the first at once), unless paused by an Admin.
  const intervalSeconds = state.config?.interval_seconds ?? null;
  const enabled = state.config?.enabled ?? true;
  const running = state.phase === 'running' || state.phase === 'paused';
  useEffect(() => {
    if (!running || intervalSeconds === null) return undefined;
    if (!enabled) {
      patch({ phase: 'paused' });
      return undefined;
    }
    patch({ phase: 'running' });
    const capture = async () => {
      const element = video.current;
      if (!element || revoked.current) return;
      const blob = await still(element);
      if (!blob) return;
      const capturedAt = new Date().toISOString();
      await captureStore.add({ id: newClientId(), blob, capturedAt });
      patch({ lastCaptureAt: capturedAt, waiting: await captureStore.count() });
      void send();
    };
    void capture();
    const timer = setInterval(() => void capture(), intervalSeconds * 1000);
    const retry = setInterval(() => void send(), RETRY_MS);
    return () => {
      clearInterval(timer);
      clearInterval(retry);
    };
  }, [running, intervalSeconds, enabled, video, patch, send]);

  // The network's own word, for the banner (a call's failure says it too).
  useEffect(() => {
    const update = () => patch({ online: navigator.onLine });
    window.addEventListener('offline', update);
    void captureStore.count().then((waiting) => patch({ waiting }));
    return () => window.removeEventListener('offline', update);
  }, [patch]);

  // The screen kept awake while capturing, taken again when the page is shown again (browsers release it when hidden).
  const capturing = state.phase === 'running';
  useEffect(() => {
    if (!capturing || !('wakeLock' in navigator)) return undefined;
    let lock: WakeLockSentinel | null = null;
    const take = () => {
      if (document.visibilityState !== 'visible') return;
      navigator.wakeLock.request('screen').then(
        (taken) => {
          lock = taken;
        },
        () => undefined,
      );
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      document.removeEventListener('visibilitychange', take);
      void lock?.release().catch(() => undefined);
    };
  }, [capturing]);

  return { ...state, retryCamera: () => setCameraRound((round) => round + 1) };
}
