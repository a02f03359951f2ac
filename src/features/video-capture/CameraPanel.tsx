/**
 * The camera: open it, record (a visible timer, a Stop button, stopped at the length limit), watch the
 * recording, then save it (queued) or discard it. It always says what is happening.
 */
import { useTranslation } from 'react-i18next';
import { VIDEO_MAX_SECONDS } from '../../../common/messages/videos';
import { i18next } from '../../i18n/i18n';
import { FormError } from '../shell/forms';
import { clock, type VideoRecorder } from './recorder';
import { videoCaptureTexts } from './texts';

export function CameraPanel(props: { recorder: VideoRecorder; placeChosen: boolean; placeName: string | null; saving: boolean; saveError: string | null; onSave: () => void }) {
  const { t } = useTranslation(videoCaptureTexts);
  const { recorder } = props;
  const { phase } = recorder;
  const live = phase === 'ready' || phase === 'recording' || phase === 'starting';
  return (
    <section className="card video-camera" aria-label={t('camera.label')}>
      <h2>{t('camera.heading')}</h2>
      <p className="video-status" role="status" aria-live="polite">
        {statusText(recorder, props.placeChosen, props.placeName)}
      </p>
      {live && (
        <div className={`video-frame${phase === 'recording' ? ' recording' : ''}`}>
          <video ref={recorder.liveRef} muted playsInline autoPlay aria-label={t('camera.view')} />
          {phase === 'recording' && (
            <span className="video-timer" aria-label={t('camera.recordingFor', { time: clock(recorder.elapsedMs) })}>
              <span className="video-dot" aria-hidden="true" />
              {clock(recorder.elapsedMs)} / {clock(VIDEO_MAX_SECONDS * 1000)}
            </span>
          )}
        </div>
      )}
      {phase === 'recorded' && recorder.recording && (
        <div className="video-frame">
          <video src={recorder.recording.url} controls playsInline aria-label={t('camera.recording')} />
        </div>
      )}
      <FormError error={recorder.error} />
      <FormError error={props.saveError} />
      <div className="video-actions">
        {(phase === 'idle' || phase === 'error') && (
          <button type="button" className="button primary big" onClick={() => void recorder.openCamera()}>
            {phase === 'error' ? t('camera.retry') : t('camera.open')}
          </button>
        )}
        {phase === 'starting' && (
          <button type="button" className="button primary big" disabled>
            {t('camera.starting')}
          </button>
        )}
        {phase === 'ready' && (
          <button type="button" className="button primary big" disabled={!props.placeChosen} onClick={recorder.start}>
            {t('camera.record')}
          </button>
        )}
        {phase === 'recording' && (
          <button type="button" className="button danger big" onClick={recorder.stop}>
            {t('camera.stop')}
          </button>
        )}
        {phase === 'recorded' && (
          <>
            <button type="button" className="button primary big" disabled={props.saving || !props.placeChosen} onClick={props.onSave}>
              {props.saving ? t('camera.saving') : t('camera.save')}
            </button>
            <button type="button" className="button big" disabled={props.saving} onClick={recorder.discard}>
              {t('camera.discard')}
            </button>
          </>
        )}
      </div>
    </section>
  );
}

function statusText(recorder: VideoRecorder, placeChosen: boolean, placeName: string | null): string {
  const ns = videoCaptureTexts;
  const place = placeName ?? '';
  switch (recorder.phase) {
    case 'idle':
      return i18next.t('camera.status.idle', { ns });
    case 'starting':
      return i18next.t('camera.status.starting', { ns });
    case 'ready':
      return placeChosen ? i18next.t('camera.status.ready', { ns, place, seconds: VIDEO_MAX_SECONDS }) : i18next.t('camera.status.choosePlace', { ns });
    case 'recording':
      return i18next.t('camera.status.recording', { ns, place, time: clock(recorder.elapsedMs) });
    case 'recorded':
      return recorder.recording?.stoppedAtLimit ? i18next.t('camera.status.stoppedAtLimit', { ns, seconds: VIDEO_MAX_SECONDS }) : i18next.t('camera.status.recorded', { ns, time: clock(recorder.elapsedMs) });
    case 'error':
      return i18next.t('camera.status.error', { ns });
  }
}
