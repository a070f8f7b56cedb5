import { ArrowLeftOutlined, FullscreenExitOutlined, FullscreenOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Tooltip } from 'antd';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { handleInvalidToken } from '../../../api/client';
import { cockpitSummary, type ActiveTruck, type CockpitAlarm, type CockpitSummary, type GroundTank, type TruckState } from '../../../api/levelCockpit';
import { LiveStream, liveUrl, type LiveState } from '../../../api/liveStream';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { STORAGE, useAppStore } from '../../../app/store';
import { themeOf } from '../../../app/theme';
import { countCardTarget, menuHasCode, MONITORING_CODE } from '../../../lib/cockpit';
import { zoneNow } from '../../../lib/zone';
import { BandChart } from './BandChart';
import {
  BAND_COLORS,
  BANDS,
  LIVE_DEBOUNCE_MS,
  REFRESH_MS,
  TRUCK_COLORS,
  TRUCK_TILES,
  bandSeries,
  carsQuery,
  debounce,
  formatDays,
  formatPct,
  formatVolume,
  isStale,
  pctOf,
  tankBand,
  tickerRows,
} from './logic';
import './cockpit.css';

/** The base font size of the wall in px: 16 at 1920×1080, 12 at 1440×900, 32 at 3840×2160. */
function useBasePx(): number {
  const calc = () => Math.max(11, Math.min(window.innerWidth / 120, window.innerHeight / 66));
  const [px, setPx] = useState(calc);
  useEffect(() => {
    const on = () => setPx(calc());
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return px;
}

function useClock(): string {
  const [now, setNow] = useState(() => zoneNow());
  useEffect(() => {
    const id = setInterval(() => setNow(zoneNow()), 1000);
    return () => clearInterval(id);
  }, []);
  return now.format('YYYY-MM-DD HH:mm:ss');
}

/** The live stream of the scope's cars: each change (debounced) reads the summary again. */
function useLiveRefresh(refetch: () => void): LiveState {
  const lang = useAppStore((s) => s.lang);
  const [state, setState] = useState<LiveState>('idle');
  const refetchRef = useRef(refetch);
  refetchRef.current = refetch;
  useEffect(() => {
    const d = debounce(() => refetchRef.current(), LIVE_DEBOUNCE_MS, LIVE_DEBOUNCE_MS * 3);
    const stream = new LiveStream({
      url: () => liveUrl(localStorage.getItem(STORAGE.token) ?? '', lang),
      onMessage: (m) => {
        if (m.type === 'delta' && m.cars.length > 0) d.poke();
      },
      onState: setState,
      onUnauthorized: handleInvalidToken,
    });
    stream.start();
    stream.select({ all: true, carIds: [] });
    return () => {
      d.cancel();
      stream.stop();
    };
  }, [lang]);
  return state;
}

function useFullscreen(): [boolean, () => void] {
  const [on, setOn] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const f = () => setOn(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', f);
    return () => document.removeEventListener('fullscreenchange', f);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return [on, toggle];
}

/** Whether the element's content is taller than the element (so a ticker should roll). */
function useOverflow(dep: unknown): [React.RefObject<HTMLDivElement | null>, React.RefObject<HTMLDivElement | null>, boolean] {
  const box = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [over, setOver] = useState(false);
  useLayoutEffect(() => {
    const check = () => {
      const b = box.current;
      const i = inner.current;
      if (!b || !i) return;
      // measured on one copy of the rows: the doubled list is twice as tall
      const h = over ? i.scrollHeight / 2 : i.scrollHeight;
      setOver(h > b.clientHeight + 1);
    };
    check();
    const ro = new ResizeObserver(check);
    if (box.current) ro.observe(box.current);
    return () => ro.disconnect();
  }, [dep, over]);
  return [box, inner, over];
}

function Volume({ litres, className }: { litres: number; className?: string }) {
  const { t, i18n } = useTranslation();
  const v = formatVolume(litres, i18n.language);
  return (
    <span className={className}>
      {v.value}
      <small className="lc-unit">{t(`levelCockpit.unit.${v.unit}`)}</small>
    </span>
  );
}

function Panel({ title, extra, children, className, testId }: { title: string; extra?: ReactNode; children: ReactNode; className?: string; testId?: string }) {
  return (
    <section className={`lc-panel ${className ?? ''}`} data-testid={testId}>
      <header className="lc-panel-head">
        <h2>{title}</h2>
        {extra && <span className="lc-panel-extra">{extra}</span>}
      </header>
      <div className="lc-panel-body">{children}</div>
    </section>
  );
}

function TruckTiles({ data, onOpen, mayOpen }: { data?: CockpitSummary; onOpen: (s: TruckState) => void; mayOpen: boolean }) {
  const { t, i18n } = useTranslation();
  const total = data?.trucks.total ?? 0;
  return (
    <>
      {TRUCK_TILES.map((s) => {
        const n = data?.trucks.counts[s];
        const clickable = mayOpen && !!n;
        return (
          <button
            key={s}
            type="button"
            className={`lc-tile lc-tile-${s}${clickable ? ' lc-clickable' : ''}`}
            style={{ ['--tile' as string]: TRUCK_COLORS[s] }}
            data-testid={`lc-tile-${s}`}
            data-count={n ?? ''}
            disabled={!clickable}
            title={clickable ? t('levelCockpit.openInMonitoring') : undefined}
            onClick={() => onOpen(s)}
          >
            <span className="lc-tile-label">{t(`levelCockpit.truck.${s}`)}</span>
            <span className="lc-tile-value">{n === undefined ? '—' : n.toLocaleString(i18n.language)}</span>
            <span className="lc-tile-foot">
              {n === undefined ? '' : t('levelCockpit.ofTrucks', { pct: pctOf(n, total), total: total.toLocaleString(i18n.language) })}
            </span>
          </button>
        );
      })}
    </>
  );
}

function VolumeTile({ data }: { data?: CockpitSummary }) {
  const { t, i18n } = useTranslation();
  const c = data?.compartments;
  return (
    <div className="lc-tile lc-tile-volume" data-testid="lc-volume" data-volume={c?.volume ?? ''}>
      <span className="lc-tile-label">{t('levelCockpit.totalVolume')}</span>
      {c ? <Volume litres={c.volume} className="lc-tile-value" /> : <span className="lc-tile-value">—</span>}
      <span className="lc-tile-foot">
        {c ? (
          <>
            {t('levelCockpit.v20')} <Volume litres={c.v20} className="lc-strong" />
            {c.capacity > 0 && <> · {t('levelCockpit.ofCapacity', { pct: pctOf(c.volume, c.capacity) })}</>}
          </>
        ) : (
          ''
        )}
      </span>
      {c && c.stale > 0 && <span className="lc-note">{t('levelCockpit.staleCompartments', { n: c.stale.toLocaleString(i18n.language) })}</span>}
    </div>
  );
}

function CompartmentsPanel({ data, basePx }: { data?: CockpitSummary; basePx: number }) {
  const { t, i18n } = useTranslation();
  const c = data?.compartments;
  const bars = useMemo(
    () => bandSeries(c?.bands).map((b) => ({ label: t(`levelCockpit.band.${b.band}`), count: b.count, color: BAND_COLORS[b.band] })),
    [c?.bands, t],
  );
  return (
    <Panel
      title={t('levelCockpit.compartments')}
      testId="lc-compartments"
      extra={c ? t('levelCockpit.compartmentsOf', { n: c.total.toLocaleString(i18n.language), cars: c.cars.toLocaleString(i18n.language) }) : undefined}
    >
      {c && c.total === 0 ? (
        <div className="lc-empty">{t('levelCockpit.noReadings')}</div>
      ) : (
        <BandChart bars={bars} fontSize={basePx} testId="lc-band-chart" />
      )}
      {c && c.total > c.known && <div className="lc-note">{t('levelCockpit.unknownCapacity', { n: (c.total - c.known).toLocaleString(i18n.language) })}</div>}
    </Panel>
  );
}

function TankRow({ tank }: { tank: GroundTank }) {
  const { t, i18n } = useTranslation();
  const band = tankBand(tank);
  const days = formatDays(tank.daysOfCover, i18n.language);
  const pct = Math.max(0, Math.min(100, tank.fillPct));
  const low = tank.lowStock || tank.lowCover;
  return (
    <div className={`lc-tank${low ? ' lc-tank-low' : ''}`} data-testid="lc-tank">
      <div className="lc-tank-name">
        <span className="lc-ellipsis">{tank.stationName}</span>
        <span className="lc-dim">{tank.name || t('levelCockpit.tankNo', { n: tank.tankNo })}</span>
      </div>
      <div className="lc-bar" role="img" aria-label={t('levelCockpit.fillAria', { pct: formatPct(tank.fillPct) })}>
        {tank.at > 0 && <div className="lc-bar-fill" style={{ width: `${pct}%`, background: BAND_COLORS[band] }} />}
      </div>
      <div className="lc-tank-figs">
        <span className="lc-strong">{tank.at > 0 ? `${formatPct(tank.fillPct)}%` : t('levelCockpit.noReading')}</span>
        <span>{days === null ? t('levelCockpit.coverUnknown') : t('levelCockpit.days', { n: days })}</span>
      </div>
      <div className="lc-tank-flags">
        {tank.lowStock && <span className="lc-flag lc-flag-red">{t('levelCockpit.lowStock')}</span>}
        {tank.lowCover && <span className="lc-flag lc-flag-amber">{t('levelCockpit.lowCover')}</span>}
        {tank.gaugeState !== 'online' && tank.gaugeState !== 'none' && <span className="lc-flag lc-flag-grey">{t(`levelCockpit.gauge.${tank.gaugeState}`)}</span>}
      </div>
    </div>
  );
}

function Ticker<T>({ rows, render, rowKey, testId, empty }: { rows: T[]; render: (r: T) => ReactNode; rowKey: (r: T, i: number) => string; testId: string; empty: string }) {
  const [box, inner, over] = useOverflow(rows);
  const shown = tickerRows(rows, over);
  return (
    <div className={`lc-ticker${over ? ' lc-rolling' : ''}`} ref={box} data-testid={testId}>
      {rows.length === 0 ? (
        <div className="lc-empty">{empty}</div>
      ) : (
        <div className="lc-ticker-inner" ref={inner} style={over ? { animationDuration: `${Math.max(20, rows.length * 3)}s` } : undefined}>
          {shown.map((r, i) => (
            <div key={rowKey(r, i)} aria-hidden={i >= rows.length ? true : undefined}>
              {render(r)}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function StationTanksPanel({ data }: { data?: CockpitSummary }) {
  const { t, i18n } = useTranslation();
  const g = data?.stationTanks;
  const extra = g?.available ? (
    <>
      {t('levelCockpit.tanksTotal', { n: g.total.toLocaleString(i18n.language) })}
      {' · '}
      {t('levelCockpit.gaugeCounts', { online: g.gauges.online ?? 0, offline: g.gauges.offline ?? 0, garbage: g.gauges.garbage ?? 0 })}
    </>
  ) : undefined;
  return (
    <Panel title={t('levelCockpit.stationTanks')} extra={extra} testId="lc-station-tanks" className="lc-tanks-panel">
      {!g ? null : !g.available ? (
        <div className="lc-empty" data-testid="lc-no-tanks">
          <strong>{t('levelCockpit.noTankData')}</strong>
          <span>{t('levelCockpit.noTankDataHint')}</span>
        </div>
      ) : g.total === 0 ? (
        <div className="lc-empty">{t('levelCockpit.noTanks')}</div>
      ) : (
        <>
          <div className="lc-chips">
            {BANDS.map((b) => {
              const n = g.bands.find((x) => x.band === b)?.count ?? 0;
              return (
                <span key={b} className="lc-chip">
                  <i style={{ background: BAND_COLORS[b] }} />
                  {t(`levelCockpit.band.${b}`)} <b>{n}</b>
                </span>
              );
            })}
            <span className="lc-chip lc-chip-warn">
              {t('levelCockpit.lowStock')} <b>{g.lowStock}</b>
            </span>
            <span className="lc-chip lc-chip-warn">
              {t('levelCockpit.lowCover')} <b>{g.lowCover}</b>
            </span>
          </div>
          <Ticker rows={g.tanks} rowKey={(r, i) => `${r.tankId}-${i}`} render={(r) => <TankRow tank={r} />} testId="lc-tank-list" empty={t('levelCockpit.noTanks')} />
        </>
      )}
    </Panel>
  );
}

const LEVELS = ['', 'I', 'II', 'III', 'IV', 'V'];

function AlarmRow({ a }: { a: CockpitAlarm }) {
  const { t } = useTranslation();
  const time = a.time ? a.time.slice(5, 16) : '';
  const place = a.place || (a.located ? `${a.lng.toFixed(4)}, ${a.lat.toFixed(4)}` : t('levelCockpit.noPlace'));
  return (
    <div className={`lc-alarm lc-level-${a.level}`} data-testid="lc-alarm">
      <span className="lc-alarm-level">{t('levelCockpit.level', { n: LEVELS[a.level] ?? a.level })}</span>
      <span className="lc-alarm-main">
        <span className="lc-ellipsis">
          <b>{a.carNumber}</b> {a.typeName}
        </span>
        <span className="lc-dim lc-ellipsis">{place}</span>
      </span>
      <span className="lc-alarm-time">
        {time}
        <span className={a.state === 1 ? 'lc-dim' : 'lc-open'}>{t(`levelCockpit.alarmState.${a.state}`)}</span>
      </span>
    </div>
  );
}

function AlarmsPanel({ data }: { data?: CockpitSummary }) {
  const { t } = useTranslation();
  const a = data?.alarms;
  return (
    <Panel title={t('levelCockpit.alarms')} testId="lc-alarms" extra={a ? t('levelCockpit.alarmCounts', { open: a.open, recent: a.recent }) : undefined}>
      {a && <Ticker rows={a.list} rowKey={(r, i) => `${r.id}-${i}`} render={(r) => <AlarmRow a={r} />} testId="lc-alarm-list" empty={t('levelCockpit.noAlarms')} />}
    </Panel>
  );
}

function ActiveRow({ a }: { a: ActiveTruck }) {
  const { t, i18n } = useTranslation();
  const rate = a.rate === null ? null : Math.round(Math.abs(a.rate)).toLocaleString(i18n.language);
  return (
    <div className={`lc-active lc-active-${a.state}`} data-testid="lc-active">
      <span className="lc-active-state">{t(`levelCockpit.truck.${a.state}`)}</span>
      <b className="lc-ellipsis">{a.carNumber}</b>
      <span className="lc-ellipsis">{a.stationName || t('levelCockpit.stationHidden')}</span>
      <Volume litres={a.volume} className="lc-strong lc-right" />
      <span className="lc-dim lc-right">{rate === null ? t('levelCockpit.rateUnknown') : t('levelCockpit.rate', { n: rate })}</span>
    </div>
  );
}

function ActivePanel({ data }: { data?: CockpitSummary }) {
  const { t } = useTranslation();
  const list = data?.trucks.active ?? [];
  return (
    <Panel title={t('levelCockpit.active')} testId="lc-active-panel" extra={data ? t('levelCockpit.activeCount', { n: list.length }) : undefined}>
      {data && <Ticker rows={list} rowKey={(r, i) => `${r.carId}-${i}`} render={(r) => <ActiveRow a={r} />} testId="lc-active-list" empty={t('levelCockpit.noActive')} />}
    </Panel>
  );
}

/** The liquid-level cockpit (manager/cockpit, 04-04): a full-screen wall dashboard of the scope's levels. */
export default function LevelCockpitPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useAppStore((s) => s.session);
  const platform = useAppStore((s) => s.platform);
  const authMenu = useAppStore((s) => s.authMenu);
  const theme = themeOf(session?.theme ?? platform?.theme);
  const brand = session?.indexTitle || t(`theme.${theme}.title`);
  const scope = session?.groupName || session?.currentUserInfo?.groupName || '';
  const mayMonitor = menuHasCode(authMenu, MONITORING_CODE);
  const basePx = useBasePx();
  // antd's controls have pixel sizes: on a screen larger than 1920×1080 they grow with the wall
  const zoom = Math.max(1, basePx / 16);
  const clock = useClock();
  const [full, toggleFull] = useFullscreen();

  const q = useQuery({
    queryKey: ['levelCockpit', 'summary'],
    queryFn: () => cockpitSummary(),
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
  const live = useLiveRefresh(() => void q.refetch());
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 5000);
    return () => clearInterval(id);
  }, []);
  const data = q.data;
  const stale = isStale(q.dataUpdatedAt, now) || (q.isError && !!data);
  const connected = live === 'open';

  const open = (s: TruckState) => {
    const to = countCardTarget(location.pathname, '8', t(`levelCockpit.monitorTitle.${s}`), mayMonitor);
    const ids = data?.trucks.ids[s];
    if (to && ids?.length) navigate(to + carsQuery(ids));
  };

  useEffect(() => {
    document.title = `${t('menu.cockpit')} · ${brand}`;
  }, [t, brand]);

  return (
    <div className="lc-root" style={{ fontSize: basePx }} data-testid="level-cockpit">
      <header className="lc-header">
        <Link to="/home" className="lc-back" data-testid="lc-back" style={{ zoom }}>
          <Button type="text" size="small" icon={<ArrowLeftOutlined />} className="lc-btn">
            {t('levelCockpit.back')}
          </Button>
        </Link>
        <div className="lc-title">
          <h1 data-testid="lc-title">{t('menu.cockpit')}</h1>
          <span className="lc-brand">{brand}</span>
        </div>
        <div className="lc-scope" data-testid="lc-scope">
          {t('levelCockpit.scope')}
          <b>{scope}</b>
        </div>
        <div className="lc-status">
          <span className={`lc-live lc-live-${connected ? 'on' : 'off'}`} data-testid="lc-live" data-state={live}>
            <i />
            {connected ? t('levelCockpit.liveOn') : t(`levelCockpit.liveOff`)}
          </span>
          {data?.serverTime && <span className="lc-dim">{t('levelCockpit.updatedAt', { time: data.serverTime.slice(11) })}</span>}
        </div>
        <div className="lc-clock" data-testid="lc-clock">
          {clock}
        </div>
        <div className="lc-tools" style={{ zoom }}>
          <LanguageSwitch dark />
          <Tooltip title={full ? t('levelCockpit.exitFullscreen') : t('levelCockpit.fullscreen')}>
            <Button type="text" className="lc-btn" icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggleFull} data-testid="lc-fullscreen" aria-label={t('levelCockpit.fullscreen')} />
          </Tooltip>
        </div>
      </header>
      {stale && (
        <div className="lc-stale" role="alert" data-testid="lc-stale">
          {t('levelCockpit.stale', { time: data?.serverTime ?? '' })}
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void q.refetch()}>
            {t('levelCockpit.retry')}
          </Button>
        </div>
      )}
      {!data && q.isError ? (
        <div className="lc-failed" data-testid="lc-failed">
          <span>{t('levelCockpit.failed')}</span>
          <Button icon={<ReloadOutlined />} onClick={() => void q.refetch()}>
            {t('levelCockpit.retry')}
          </Button>
        </div>
      ) : (
        <main className={`lc-grid${data ? '' : ' lc-loading'}`} aria-busy={!data}>
          <div className="lc-tiles">
            <TruckTiles data={data} onOpen={open} mayOpen={mayMonitor} />
            <VolumeTile data={data} />
          </div>
          <CompartmentsPanel data={data} basePx={basePx} />
          <StationTanksPanel data={data} />
          <AlarmsPanel data={data} />
          <ActivePanel data={data} />
        </main>
      )}
    </div>
  );
}
