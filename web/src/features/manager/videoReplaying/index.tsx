import { ArrowLeftOutlined, CaretRightOutlined, DownloadOutlined, MutedOutlined, PauseOutlined, PlayCircleOutlined, SearchOutlined, SoundOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Segmented, Select, Spin, Table } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { STORAGE } from '../../../app/store';
import { carChannels } from '../../../api/fleet';
import { BusinessError } from '../../../api/client';
import { useCarSearch } from '../../../components/useCarSearch';
import { fetchTrack } from '../../../api/track';
import { historyVideo, historyVideoControl, mediaSocketUrl, sendGetVideoList, type ReplayInfo } from '../../../api/video';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { formatServerTime, parseServerTime, positionAt } from '../../../lib/playback';
import { formatRange, rangeOf } from '../../../lib/presets';
import { toModel } from '../trackReplaying/model';
import { TrackMap } from '../trackReplaying/TrackMap';
import { G711Player } from '../videoLive/audio';
import { channelsToShow, closeCodeKey } from '../videoLive/logic';
import { createLivePlayer, livePlayerSupported, type LivePlayer } from '../videoLive/player';
import { ClipRecorder, clipName, mediaPosition, place, SPEEDS, sizeText, spanAt, spans, timeAt, type Span } from './logic';
import './videoReplaying.css';

/** The last four hours: what a DVR still has, and within the 24 h a query may span. */
const initialReplayRange = (): TimeRangeValue => ({ preset: 'last_4_hours', ...formatRange(rangeOf('last_4_hours'), true) });
const token = () => localStorage.getItem(STORAGE.token) ?? '';

type State = 'idle' | 'requesting' | 'buffering' | 'playing' | 'paused' | 'ended' | 'failed';
interface Asked {
  carId: number;
  channelNo: number;
  start: string;
  end: string;
}

/** Video replay (manager/videoReplaying, issue 17, D84): a car's recordings on the terminal, played with pause, 1–16×, seek and save. */
export default function VideoReplayPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = Number(params.get('code')) || undefined;
  const [carId, setCarId] = useState<number | undefined>(() => Number(params.get('carId')) || undefined);
  const [channelNo, setChannelNo] = useState(0);
  const [range, setRange] = useState<TimeRangeValue>(initialReplayRange);
  const [asked, setAsked] = useState<Asked | null>(null);

  const { selectProps: carSelect } = useCarSearch('videoReplay', code);
  const chans = useQuery({ queryKey: ['videoReplay', 'channels', carId], queryFn: () => carChannels(carId!), enabled: !!carId });
  const channelOptions = useMemo(
    () => [
      { value: 0, label: t('replay.allChannels') },
      ...channelsToShow(chans.data ?? [])
        .filter((c) => c.enabled)
        .map((c) => ({ value: c.channelNo, label: c.name ? `${c.channelNo} · ${c.name}` : t('replay.channel', { n: c.channelNo }) })),
    ],
    [chans.data, t],
  );
  const list = useQuery({
    queryKey: ['videoReplay', 'list', asked],
    queryFn: () => sendGetVideoList(asked!.carId, asked!.channelNo, asked!.start, asked!.end),
    enabled: !!asked,
    retry: false,
    staleTime: Infinity,
  });
  const all = useMemo(() => spans(list.data ?? []), [list.data]);
  const from = asked ? parseServerTime(asked.start) : NaN;
  const to = asked ? parseServerTime(asked.end) : NaN;

  // the playback
  const videoRef = useRef<HTMLVideoElement>(null);
  const playerRef = useRef<LivePlayer | null>(null);
  const audioStream = useRef(false); // this playback brought AAC: its player is remade when the speed leaves or returns to 1×
  const clipRef = useRef<ClipRecorder | null>(null);
  const [info, setInfo] = useState<ReplayInfo | null>(null);
  const infoRef = useRef<ReplayInfo | null>(null);
  const [current, setCurrent] = useState<Span | null>(null);
  const [state, setState] = useState<State>('idle');
  const [error, setError] = useState('');
  const [speed, setSpeed] = useState(1);
  const [mediaTime, setMediaTime] = useState<number | null>(null);
  const [position, setPosition] = useState<number | null>(null);
  const [clipBytes, setClipBytes] = useState(0);
  const [seekTarget, setSeekTarget] = useState<number | null>(null);
  infoRef.current = info;

  const closePlayer = useCallback(() => {
    playerRef.current?.destroy();
    playerRef.current = null;
    const v = videoRef.current;
    if (v) {
      v.removeAttribute('src');
      v.load();
    }
  }, []);

  /** A new player on the playback's socket (at the start and after each seek: a seek is a new generation). */
  const attach = useCallback(
    (p: ReplayInfo, rate: number) => {
      closePlayer();
      const v = videoRef.current;
      if (!v) return;
      if (!livePlayerSupported()) {
        setState('failed');
        setError(t('videoLive.reason.unsupported'));
        return;
      }
      setMediaTime(null);
      setState('buffering');
      const clip = new ClipRecorder();
      clipRef.current = clip;
      setClipBytes(0);
      playerRef.current = createLivePlayer(
        v,
        mediaSocketUrl(p.flvUrl, token()),
        {
          onClose: (code, opened) => {
            setState(opened && code === 4404 ? 'ended' : 'failed');
            if (!(opened && code === 4404)) setError(t(`videoLive.reason.${opened ? closeCodeKey(code) : 'refused'}`));
          },
          onError: (d) => {
            setState('failed');
            setError(`${t('videoLive.reason.media')} ${d}`);
          },
          onData: (chunk) => clip.push(chunk),
          onMediaTime: (ms) => setMediaTime(ms),
        },
        true,
        rate === 1, // the terminal sends sound at 1× only (D88): elsewhere an AAC track would hold the picture
      );
      v.playbackRate = rate;
    },
    [closePlayer, t],
  );

  const stopPlayback = useCallback(
    (keepState = false) => {
      const p = infoRef.current;
      closePlayer();
      if (p) void historyVideoControl(p.carId, p.token, 'stop', {}, false).catch(() => undefined);
      setInfo(null);
      if (!keepState) {
        setState('idle');
        setCurrent(null);
        setPosition(null);
      }
    },
    [closePlayer],
  );

  const play = useCallback(
    async (s: Span, at?: number) => {
      if (!asked) return;
      stopPlayback(true);
      setCurrent(s);
      setError('');
      setState('requesting');
      setSpeed(1);
      audioStream.current = false;
      setPosition(null);
      try {
        const start = at !== undefined && at > s.start ? formatServerTime(at) : s.rec.startTime;
        const p = await historyVideo(asked.carId, s.rec.channelNo, start, s.rec.endTime);
        setInfo(p);
        infoRef.current = p;
        attach(p, 1);
      } catch (e) {
        setState('failed');
        setError(e instanceof BusinessError || e instanceof Error ? e.message : String(e));
      }
    },
    [asked, attach, stopPlayback],
  );

  const control = useCallback(
    async (command: 'pause' | 'resume' | 'speed', k?: number) => {
      const p = infoRef.current;
      if (!p) return;
      const v = videoRef.current;
      await historyVideoControl(p.carId, p.token, command, k ? { speed: k } : {});
      if (!v) return;
      if (command === 'pause') {
        v.pause();
        setState('paused');
      } else {
        if (command === 'speed' && k) {
          // to or from 1× a player of an AAC stream is made again, with or without its audio track (see attach)
          const aac = speed === 1 ? !!playerRef.current?.hasAudio() : audioStream.current;
          if (aac && (k === 1) !== (speed === 1)) {
            audioStream.current = true;
            attach(p, k);
          } else v.playbackRate = k;
          setSpeed(k);
        }
        void v.play().catch(() => undefined);
        setState((s) => (s === 'paused' ? 'playing' : s));
      }
    },
    [attach, speed],
  );

  const seek = useCallback(
    async (at: number) => {
      const p = infoRef.current;
      if (!p || !current) return;
      setSeekTarget(at);
      setState('requesting'); // the position moves once the new picture says where it is (its media time)
      await historyVideoControl(p.carId, p.token, 'seek', { position: at });
      attach(p, speed);
    },
    [attach, current, speed],
  );

  // where the picture is, from the element's clock
  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    const tick = () => {
      const pos = mediaPosition(mediaTime, v.currentTime);
      if (pos !== null) setPosition(pos);
      setState((s) => (s === 'buffering' && v.videoWidth > 0 && v.currentTime > 0 ? 'playing' : s));
      setClipBytes(clipRef.current?.bytes ?? 0);
    };
    v.addEventListener('timeupdate', tick);
    return () => v.removeEventListener('timeupdate', tick);
  }, [mediaTime]);

  // sound, when asked: the playback's G.711 socket, and the element's own for AAC inside the FLV (as a
  // live tile's); the terminal sends sound at 1× only
  const [audioOn, setAudioOn] = useState(false);
  const hearing = audioOn && !!info && (state === 'playing' || state === 'buffering');
  useEffect(() => {
    const v = videoRef.current;
    if (v) v.muted = !hearing;
    if (!hearing || !info?.audioUrl) return;
    const p = new G711Player(mediaSocketUrl(info.audioUrl, token()));
    p.start();
    return () => p.stop();
  }, [hearing, info]);

  // leaving the page stops the playback on the terminal
  useEffect(() => () => stopPlayback(), [stopPlayback]);

  const track = useQuery({
    queryKey: ['videoReplay', 'track', asked?.carId, current?.rec.startTime, current?.rec.endTime],
    queryFn: () => fetchTrack(asked!.carId, current!.rec.startTime, current!.rec.endTime),
    enabled: !!asked && !!current,
  });
  const model = useMemo(() => (track.data ? toModel(track.data) : null), [track.data]);
  const pos = model && position !== null ? positionAt(model.track, position) : null;

  const canQuery = !!carId && !!range.start && !!range.end;
  const query = () => {
    if (!canQuery) return;
    stopPlayback();
    setAsked({ carId: carId!, channelNo, start: range.start, end: range.end });
  };

  const onTimeline = (e: React.MouseEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const at = timeAt((e.clientX - r.left) / r.width, from, to);
    const s = spanAt(all, at, current?.rec.channelNo ?? channelNo, current);
    if (!s) return;
    if (info && current === s) void seek(at);
    else void play(s, at);
  };

  const save = () => {
    const clip = clipRef.current;
    if (!clip || !current || !info) return;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(clip.blob());
    a.download = clipName(info.plate, info.channelNo, mediaTime ?? current.start);
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  };

  const playing = state === 'playing' || state === 'buffering';
  return (
    <div className="tw-replay">
      <header className="tw-replay-head">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/home')} aria-label={t('track.back')} />
        <h1>{t('menu.videoReplaying')}</h1>
        <span className="tw-replay-grow" />
        <LanguageSwitch />
      </header>
      <div className="tw-replay-body">
        <aside className="tw-replay-side">
          <div className="tw-replay-form">
            <Select
              {...carSelect}
              value={carId}
              onChange={(v) => {
                setCarId(v);
                setChannelNo(0);
              }}
              data-testid="replay-car"
            />
            <Select value={channelNo} onChange={setChannelNo} options={channelOptions} disabled={!carId} data-testid="replay-channel" />
            <TimeRangePicker showTime value={range} onChange={setRange} />
            <Button type="primary" icon={<SearchOutlined />} disabled={!canQuery} onClick={query} loading={list.isFetching} block data-testid="replay-query">
              {t('replay.query')}
            </Button>
          </div>
          <div className="tw-replay-list">
            {list.isError && <Alert type="error" showIcon message={(list.error as Error).message} />}
            {asked && list.isSuccess && (
              <Table<Span>
                size="small"
                rowKey={(s) => `${s.rec.channelNo}-${s.start}`}
                dataSource={all}
                pagination={false}
                scroll={{ y: 'calc(100vh - 380px)' }}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('replay.none')} /> }}
                rowClassName={(s) => (s === current ? 'tw-replay-current' : '')}
                data-testid="replay-list"
                columns={[
                  { title: t('replay.channelCol'), width: 56, render: (_, s) => s.rec.channelNo },
                  { title: t('replay.startCol'), render: (_, s) => <span title={s.rec.startTime}>{s.rec.startTime.slice(5, 16)}</span> },
                  { title: t('replay.endCol'), render: (_, s) => <span title={s.rec.endTime}>{s.rec.endTime.slice(11, 16)}</span> },
                  { title: t('replay.sizeCol'), width: 76, render: (_, s) => sizeText(s.rec.size) },
                  {
                    title: '',
                    width: 40,
                    render: (_, s) => (
                      <Button type="link" size="small" icon={<PlayCircleOutlined />} aria-label={t('replay.play')} onClick={() => void play(s)} data-testid="replay-play-row" />
                    ),
                  },
                ]}
              />
            )}
            {!asked && <div className="tw-replay-hint">{t('replay.hint')}</div>}
          </div>
        </aside>
        <main className="tw-replay-main">
          <div className="tw-replay-stage">
            <video ref={videoRef} muted playsInline className="tw-replay-video" data-testid="replay-video" />
            {state !== 'playing' && state !== 'paused' && (
              <div className="tw-replay-status" data-testid="replay-status">
                {state === 'idle' && t('replay.pick')}
                {(state === 'requesting' || state === 'buffering') && (
                  <>
                    <Spin /> {t(state === 'requesting' ? 'replay.requesting' : 'videoLive.status.buffering')}
                  </>
                )}
                {state === 'ended' && t('replay.ended')}
                {state === 'failed' && <span className="tw-replay-error">{error || t('videoLive.reason.failed')}</span>}
              </div>
            )}
            <div className="tw-replay-map">
              <TrackMap model={model} pos={pos} />
            </div>
          </div>
          <div className="tw-replay-bar">
            <div className="tw-replay-controls">
              <Button
                type="primary"
                shape="circle"
                icon={state === 'paused' ? <CaretRightOutlined /> : <PauseOutlined />}
                disabled={!info || !(playing || state === 'paused')}
                onClick={() => void control(state === 'paused' ? 'resume' : 'pause')}
                aria-label={t(state === 'paused' ? 'replay.resume' : 'replay.pause')}
                data-testid="replay-pause"
              />
              <Button icon={<StopOutlined />} disabled={!info} onClick={() => stopPlayback()} data-testid="replay-stop">
                {t('replay.stop')}
              </Button>
              <span className="tw-replay-label">{t('replay.speed')}</span>
              <Segmented
                size="small"
                value={speed}
                disabled={!info}
                options={SPEEDS.map((k) => ({ value: k, label: `${k}×` }))}
                onChange={(k) => void control('speed', Number(k))}
                data-testid="replay-speed"
              />
              <span className="tw-replay-pos" data-testid="replay-position" data-ms={position ?? ''} data-media={mediaTime ?? ''}>
                {position !== null ? formatServerTime(position) : '—'}
              </span>
              <Button
                type={audioOn ? 'primary' : 'default'}
                icon={audioOn ? <SoundOutlined /> : <MutedOutlined />}
                className={audioOn ? 'on' : ''}
                onClick={() => setAudioOn((on) => !on)}
                aria-label={t(audioOn ? 'videoLive.audioOff' : 'videoLive.audioOn')}
                title={t(audioOn ? 'videoLive.audioOff' : 'videoLive.audioOn')}
                data-testid="replay-audio"
              />
              <Button icon={<DownloadOutlined />} disabled={!info || clipBytes === 0} onClick={save} data-testid="replay-save">
                {t('replay.save')}
                {clipBytes > 0 ? ` (${sizeText(clipBytes)})` : ''}
              </Button>
            </div>
            {asked && Number.isFinite(from) && Number.isFinite(to) && (
              <div className="tw-replay-timeline" onClick={onTimeline} data-testid="replay-timeline" data-from={from} data-to={to} data-seek={seekTarget ?? ''} title={t('replay.timelineHint')}>
                {all
                  .filter((s) => (current ? s.rec.channelNo === current.rec.channelNo : !channelNo || s.rec.channelNo === channelNo))
                  .map((s) => {
                    const p = place(s, from, to);
                    return p && <span key={`${s.rec.channelNo}-${s.start}`} className={`tw-replay-seg${s === current ? ' current' : ''}`} style={{ left: `${p.left}%`, width: `${p.width}%` }} />;
                  })}
                {position !== null && position >= from && position <= to && (
                  <span className="tw-replay-cursor" style={{ left: `${((position - from) / (to - from)) * 100}%` }} />
                )}
                <span className="tw-replay-tick start">{asked.start.slice(5, 16)}</span>
                <span className="tw-replay-tick end">{asked.end.slice(5, 16)}</span>
              </div>
            )}
          </div>
        </main>
      </div>
    </div>
  );
}
