import { ArrowLeftOutlined, CaretRightOutlined, DisconnectOutlined, DownloadOutlined, PauseOutlined, PlayCircleOutlined, SearchOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Segmented, Select, Spin } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BusinessError } from '../../../api/client';
import { carChannels } from '../../../api/fleet';
import { useCarSearch } from '../../../components/useCarSearch';
import { fetchTrack } from '../../../api/track';
import { historyVideo, historyVideoByTime2, historyVideoControl } from '../../../api/video';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { formatServerTime, parseServerTime, positionAt } from '../../../lib/playback';
import { formatRange, rangeOf } from '../../../lib/presets';
import { spread, startPoint, syncPlan, type SyncTile } from '../../../lib/replaySync';
import { toModel } from '../trackReplaying/model';
import { TrackMap } from '../trackReplaying/TrackMap';
import { channelsToShow, reasonKey } from '../videoLive/logic';
import { clipName, place, SPEEDS, sizeText, spans, timeAt, type Span } from '../videoReplaying/logic';
import { ReplayChannel } from './channel';
import '../videoReplaying/videoReplaying.css';
import './videoReplaying2.css';

/** At most this many channels side by side (a 3×3 grid). */
const MAX_CHANNELS = 9;
const SYNC_EVERY_MS = 250;
const initialRange = (): TimeRangeValue => ({ preset: 'last_4_hours', ...formatRange(rangeOf('last_4_hours'), true) });

interface Asked {
  carId: number;
  plate: string;
  channels: number[];
  start: string;
  end: string;
}

/** Video replay of several channels of one car in step (manager/videoReplaying2, issue 17, D86). */
export default function VideoReplay2Page() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = Number(params.get('code')) || undefined;
  const [carId, setCarId] = useState<number | undefined>(() => Number(params.get('carId')) || undefined);
  const [checked, setChecked] = useState<number[]>([]);
  const [range, setRange] = useState<TimeRangeValue>(initialRange);
  const [asked, setAsked] = useState<Asked | null>(null);

  const { cars, selectProps: carSelect } = useCarSearch('videoReplay2', code);
  const plateOf = (id: number) => cars.data?.list.find((c) => c.carId === id)?.plate ?? String(id);
  const chans = useQuery({ queryKey: ['videoReplay2', 'channels', carId], queryFn: () => carChannels(carId!), enabled: !!carId });
  const channelList = useMemo(() => channelsToShow(chans.data ?? []).filter((c) => c.enabled), [chans.data]);
  const nameOf = useCallback(
    (no: number) => {
      const c = channelList.find((x) => x.channelNo === no);
      return c?.name ? `${no} · ${c.name}` : t('replay.channel', { n: no });
    },
    [channelList, t],
  );
  // a car's channels come ticked (up to four): the usual wish is "all cameras of this car"
  useEffect(() => {
    if (chans.isSuccess) setChecked(channelList.slice(0, 4).map((c) => c.channelNo));
  }, [chans.isSuccess, channelList]);

  const list = useQuery({
    queryKey: ['videoReplay2', 'list', asked],
    queryFn: () => historyVideoByTime2(asked!.carId, asked!.channels, asked!.start, asked!.end),
    enabled: !!asked,
    retry: false,
    staleTime: Infinity,
  });
  const all = useMemo(() => spans(list.data ?? []), [list.data]);
  const byChannel = useMemo(() => {
    const m = new Map<number, Span[]>();
    for (const s of all) m.set(s.rec.channelNo, [...(m.get(s.rec.channelNo) ?? []), s]);
    return m;
  }, [all]);
  const from = asked ? parseServerTime(asked.start) : NaN;
  const to = asked ? parseServerTime(asked.end) : NaN;
  const lanes = useMemo(() => asked?.channels ?? [], [asked]);

  // the playbacks, one per channel, outside React; `bump` re-renders what they show
  const [, setTick] = useState(0);
  const bump = useCallback(() => setTick((n) => n + 1), []);
  const rts = useRef(new Map<number, ReplayChannel>());
  const rt = useCallback(
    (ch: number) => {
      let r = rts.current.get(ch);
      if (!r) {
        r = new ReplayChannel(ch, bump);
        rts.current.set(ch, r);
      }
      return r;
    },
    [bump],
  );
  const gen = useRef(0);
  const [speed, setSpeed] = useState(1);
  const speedRef = useRef(1);
  speedRef.current = speed;
  const [paused, setPaused] = useState(false);
  const pausedRef = useRef(false);
  pausedRef.current = paused;
  const [reference, setReference] = useState<number | null>(null);
  const [gap, setGap] = useState(0);
  const [seekTarget, setSeekTarget] = useState<number | null>(null);
  const active = lanes.some((ch) => rts.current.get(ch)?.info);

  const stopAll = useCallback(() => {
    gen.current++;
    for (const r of rts.current.values()) r.stop();
    setPaused(false);
    setReference(null);
    setGap(0);
    bump();
  }, [bump]);

  /** Asks the terminal to play channel ch from at to the end of the range, unless a newer command came meanwhile. */
  const startLane = useCallback(
    (q: Asked, ch: number, at: number, g: number) => {
      const r = rt(ch);
      if (startPoint(byChannel.get(ch) ?? [], at, parseServerTime(q.end)) === null) {
        r.state = 'none';
        return;
      }
      r.state = 'requesting';
      r.error = '';
      r.lastSeekAt = null;
      historyVideo(q.carId, ch, formatServerTime(at), q.end, false).then(
        (p) => {
          if (gen.current !== g) {
            void historyVideoControl(p.carId, p.token, 'stop', {}, false).catch(() => undefined); // a newer command came meanwhile
            return;
          }
          r.info = p;
          r.attach(speedRef.current);
        },
        (e: unknown) => {
          if (gen.current !== g) return;
          const reason = e instanceof BusinessError ? (e.envelope.data as { reason?: string } | null)?.reason : undefined;
          r.fail(reasonKey(reason), e instanceof Error ? e.message : '');
        },
      );
    },
    [byChannel, rt],
  );

  const playAll = useCallback(
    (at: number) => {
      if (!asked) return;
      stopAll();
      const g = gen.current;
      const start = startPoint(all, at, to);
      setSpeed(1);
      setSeekTarget(start);
      if (start === null) return;
      for (const ch of asked.channels) startLane(asked, ch, start, g);
      bump();
    },
    [asked, all, to, stopAll, startLane, bump],
  );

  const seekAll = useCallback(
    (at: number) => {
      if (!asked) return;
      const g = ++gen.current;
      setSeekTarget(at);
      setPaused(false);
      for (const ch of asked.channels) {
        const r = rt(ch);
        const alive = r.info && r.state !== 'failed' && r.state !== 'ended' && at >= parseServerTime(r.info.startTime) && at < parseServerTime(r.info.endTime);
        if (!alive) {
          r.stop();
          startLane(asked, ch, at, g);
          continue;
        }
        r.state = 'requesting';
        r.lastSeekAt = null;
        void r.control('seek', { position: at }).then((ok) => ok && gen.current === g && r.attach(speedRef.current));
      }
      bump();
    },
    [asked, rt, startLane, bump],
  );

  const pauseAll = useCallback(() => {
    setPaused(true);
    for (const r of rts.current.values()) {
      if (!r.info || (r.state !== 'playing' && r.state !== 'buffering')) continue;
      r.video?.pause();
      r.held = false;
      r.state = 'paused';
      void r.control('pause');
    }
    bump();
  }, [bump]);

  const resumeAll = useCallback(() => {
    setPaused(false);
    for (const r of rts.current.values()) {
      if (!r.info || r.state !== 'paused') continue;
      r.state = 'buffering'; // playing again once the picture moves
      void r.control('resume').then((ok) => ok && void r.video?.play().catch(() => undefined));
    }
    bump();
  }, [bump]);

  const changeSpeed = useCallback(
    (k: number) => {
      setSpeed(k);
      setPaused(false); // the terminal plays on at the new speed
      for (const r of rts.current.values()) {
        if (!r.info || r.state === 'failed' || r.state === 'ended') continue;
        if (r.video) r.video.playbackRate = k;
        if (r.state === 'paused') r.state = 'buffering';
        void r.control('speed', { speed: k }).then((ok) => ok && !r.held && void r.video?.play().catch(() => undefined));
      }
      bump();
    },
    [bump],
  );

  // the sync loop: read every tile, steer the ones out of step
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => {
      const now = performance.now();
      const tiles: SyncTile[] = [];
      for (const ch of lanes) {
        const r = rt(ch);
        r.notice();
        tiles.push({ key: ch, position: r.position(), running: !pausedRef.current && r.running(now), held: r.held, lastSeekAt: r.lastSeekAt });
      }
      const plan = syncPlan(tiles, speedRef.current, now);
      for (const [ch, a] of plan.actions) {
        const r = rt(ch);
        const v = r.video;
        if (!v) continue;
        if (a.kind === 'hold') {
          if (!r.held) v.pause();
          r.held = true;
        } else if (a.kind === 'run') {
          if (r.held) void v.play().catch(() => undefined);
          r.held = false;
          if (Math.abs(v.playbackRate - a.rate) > 0.001) v.playbackRate = a.rate;
        } else if (r.info && a.to < parseServerTime(r.info.endTime)) {
          const g = gen.current;
          r.lastSeekAt = now;
          r.state = 'requesting';
          void r.control('seek', { position: a.to }).then((ok) => ok && gen.current === g && r.attach(speedRef.current));
        }
      }
      const shown = tiles.map((x) => x.position).filter((p): p is number => p !== null);
      setReference(plan.reference ?? (shown.length ? Math.min(...shown) : null));
      setGap(spread(tiles));
      bump();
    }, SYNC_EVERY_MS);
    return () => clearInterval(id);
  }, [active, lanes, rt, bump]);

  // leaving the page stops every playback on the terminal
  useEffect(() => () => stopAll(), [stopAll]);

  const track = useQuery({
    queryKey: ['videoReplay2', 'track', asked?.carId, asked?.start, asked?.end],
    queryFn: () => fetchTrack(asked!.carId, asked!.start, asked!.end),
    enabled: !!asked && all.length > 0,
  });
  const model = useMemo(() => (track.data ? toModel(track.data) : null), [track.data]);
  const pos = model && reference !== null ? positionAt(model.track, reference) : null;

  const canQuery = !!carId && checked.length > 0 && !!range.start && !!range.end;
  const query = () => {
    if (!canQuery) return;
    stopAll();
    setSeekTarget(null);
    setAsked({ carId: carId!, plate: plateOf(carId!), channels: [...checked].sort((a, b) => a - b), start: range.start, end: range.end });
  };

  const onTimeline = (e: React.MouseEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const at = timeAt((e.clientX - r.left) / r.width, from, to);
    if (active) seekAll(at);
    else playAll(at);
  };

  const save = (r: ReplayChannel) => {
    const clip = r.clip;
    if (!clip || !asked) return;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(clip.blob());
    a.download = clipName(asked.plate, r.channelNo, seekTarget ?? from);
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  };

  const listError = list.error instanceof BusinessError ? list.error : null;
  const offline = (listError?.envelope.data as { reason?: string } | null | undefined)?.reason === 'offline';
  const side = Math.max(1, Math.ceil(Math.sqrt(lanes.length)));
  const hasRecordings = list.isSuccess && all.length > 0;

  return (
    <div className="tw-replay tw-replay2">
      <header className="tw-replay-head">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/home')} aria-label={t('track.back')} />
        <h1>{t('menu.videoReplaying2')}</h1>
        <span className="tw-replay-grow" />
        <LanguageSwitch />
      </header>
      <div className="tw-replay-body">
        <aside className="tw-replay-side">
          <div className="tw-replay-form">
            <Select
              {...carSelect}
              value={carId}
              onChange={(v) => setCarId(v)}
              data-testid="r2-car"
            />
            <div className="tw-r2-channels" data-testid="r2-channels">
              <span className="tw-r2-label">{t('replay2.channels')}</span>
              {!carId ? (
                <span className="tw-replay-hint">{t('replay2.pickCarFirst')}</span>
              ) : chans.isPending ? (
                <Spin size="small" />
              ) : (
                <Checkbox.Group
                  value={checked}
                  onChange={(v) => setChecked((v as number[]).slice(0, MAX_CHANNELS))}
                  options={channelList.map((c) => ({
                    value: c.channelNo,
                    label: <span data-testid={`r2-ch-${c.channelNo}`}>{nameOf(c.channelNo)}</span>,
                    disabled: !checked.includes(c.channelNo) && checked.length >= MAX_CHANNELS,
                  }))}
                />
              )}
            </div>
            <TimeRangePicker showTime value={range} onChange={setRange} />
            <Button type="primary" icon={<SearchOutlined />} disabled={!canQuery} onClick={query} loading={list.isFetching} block data-testid="r2-query">
              {t('replay.query')}
            </Button>
          </div>
          <div className="tw-replay-list" data-testid="r2-summary">
            {!asked && <div className="tw-replay-hint">{t('replay2.hint')}</div>}
            {hasRecordings &&
              lanes.map((ch) => {
                const own = byChannel.get(ch) ?? [];
                return (
                  <div key={ch} className="tw-r2-sum" data-testid={`r2-sum-${ch}`}>
                    <span>{nameOf(ch)}</span>
                    <span className="tw-replay-hint">{own.length ? t('replay2.count', { n: own.length, size: sizeText(own.reduce((n, s) => n + s.rec.size, 0)) }) : t('replay2.noneHere')}</span>
                  </div>
                );
              })}
          </div>
        </aside>
        <main className="tw-replay-main">
          <div className="tw-replay-stage">
            {asked && hasRecordings ? (
              <div className="tw-r2-grid" data-testid="r2-grid" style={{ gridTemplateColumns: `repeat(${side}, 1fr)`, gridTemplateRows: `repeat(${Math.ceil(lanes.length / side)}, 1fr)` }}>
                {lanes.map((ch) => {
                  const r = rt(ch);
                  const p = r.position();
                  return (
                    <div key={ch} className="tw-r2-tile" data-testid={`r2-tile-${ch}`} data-state={r.state} data-position={p ?? ''} data-held={r.held ? '1' : ''}>
                      <video ref={(el) => void (r.video = el)} muted playsInline className="tw-replay-video" data-testid={`r2-video-${ch}`} />
                      <div className="tw-r2-bar">
                        <span className="tw-r2-name">{nameOf(ch)}</span>
                        <span className="tw-r2-time">{p !== null ? formatServerTime(p).slice(11) : ''}</span>
                        <Button
                          type="text"
                          size="small"
                          icon={<DownloadOutlined />}
                          disabled={!r.clip || r.clip.bytes === 0}
                          onClick={() => save(r)}
                          aria-label={t('replay2.saveTile', { name: nameOf(ch) })}
                          title={r.clip && r.clip.bytes > 0 ? `${t('replay.save')} (${sizeText(r.clip.bytes)})` : t('replay.save')}
                          data-testid={`r2-save-${ch}`}
                        />
                      </div>
                      {r.state !== 'playing' && r.state !== 'paused' && (
                        <div className="tw-replay-status" data-testid={`r2-status-${ch}`}>
                          {r.state === 'idle' && t('replay2.ready')}
                          {r.state === 'none' && t('replay2.noneHere')}
                          {(r.state === 'requesting' || r.state === 'buffering') && (
                            <>
                              <Spin size="small" /> {t(r.state === 'requesting' ? 'replay.requesting' : 'videoLive.status.buffering')}
                            </>
                          )}
                          {r.state === 'ended' && t('replay.ended')}
                          {r.state === 'failed' && <span className="tw-replay-error">{r.errorText || t(`videoLive.reason.${r.error}`)}</span>}
                        </div>
                      )}
                      {r.held && r.state === 'playing' && <span className="tw-r2-held">{t('replay2.waiting')}</span>}
                    </div>
                  );
                })}
              </div>
            ) : (
              <div className="tw-replay-status" data-testid="r2-state">
                {!asked && t('replay2.stage')}
                {asked && list.isFetching && (
                  <>
                    <Spin /> {t('replay2.listing')}
                  </>
                )}
                {asked && !list.isFetching && list.isSuccess && all.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span className="tw-r2-empty">{t('replay2.none')}</span>} />}
                {asked && !list.isFetching && list.isError && (offline ? (
                  <span className="tw-replay-error" data-testid="r2-offline">
                    <DisconnectOutlined /> {t('replay2.offline', { plate: asked.plate })}
                  </span>
                ) : (
                  <Alert type="error" showIcon message={(list.error as Error).message} />
                ))}
              </div>
            )}
            {hasRecordings && (
              <div className="tw-replay-map">
                <TrackMap model={model} pos={pos} />
              </div>
            )}
          </div>
          <div className="tw-replay-bar">
            <div className="tw-replay-controls">
              <Button type="primary" icon={<PlayCircleOutlined />} disabled={!hasRecordings} onClick={() => playAll(from)} data-testid="r2-play">
                {t('replay2.playAll')}
              </Button>
              <Button
                icon={paused ? <CaretRightOutlined /> : <PauseOutlined />}
                disabled={!active}
                onClick={paused ? resumeAll : pauseAll}
                data-testid="r2-pause"
              >
                {t(paused ? 'replay2.resumeAll' : 'replay2.pauseAll')}
              </Button>
              <Button icon={<StopOutlined />} disabled={!active} onClick={stopAll} data-testid="r2-stop">
                {t('replay2.stopAll')}
              </Button>
              <span className="tw-replay-label">{t('replay.speed')}</span>
              <Segmented
                size="small"
                value={speed}
                disabled={!active}
                options={SPEEDS.map((k) => ({ value: k, label: `${k}×` }))}
                onChange={(k) => changeSpeed(Number(k))}
                data-testid="r2-speed"
              />
              {active && (
                <span className="tw-replay-label" data-testid="r2-gap" data-ms={gap}>
                  {t('replay2.gap', { s: (gap / 1000).toFixed(1) })}
                </span>
              )}
              <span className="tw-replay-pos" data-testid="r2-position" data-ms={reference ?? ''}>
                {reference !== null ? formatServerTime(reference) : '—'}
              </span>
            </div>
            {asked && hasRecordings && Number.isFinite(from) && Number.isFinite(to) && (
              <div className="tw-r2-timeline" onClick={onTimeline} data-testid="r2-timeline" data-from={from} data-to={to} data-seek={seekTarget ?? ''} title={t('replay.timelineHint')}>
                {lanes.map((ch) => (
                  <div key={ch} className="tw-r2-lane" data-testid={`r2-lane-${ch}`}>
                    <span className="tw-r2-lane-name">{ch}</span>
                    {(byChannel.get(ch) ?? []).map((s) => {
                      const pl = place(s, from, to);
                      return pl && <span key={s.start} className="tw-replay-seg" style={{ left: `${pl.left}%`, width: `${pl.width}%` }} />;
                    })}
                  </div>
                ))}
                {reference !== null && reference >= from && reference <= to && <span className="tw-replay-cursor" style={{ left: `${((reference - from) / (to - from)) * 100}%` }} />}
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
