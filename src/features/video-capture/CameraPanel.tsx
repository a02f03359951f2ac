/**
 * The camera: open it, record (a visible timer, a Stop button, stopped at the length limit), watch the
 * recording, then save it (queued) or discard it. It always says what is happening.
 */
import { VIDEO_MAX_SECONDS } from '../../../common/messages/videos';
import { FormError } from '../shell/forms';
import { clock, type VideoRecorder } from './recorder';

export function CameraPanel(props: { recorder: VideoRecorder; placeChosen: boolean; placeName: string | null; saving: boolean; saveError: string | null; onSave: () => void }) {
  const { recorder } = props;
  const { phase } = recorder;
  const live = phase === 'ready' || phase === 'recording' || phase === 'starting';
  return (
    <section className="card video-camera" aria-label="Camera">
      <h2>Record</h2>
      <p className="video-status" role="status" aria-live="polite">
        {statusText(recorder, props.placeChosen, props.placeName)}
      </p>
      {live && (
        <div className={`video-frame${phase === 'recording' ? ' recording' : ''}`}>
          <video ref={recorder.liveRef} muted playsInline autoPlay aria-label="Camera view" />
          {phase === 'recording' && (
            <span className="video-timer" aria-label={`Recording for ${clock(recorder.elapsedMs)}`}>
              <span className="video-dot" aria-hidden="true" />
              {clock(recorder.elapsedMs)} / {clock(VIDEO_MAX_SECONDS * 1000)}
            </span>
          )}
        </div>
      )}
      {phase === 'recorded' && recorder.recording && (
        <div className="video-frame">
          <video src={recorder.recording.url} controls playsInline aria-label="The recording" />
        </div>
      )}
      <FormError error={recorder.error} />
      <FormError error={props.saveError} />
      <div className="video-actions">
        {(phase === 'idle' || phase === 'error') && (
          <button type="button" className="button primary big" onClick={() => void recorder.openCamera()}>
            {phase === 'error' ? 'Try the camera again' : 'Open camera'}
          </button>
        )}
        {phase === 'starting' && (
          <button type="button" className="button primary big" disabled>
            Starting the camera…
          </button>
        )}
        {phase === 'ready' && (
          <button type="button" className="button primary big" disabled={!props.placeChosen} onClick={recorder.start}>
            Record
          </button>
        )}
        {phase === 'recording' && (
          <button type="button" className="button danger big" onClick={recorder.stop}>
            Stop
          </button>
        )}
        {phase === 'recorded' && (
          <>
            <button type="button" className="button primary big" disabled={props.saving || !props.placeChosen} onClick={props.onSave}>
              {props.saving ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="button big" disabled={props.saving} onClick={recorder.discard}>
              Discard
            </button>
          </>
        )}
      </div>
    </section>
  );
}

function statusText(recorder: VideoRecorder, placeChosen: boolean, placeName: string | null): string {
  switch (recorder.phase) {
    case 'idle':
      return 'The camera is off. Open it, choose what to record, then record.';
    case 'starting':
      return 'Starting the camera…';
    case 'ready':
      return placeChosen ? `Ready to record ${placeName ?? ''}. Videos stop by themselves at ${VIDEO_MAX_SECONDS} seconds.` : 'Choose the box or row to record first.';
    case 'recording':
      return `Recording ${placeName ?? ''}: ${clock(recorder.elapsedMs)}.`;
    case 'recorded':
      return recorder.recording?.stoppedAtLimit
        ? `Stopped at ${VIDEO_MAX_SECONDS} seconds, the longest a video may be. Watch it, then save or discard it.`
        : `Recorded ${clock(recorder.elapsedMs)}. Watch it, then save or discard it.`;
    case 'error':
      return 'The camera could not be used.';
  }
}
