/**
 * Recording a short video on the tablet (issue 17): the rear camera (`facingMode: 'environment'`, no
 * sound: a grow room's fans say nothing about the plants, and a file without audio is smaller), a
 * MediaRecorder, a timer and a length limit (VIDEO_MAX_SECONDS, common/messages/videos.ts says why).
 * One hook holds the camera, the recorder and the recording, and lets all of them go when the screen
 * does.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { VIDEO_MAX_SECONDS, videoClientMessages as cm } from '../../../common/messages/videos';

export type RecorderPhase = 'idle' | 'starting' | 'ready' | 'recording' | 'recorded' | 'error';

export interface Recording {
  video: Blob;
  durationMs: number;
  /** An object URL of the video, for its preview (revoked when the recording goes). */
  url: string;
  /** Whether the length limit stopped it. */
  stoppedAtLimit: boolean;
}

export interface VideoRecorder {
  phase: RecorderPhase;
  error: string | null;
  /** Milliseconds recorded so far (while recording), or of the recording. */
  elapsedMs: number;
  recording: Recording | null;
  /** The live view of the camera: the screen's <video> for it. */
  liveRef: RefObject<HTMLVideoElement | null>;
  openCamera(): Promise<void>;
  start(): void;
  stop(): void;
  /** Drops the recording (after it was saved, or to record again); the camera stays open. */
  discard(): void;
}

/** The first type this browser records: WebM (Chromium, Firefox), else MP4 (Safari). The server takes both. */
function recordingType(): string | undefined {
  const candidates = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm', 'video/mp4'];
  return candidates.find((type) => MediaRecorder.isTypeSupported(type));
}

/** What the grower is told when the camera does not open. */
function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return cm.cameraRefused;
  return cm.noCamera;
}

export function useVideoRecorder(maxSeconds = VIDEO_MAX_SECONDS): VideoRecorder {
  const [phase, setPhase] = useState<RecorderPhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [recording, setRecording] = useState<Recording | null>(null);
  const liveRef = useRef<HTMLVideoElement | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const timers = useRef<{ tick: ReturnType<typeof setInterval> | null; limit: ReturnType<typeof setTimeout> | null }>({ tick: null, limit: null });
  const limitReached = useRef(false);

  const clearTimers = useCallback(() => {
    if (timers.current.tick) clearInterval(timers.current.tick);
    if (timers.current.limit) clearTimeout(timers.current.limit);
    timers.current = { tick: null, limit: null };
  }, []);

  // The live view shows the camera whenever it is open (the <video> is drawn after the stream opens).
  useEffect(() => {
    const live = liveRef.current;
    if (live && stream.current && live.srcObject !== stream.current) {
      live.srcObject = stream.current;
      void live.play().catch(() => undefined);
    }
  }, [phase]);

  // Everything goes with the screen: the recorder, the camera (its light goes off) and the preview's memory.
  useEffect(
    () => () => {
      clearTimers();
      if (recorder.current?.state === 'recording') recorder.current.stop();
      for (const track of stream.current?.getTracks() ?? []) track.stop();
      stream.current = null;
    },
    [clearTimers],
  );
  useEffect(() => () => void (recording && URL.revokeObjectURL(recording.url)), [recording]);

  const openCamera = useCallback(async () => {
    if (stream.current) return;
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setError(cm.noCamera);
      setPhase('error');
      return;
    }
    if (typeof MediaRecorder === 'undefined') {
      setError(cm.noRecorder);
      setPhase('error');
      return;
    }
    setPhase('starting');
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false });
      setPhase('ready');
    } catch (problem) {
      setError(cameraProblem(problem));
      setPhase('error');
    }
  }, []);

  const stop = useCallback(() => {
    if (recorder.current?.state === 'recording') recorder.current.stop();
  }, []);

  const start = useCallback(() => {
    const camera = stream.current;
    if (!camera || recorder.current?.state === 'recording') return;
    const type = recordingType();
    let made: MediaRecorder;
    try {
      made = new MediaRecorder(camera, type ? { mimeType: type } : undefined);
    } catch {
      setError(cm.noRecorder);
      setPhase('error');
      return;
    }
    const parts: Blob[] = [];
    const startedAt = performance.now();
    limitReached.current = false;
    made.ondataavailable = (event) => {
      if (event.data.size > 0) parts.push(event.data);
    };
    made.onstop = () => {
      clearTimers();
      const durationMs = Math.round(performance.now() - startedAt);
      const video = new Blob(parts, { type: (made.mimeType || type || 'video/webm').split(';')[0] });
      setElapsedMs(durationMs);
      if (video.size === 0) {
        setError(cm.empty);
        setPhase('ready');
        return;
      }
      setRecording({ video, durationMs, url: URL.createObjectURL(video), stoppedAtLimit: limitReached.current });
      setPhase('recorded');
    };
    recorder.current = made;
    setError(null);
    setElapsedMs(0);
    // Data every second: a recording stopped by the limit (or the screen leaving) keeps what it had.
    made.start(1000);
    setPhase('recording');
    timers.current.tick = setInterval(() => setElapsedMs(Math.round(performance.now() - startedAt)), 250);
    timers.current.limit = setTimeout(() => {
      limitReached.current = true;
      if (made.state === 'recording') made.stop();
    }, maxSeconds * 1000);
  }, [clearTimers, maxSeconds]);

  const discard = useCallback(() => {
    setRecording(null);
    setElapsedMs(0);
    setPhase(stream.current ? 'ready' : 'idle');
  }, []);

  return { phase, error, elapsedMs, recording, liveRef, openCamera, start, stop, discard };
}

/** "0:07": a duration as minutes and seconds. */
export function clock(milliseconds: number): string {
  const seconds = Math.floor(Math.max(0, milliseconds) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
