/**
 * A video the server has: where and when it was recorded and by whom, a player (the file is fetched
 * only when asked: videos are large), "Send this frame to a scan", and, for Admins, Delete.
 */
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { videoMessages } from '../../../common/messages/videos';
import { deleteVideo, type VideoDocument } from '../../api/videos';
import { useAction } from '../../app/hooks';
import { messageOf } from '../../i18n/messages';
import { ConfirmPanel, FormError } from '../shell/forms';
import { useStoredImage } from '../rooms/hooks';
import { when } from '../rooms/model';
import { takeFrame } from './frame';
import { offerFrame } from './frame-handoff';
import { clock } from './recorder';
import { videoCaptureTexts } from './texts';

export function VideoCard(props: { video: VideoDocument; place: string; recordedBy: string | null; canDelete: boolean }) {
  const { t } = useTranslation(videoCaptureTexts);
  const { video } = props;
  const [playing, setPlaying] = useState(false);
  // A stored file as an object URL, fetched with the session's token (files are not public): the same for a video as for an image.
  const file = useStoredImage(playing ? video.file : null);
  const player = useRef<HTMLVideoElement | null>(null);
  const [frameError, setFrameError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const remove = useAction(deleteVideo, videoMessages.videoDeleted);
  const navigate = useNavigate();

  async function sendFrame() {
    const shown = player.current;
    if (!shown) return;
    setFrameError(null);
    try {
      const image = await takeFrame(shown);
      offerFrame(image, { gridBoxId: video.what === 'box' ? String(video.grid_box_id) : null, gridId: video.grid_id === null ? null : String(video.grid_id), atSeconds: shown.currentTime });
      await navigate({ to: '/dashboard/scanNow' });
    } catch (error) {
      setFrameError(messageOf(error));
    }
  }

  return (
    <li className="video-item" data-video={video.id}>
      <div className="video-head">
        <h3>{props.place}</h3>
        <span className="muted">
          {when(video.recorded_at)} · {clock(video.duration_ms)}
          {props.recordedBy ? t('video.by', { name: props.recordedBy }) : ''}
        </span>
      </div>
      {playing && (
        <div className="video-frame">
          {file.url ? (
            <video ref={player} src={file.url} controls playsInline preload="auto" aria-label={t('video.label', { place: props.place })} />
          ) : (
            <p className="video-loading" role="status">
              {file.error ?? t('video.loading')}
            </p>
          )}
        </div>
      )}
      <FormError error={frameError} />
      <FormError error={remove.error} />
      {asking ? (
        <ConfirmPanel question={t('video.deleteQuestion')} busy={remove.busy} onKeep={() => setAsking(false)} onConfirm={() => void remove.run({ clientId: video.id }).then(() => setAsking(false))} />
      ) : (
        <div className="video-actions">
          {!playing && (
            <button type="button" className="button" onClick={() => setPlaying(true)}>
              {t('video.play')}
            </button>
          )}
          {playing && file.url && (
            <button type="button" className="button" onClick={() => void sendFrame()}>
              {t('video.sendFrame')}
            </button>
          )}
          {props.canDelete && (
            <button type="button" className="button danger" onClick={() => setAsking(true)}>
              {t('video.delete')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
