import { CameraOutlined, CloseOutlined, FullscreenOutlined, LoadingOutlined, MutedOutlined, ReloadOutlined, SoundOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BusinessError } from '../../../api/client';
import { doVisual, mediaSocketUrl, reportLiveVideos, type LiveStreamInfo } from '../../../api/video';
import { STORAGE } from '../../../app/store';
import { G711Player } from './audio';
import { closeCodeKey, HIGH_LOSS, LOSS_POLL_MS, reasonKey, snapshotName, type TileStatus } from './logic';
import { createLivePlayer, livePlayerSupported, type LivePlayer } from './player';

/** What a tile plays (the page gives each new assignment a new id: a new id is a new request). */
export interface TileSpec {
  id: number;
  carId: number;
  channelNo: number;
  plate: string;
  channelName: string;
}

export interface VideoTileProps {
  index: number;
  spec: TileSpec | null;
  selected: boolean;
  audioOn: boolean;
  onSelect: () => void;
  onClose: () => void;
  onAudio: (on: boolean) => void;
  /** The stream was opened (for stopping it on leaving the page). */
  onOpened: (s: LiveStreamInfo) => void;
  /** A second line under the name (the monitoring wall: the alarm that brought the camera up). */
  info?: ReactNode;
  /** Buttons before the tile's own (the monitoring wall: pin). */
  actions?: ReactNode;
  /** Extra class and grid order of the tile (the monitoring wall shows the newest first). */
  className?: string;
  order?: number;
}

const token = () => localStorage.getItem(STORAGE.token) ?? '';

/** One tile of the wall: asks for the stream (doVisual), plays it (mpegts.js), shows its state. */
export function VideoTile({ index, spec, selected, audioOn, onSelect, onClose, onAudio, onOpened, info, actions, className, order }: VideoTileProps) {
  const { t } = useTranslation();
  const boxRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<TileStatus>('requesting');
  const [reason, setReason] = useState('');
  const [detail, setDetail] = useState('');
  const [stream, setStream] = useState<LiveStreamInfo | null>(null);
  const [attempt, setAttempt] = useState(0);
  const openedRef = useRef(onOpened);
  openedRef.current = onOpened;

  // request the stream and play it; a new spec (or a retry) starts afresh, unmount destroys the player
  useEffect(() => {
    if (!spec) return;
    let gone = false;
    let player: LivePlayer | null = null;
    const video = videoRef.current;
    setStatus('requesting');
    setReason('');
    setDetail('');
    setStream(null);
    const fail = (key: string, text = '') => {
      if (gone) return;
      setStatus('failed');
      setReason(key);
      setDetail(text);
      player?.destroy();
      player = null;
    };
    doVisual(spec.carId, spec.channelNo).then(
      (s) => {
        if (gone || !video) return;
        openedRef.current(s);
        setStream(s);
        if (!livePlayerSupported()) return fail('unsupported');
        setStatus('buffering');
        player = createLivePlayer(video, mediaSocketUrl(s.flvUrl, token()), {
          onClose: (code, opened) => fail(opened ? closeCodeKey(code) : 'refused'),
          onError: (d) => fail('media', d),
        });
      },
      (e: unknown) => {
        if (e instanceof BusinessError) {
          const data = e.envelope.data as { reason?: string } | null | undefined;
          fail(reasonKey(data?.reason), e.message);
        } else fail('network', e instanceof Error ? e.message : '');
      },
    );
    return () => {
      gone = true;
      player?.destroy();
      player = null;
      if (video) {
        video.removeAttribute('src');
        video.load();
      }
    };
  }, [spec, attempt]);

  // buffering ↔ playing from the element's own events
  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    const playing = () => setStatus((s) => (s === 'buffering' && v.videoWidth > 0 ? 'playing' : s));
    const waiting = () => setStatus((s) => (s === 'playing' ? 'buffering' : s));
    v.addEventListener('playing', playing);
    v.addEventListener('timeupdate', playing);
    v.addEventListener('waiting', waiting);
    return () => {
      v.removeEventListener('playing', playing);
      v.removeEventListener('timeupdate', playing);
      v.removeEventListener('waiting', waiting);
    };
  }, []);

  // packet loss the server measured (0x9105, D88): looked up while the tile plays, shown when high
  const [loss, setLoss] = useState(0);
  useEffect(() => {
    setLoss(0);
    if (status !== 'playing' || !stream) return;
    const timer = setInterval(() => {
      reportLiveVideos(stream.carId).then(
        (list) => setLoss(list.find((x) => x.token === stream.token)?.loss ?? 0),
        () => undefined,
      );
    }, LOSS_POLL_MS);
    return () => clearInterval(timer);
  }, [status, stream]);

  // audio: the stream's G.711 socket while this tile has the speaker, and the element's own sound for
  // AAC carried in the FLV (a device sends one or the other; the unused one stays silent)
  const playingAudio = audioOn && !!stream && status !== 'failed';
  useEffect(() => {
    const v = videoRef.current;
    if (v) v.muted = !playingAudio;
    if (!playingAudio || !stream) return;
    const p = new G711Player(mediaSocketUrl(stream.audioUrl, token()), () => onAudio(false));
    p.start();
    // what is heard, on the tile (data-audio-level ‰ RMS, data-audio-samples): for the eye in devtools and for the e2e test
    const box = boxRef.current;
    const meter = setInterval(() => {
      box?.setAttribute('data-audio-level', String(Math.round(p.level() * 1000)));
      box?.setAttribute('data-audio-samples', String(p.samples));
    }, 250);
    return () => {
      clearInterval(meter);
      box?.removeAttribute('data-audio-level');
      box?.removeAttribute('data-audio-samples');
      p.stop();
    };
  }, [playingAudio, stream, onAudio]);

  const fullscreen = () => {
    const el = boxRef.current;
    if (!el) return;
    if (document.fullscreenElement === el) void document.exitFullscreen();
    else void el.requestFullscreen?.().catch(() => undefined);
  };

  const snapshot = () => {
    const v = videoRef.current;
    if (!v || !spec || v.videoWidth === 0) return;
    const c = document.createElement('canvas');
    c.width = v.videoWidth;
    c.height = v.videoHeight;
    c.getContext('2d')?.drawImage(v, 0, 0, c.width, c.height);
    const a = document.createElement('a');
    a.download = snapshotName(spec.plate, spec.channelName, new Date());
    a.href = c.toDataURL('image/png');
    a.click();
  };

  const statusText =
    status === 'failed' ? t(`videoLive.reason.${reason}`) : status === 'playing' ? '' : t(`videoLive.status.${status}`);

  return (
    <div
      ref={boxRef}
      className={`tw-vl-tile${selected ? ' selected' : ''}${spec ? '' : ' empty'}${className ? ` ${className}` : ''}`}
      style={order == null ? undefined : { order }}
      data-testid={`vl-tile-${index}`}
      data-status={spec ? status : 'empty'}
      data-reason={status === 'failed' ? reason : undefined}
      data-car={spec?.carId}
      data-channel={spec?.channelNo}
      onClick={onSelect}
    >
      <video ref={videoRef} muted autoPlay playsInline className="tw-vl-video" style={{ visibility: spec ? 'visible' : 'hidden' }} />
      {spec ? (
        <>
          <div className="tw-vl-bar">
            <span className="tw-vl-name" title={`${spec.plate} · ${spec.channelName}`}>
              {spec.plate} · {spec.channelName}
              {info}
            </span>
            {loss >= HIGH_LOSS && (
              <span className="tw-vl-loss" data-testid={`vl-loss-${index}`}>
                {t('videoLive.loss', { n: loss })}
              </span>
            )}
            <span className="tw-vl-actions" onClick={(e) => e.stopPropagation()}>
              {actions}
              <Tooltip title={audioOn ? t('videoLive.audioOff') : t('videoLive.audioOn')}>
                <Button
                  type="text"
                  size="small"
                  aria-label={audioOn ? t('videoLive.audioOff') : t('videoLive.audioOn')}
                  icon={audioOn ? <SoundOutlined /> : <MutedOutlined />}
                  className={audioOn ? 'on' : ''}
                  disabled={!stream || status === 'failed'}
                  onClick={() => onAudio(!audioOn)}
                  data-testid={`vl-audio-${index}`}
                />
              </Tooltip>
              <Tooltip title={t('videoLive.snapshot')}>
                <Button type="text" size="small" aria-label={t('videoLive.snapshot')} icon={<CameraOutlined />} disabled={status !== 'playing'} onClick={snapshot} data-testid={`vl-snapshot-${index}`} />
              </Tooltip>
              <Tooltip title={t('videoLive.fullscreen')}>
                <Button type="text" size="small" aria-label={t('videoLive.fullscreen')} icon={<FullscreenOutlined />} onClick={fullscreen} data-testid={`vl-fullscreen-${index}`} />
              </Tooltip>
              <Tooltip title={t('videoLive.close')}>
                <Button type="text" size="small" aria-label={t('videoLive.close')} icon={<CloseOutlined />} onClick={onClose} data-testid={`vl-close-${index}`} />
              </Tooltip>
            </span>
          </div>
          {statusText && (
            <div className={`tw-vl-status${status === 'failed' ? ' failed' : ''}`} data-testid={`vl-status-${index}`} title={detail || undefined}>
              {status !== 'failed' && <LoadingOutlined />}
              <span>{statusText}</span>
              {status === 'failed' && (
                <Button size="small" ghost icon={<ReloadOutlined />} onClick={(e) => { e.stopPropagation(); setAttempt((n) => n + 1); }}>
                  {t('videoLive.retry')}
                </Button>
              )}
            </div>
          )}
        </>
      ) : (
        <div className="tw-vl-free">{index + 1}</div>
      )}
    </div>
  );
}
