/**
 * A camera's last days as a time-lapse: its images oldest first (thinned to a few hundred), played at
 * a few frames a second with play/pause and a slider to any frame. Thumbnails load progressively,
 * oldest first; playing waits at a frame not loaded yet instead of skipping it.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Camera } from '../../api/cameras';
import { useObjectUrls, useTimeLapseImages } from './hooks';
import { timeText } from './model';
import { camerasTexts } from './texts';

const DAY_CHOICES = [1, 3, 7] as const;
const SPEEDS = [2, 4, 8] as const;

export function TimeLapse({ camera }: { camera: Camera }) {
  const { t } = useTranslation(camerasTexts);
  const [days, setDays] = useState<number>(3);
  const [fps, setFps] = useState<number>(4);
  const [playing, setPlaying] = useState(false);
  const [index, setIndex] = useState(0);
  const daysId = useId();
  const speedId = useId();
  const frames = useTimeLapseImages(camera.camera_id, days);
  const list = useMemo(() => frames.data ?? [], [frames.data]);
  const references = useMemo(() => list.map((image) => image.thumbnail_path ?? image.image_path), [list]);
  const { urls, loaded } = useObjectUrls(references);
  const current = list[Math.min(index, Math.max(0, list.length - 1))];
  const currentUrl = current ? urls.get(current.thumbnail_path ?? current.image_path) : undefined;

  // A new set of frames starts at its first.
  useEffect(() => {
    setIndex(0);
    setPlaying(false);
  }, [list]);

  useEffect(() => {
    if (!playing || list.length === 0) return undefined;
    const timer = setInterval(() => {
      setIndex((at) => {
        const next = at + 1;
        if (next >= list.length) {
          setPlaying(false);
          return at;
        }
        // Wait at a frame whose thumbnail has not arrived yet.
        const frame = list[next]!;
        return urls.has(frame.thumbnail_path ?? frame.image_path) ? next : at;
      });
    }, 1000 / fps);
    return () => clearInterval(timer);
  }, [playing, fps, list, urls]);

  const play = () => {
    if (index >= list.length - 1) setIndex(0);
    setPlaying(true);
  };

  return (
    <section className="time-lapse card" aria-labelledby="time-lapse-title">
      <div className="time-lapse-head">
        <h2 id="time-lapse-title">{t('timeLapse.title')}</h2>
        <div className="time-lapse-choice">
          <label htmlFor={daysId}>{t('timeLapse.last')}</label>
          <select id={daysId} className="control" value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {DAY_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {t('timeLapse.days', { count: choice })}
              </option>
            ))}
          </select>
        </div>
        <div className="time-lapse-choice">
          <label htmlFor={speedId}>{t('timeLapse.speed')}</label>
          <select id={speedId} className="control" value={fps} onChange={(event) => setFps(Number(event.target.value))}>
            {SPEEDS.map((speed) => (
              <option key={speed} value={speed}>
                {t('timeLapse.framesPerSecond', { count: speed })}
              </option>
            ))}
          </select>
        </div>
      </div>
      {frames.error && (
        <p className="banner error" role="alert">
          {frames.error}
        </p>
      )}
      {frames.loading && frames.data === null ? (
        <p role="status">{t('timeLapse.loading', { count: days })}</p>
      ) : list.length === 0 ? (
        <p className="empty">{t('timeLapse.none', { count: days })}</p>
      ) : (
        <>
          <div className="time-lapse-frame">
            {currentUrl ? <img src={currentUrl} alt={t('detail.imageAt', { name: camera.name, time: timeText(current?.captured_at ?? null) })} /> : <p role="status">{t('timeLapse.loadingFrame')}</p>}
          </div>
          <p className="time-lapse-time" aria-live="off">
            {t('timeLapse.position', { time: timeText(current?.captured_at ?? null), frame: Math.min(index, list.length - 1) + 1, frames: list.length })}
            {loaded < list.length ? t('timeLapse.loaded', { loaded, frames: list.length }) : ''}
          </p>
          <div className="time-lapse-controls">
            <button type="button" className="button primary" onClick={() => (playing ? setPlaying(false) : play())}>
              {playing ? t('timeLapse.pause') : t('timeLapse.play')}
            </button>
            <input
              type="range"
              min={0}
              max={Math.max(0, list.length - 1)}
              value={Math.min(index, list.length - 1)}
              aria-label={t('timeLapse.frame')}
              aria-valuetext={timeText(current?.captured_at ?? null)}
              onChange={(event) => {
                setPlaying(false);
                setIndex(Number(event.target.value));
              }}
            />
          </div>
        </>
      )}
    </section>
  );
}
