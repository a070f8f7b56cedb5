import { ArrowLeftOutlined, CloseOutlined, ExpandOutlined, ReloadOutlined, WarningOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, Spin, Tag, Tooltip } from 'antd';
import type L from 'leaflet';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { MapView, fitMapToCoords, useServerTileSource } from '../../../components/map/MapView';
import { LiveIndicator } from '../monitoring/MonitorHeader';
import { useMonitorStore } from '../monitoring/store';
import { useLiveCars } from '../monitoring/useLiveCars';
import { ACTIVE_STATES, carExhibitionByWaybill, findCarsByWaybill, type WaybillCar, type WaybillExhibition } from './api';
import { countByState, etaClock, etaIn, stateColor, withLive } from './model';
import { CarMarkers, FitOnce, RouteLayer } from './WaybillMapLayers';
import '../monitoring/monitoring.css';
import './monitoringWaybill.css';

/** Waybill and ETA figures are re-read this often; positions move with the live stream in between. */
export const REFRESH_MS = 30_000;

function StateTag({ state }: { state: string }) {
  const { t } = useTranslation();
  return (
    <span className="tw-wbmap-state" style={{ ['--c' as string]: stateColor(state) }} data-state={state}>
      {t(`waybillCommon.state.${state}`)}
    </span>
  );
}

function Eta({ c, now }: { c: WaybillCar; now: number }) {
  const { t } = useTranslation();
  const e = etaIn(c.etaAt, now);
  if (c.nextSeq === 0) return <span className="tw-wbmap-eta muted">—</span>;
  if (!e) return <span className="tw-wbmap-eta muted">{t('monitoringWaybill.noPosition')}</span>;
  return (
    <span className="tw-wbmap-eta">
      {t(e.key, e.args)}
      <small>{etaClock(c.etaAt, now)}</small>
    </span>
  );
}

function Card({ ex, now, onClose }: { ex: WaybillExhibition; now: number; onClose: () => void }) {
  const { t } = useTranslation();
  const row = (k: string, v: React.ReactNode) => (
    <div className="tw-wbmap-kv">
      <span>{t(`monitoringWaybill.card.${k}`)}</span>
      <b>{v}</b>
    </div>
  );
  return (
    <section className="tw-wbmap-card" data-testid="wbmap-card" aria-label={t('monitoringWaybill.card.title')}>
      <header>
        <span className="tw-wbmap-card-title">
          {ex.plate} · {ex.waybillNo}
        </span>
        <Button type="text" size="small" icon={<CloseOutlined />} onClick={onClose} aria-label={t('common.close')} />
      </header>
      <div className="tw-wbmap-card-body">
        <div className="tw-wbmap-card-state">
          <StateTag state={ex.state} />
          {ex.late && (
            <Tag color="red" icon={<WarningOutlined />}>
              {t('monitoringWaybill.late')}
            </Tag>
          )}
        </div>
        {row('depot', ex.depot.name)}
        {row(
          'route',
          ex.destinations.map((d) => `${d.seq}. ${d.name}${d.state > 0 ? ` ✓` : ''}`).join(' → '),
        )}
        {row('next', ex.nextSeq ? ex.nextName : t('monitoringWaybill.atLast'))}
        {row('remaining', ex.nextKm == null ? '—' : t('monitoringWaybill.km', { v: ex.nextKm.toFixed(1) }) + (ex.finalKm != null && ex.finalKm !== ex.nextKm ? ` / ${t('monitoringWaybill.toLast', { v: ex.finalKm.toFixed(1) })}` : ''))}
        {ex.nextSeq > 0 && row('eta', <Eta c={ex} now={now} />)}
        {ex.finalEtaAt != null && ex.finalKm !== ex.nextKm && row('finalEta', etaClock(ex.finalEtaAt, now))}
        {ex.plannedArriveAt > 0 && row('planned', etaClock(ex.plannedArriveAt, now))}
        {row(
          'speed',
          ex.speedSource === 'trip'
            ? t('monitoringWaybill.speedTrip', { v: ex.avgKmh.toFixed(1), km: ex.movingKm.toFixed(1), min: Math.round(ex.movingMin) })
            : t('monitoringWaybill.speedDefault', { v: ex.avgKmh.toFixed(0) }),
        )}
        {row('track', ex.departAt ? t('monitoringWaybill.trackPoints', { n: ex.track.length }) : t('monitoringWaybill.notDeparted'))}
        <p className="tw-wbmap-note">{t('monitoringWaybill.etaNote')}</p>
        <Link to={`/manager/oilTransportProcess?waybillId=${ex.waybillId}`} data-testid="wbmap-timeline">
          {t('monitoringWaybill.timeline')}
        </Link>
      </div>
    </section>
  );
}

/** monitoring_waybill (04-42, full screen): the cars on active waybills, their state, route and ETA. */
export default function MonitoringWaybillPage() {
  const { t } = useTranslation();
  const source = useServerTileSource();
  const [stateFilter, setStateFilter] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);

  useLiveCars();
  const reset = useMonitorStore((s) => s.reset);
  useEffect(() => () => reset(), [reset]);
  const liveCars = useMonitorStore((s) => s.cars);

  const list = useQuery({ queryKey: ['wbmap', 'cars'], queryFn: () => findCarsByWaybill(), refetchInterval: REFRESH_MS, staleTime: 0 });
  const ex = useQuery({
    queryKey: ['wbmap', 'car', selected],
    queryFn: () => carExhibitionByWaybill(selected!),
    enabled: selected != null,
    refetchInterval: REFRESH_MS,
  });
  const now = list.data?.serverTime ?? Date.now();

  const all = useMemo(() => withLive(list.data?.list ?? [], liveCars), [list.data, liveCars]);
  const counts = useMemo(() => countByState(all), [all]);
  const q = search.trim().toUpperCase();
  const shown = useMemo(
    () => all.filter((c) => (!stateFilter || c.state === stateFilter) && (!q || c.plate.toUpperCase().includes(q) || c.waybillNo.toUpperCase().includes(q))),
    [all, stateFilter, q],
  );
  const lateCount = all.filter((c) => c.late).length;

  // the card's route layer frames car, depot, destinations and track when it arrives (a zoom started
  // here would still be animating then and swallow that fit)
  const pick = useCallback((id: number) => setSelected(id), []);

  return (
    <div className="tw-monitor tw-wbmap" data-testid="monitoring-waybill-page">
      <header className="tw-monitor-header">
        <Link to="/home" className="tw-monitor-back">
          <Button type="text" size="small" icon={<ArrowLeftOutlined />} className="tw-header-btn">
            {t('monitor.backToConsole')}
          </Button>
        </Link>
        <h1 className="tw-monitor-title">{t('monitoringWaybill.title')}</h1>
        <div className="tw-chips" role="group" aria-label={t('monitoringWaybill.filterState')} data-testid="wbmap-states">
          <button type="button" className={`tw-chip${stateFilter == null ? ' active' : ''}`} style={{ ['--tw-chip' as string]: '#334155' }} aria-pressed={stateFilter == null} onClick={() => setStateFilter(null)}>
            <span className="tw-chip-label">{t('monitoringWaybill.allStates')}</span>
            <span className="tw-chip-value">{all.length}</span>
          </button>
          {ACTIVE_STATES.map((s) => (
            <button
              key={s}
              type="button"
              className={`tw-chip${stateFilter === s ? ' active' : ''}`}
              style={{ ['--tw-chip' as string]: stateColor(s) }}
              aria-pressed={stateFilter === s}
              data-state={s}
              onClick={() => setStateFilter(stateFilter === s ? null : s)}
            >
              <span className="tw-chip-label">{t(`waybillCommon.state.${s}`)}</span>
              <span className="tw-chip-value">{counts[s] ?? 0}</span>
            </button>
          ))}
        </div>
        <span className="tw-monitor-tools">
          <LiveIndicator />
          <LanguageSwitch dark />
        </span>
      </header>
      <div className="tw-monitor-body">
        <aside className="tw-wbmap-side">
          <div className="tw-wbmap-side-head">
            <Input.Search allowClear placeholder={t('monitoringWaybill.search')} onChange={(e) => setSearch(e.target.value)} data-testid="wbmap-search" />
            <div className="tw-wbmap-summary">
              {t('monitoringWaybill.summary', { n: shown.length, total: all.length })}
              {lateCount > 0 && (
                <Tag color="red" icon={<WarningOutlined />}>
                  {t('monitoringWaybill.lateCount', { n: lateCount })}
                </Tag>
              )}
            </div>
          </div>
          <div className="tw-wbmap-list" role="list" data-testid="wbmap-list">
            {list.isPending && <Spin className="tw-wbmap-pad" />}
            {list.isError && (
              <Alert
                type="error"
                showIcon
                message={(list.error as Error).message || t('monitoringWaybill.loadFailed')}
                action={<Button size="small" icon={<ReloadOutlined />} onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
              />
            )}
            {list.isSuccess && shown.length === 0 && <Empty className="tw-wbmap-pad" description={all.length ? t('monitoringWaybill.noMatch') : t('monitoringWaybill.none')} />}
            {shown.map((c) => (
              <button
                key={c.carId}
                type="button"
                role="listitem"
                className={`tw-wbmap-row${c.carId === selected ? ' active' : ''}`}
                style={{ ['--c' as string]: stateColor(c.state) }}
                onClick={() => pick(c.carId)}
                data-testid="wbmap-row"
                data-waybill={c.waybillNo}
              >
                <span className="tw-wbmap-row-1">
                  <b>{c.plate}</b>
                  <StateTag state={c.state} />
                  {c.late && (
                    <Tag color="red" className="tw-wbmap-late" icon={<WarningOutlined />}>
                      {t('monitoringWaybill.late')}
                    </Tag>
                  )}
                </span>
                <span className="tw-wbmap-row-2">{c.waybillNo}</span>
                <span className="tw-wbmap-row-3">
                  <span className="tw-wbmap-next">
                    {c.nextSeq ? t('monitoringWaybill.nextTo', { name: c.nextName }) : t('monitoringWaybill.atLast')}
                    {c.nextKm != null && c.nextSeq > 0 && <small>{t('monitoringWaybill.km', { v: c.nextKm.toFixed(1) })}</small>}
                  </span>
                  <Eta c={c} now={now} />
                </span>
              </button>
            ))}
          </div>
        </aside>
        <main className="tw-monitor-map">
          <MapView onMapReady={setMap} testId="wbmap-map">
            <FitOnce cars={shown} />
            {ex.data && ex.data.carId === selected && <RouteLayer ex={ex.data} fit />}
            <CarMarkers cars={shown} selectedId={selected} onSelect={pick} />
          </MapView>
          <div className="tw-map-toolbar">
            <Tooltip title={t('monitor.fitAllHint')}>
              <Button size="small" icon={<ExpandOutlined />} onClick={() => map && fitMapToCoords(map, source, shown)} disabled={shown.length === 0}>
                {t('monitor.fitAll')}
              </Button>
            </Tooltip>
          </div>
          {selected != null && ex.isError && (
            <div className="tw-wbmap-card" data-testid="wbmap-card">
              <Alert type="warning" showIcon message={(ex.error as Error).message} closable onClose={() => setSelected(null)} />
            </div>
          )}
          {selected != null && ex.isPending && (
            <div className="tw-wbmap-card">
              <Spin className="tw-wbmap-pad" />
            </div>
          )}
          {ex.data && ex.data.carId === selected && <Card ex={ex.data} now={now} onClose={() => setSelected(null)} />}
        </main>
      </div>
    </div>
  );
}
