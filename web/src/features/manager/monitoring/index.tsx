import { ExpandOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Spin, Tabs, Tooltip } from 'antd';
import type L from 'leaflet';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { groupCarTree, type GroupCarNode } from '../../../api/group';
import { findCarsId, type MapCar } from '../../../api/monitor';
import { MAP_ZOOM, MapView, fitMapToCoords, useServerTileSource } from '../../../components/map/MapView';
import { StationLayer } from '../../../components/map/StationLayer';
import { VehicleLayer } from '../../../components/map/VehicleLayer';
import { isValidCoords } from '../../../lib/coords';
import { toMapLatLng } from '../../../lib/mapCoords';
import { toCountCode, VEHICLE_PALETTE, type CountCode } from '../../../lib/vehicleColors';
import { CarDetailPanel } from './CarDetailPanel';
import { ChannelTreePanel } from './ChannelTreePanel';
import { MonitorHeader } from './MonitorHeader';
import { shownCarIds, useMonitorStore } from './store';
import { useLiveCars } from './useLiveCars';
import { StationToggle, useStationLayer } from './useStationLayer';
import { allCarIds } from './vehicleTree';
import { VehicleTreePanel } from './VehicleTreePanel';
import './monitoring.css';

export type MonitorMode = 'monitoring' | 'monitoring2' | 'monitoring-all';

export function modeOfPath(path: string): MonitorMode {
  if (path.endsWith('/monitoring2')) return 'monitoring2';
  if (path.endsWith('/monitoring-all')) return 'monitoring-all';
  return 'monitoring';
}

/** monitoring2's `cars` query: the car ids a cockpit tile opens (the liquid-level cockpit, D39). */
export function carsParam(value: string | null): number[] | null {
  if (!value) return null;
  const ids = value.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return ids.length ? ids : null;
}

/**
 * What is checked when a page opens: nothing; the cars of the count code (monitoring2), or the cars
 * listed in `cars` (monitoring2 opened from the liquid-level cockpit); everything.
 */
function useInitialChecks(mode: MonitorMode, code: CountCode | null, treeData: GroupCarNode[] | undefined, cars: number[] | null = null) {
  const setChecked = useMonitorStore((s) => s.setCheckedCars);
  const done = useRef('');
  const key = `${mode}:${code ?? ''}:${cars?.join(',') ?? ''}`;
  const wantsIds = mode === 'monitoring2' && code != null && code !== 8 && !cars;
  const ids = useQuery({ queryKey: ['monitor', 'findCarsId', code], queryFn: () => findCarsId({ code: code ?? undefined }), enabled: wantsIds, staleTime: 0 });
  useEffect(() => {
    if (done.current === key) return;
    if (mode === 'monitoring') {
      done.current = key;
    } else if (mode === 'monitoring2' && cars) {
      setChecked(cars);
      done.current = key;
    } else if (wantsIds) {
      if (ids.data) {
        setChecked(ids.data);
        done.current = key;
      }
    } else if (mode === 'monitoring-all' || code === 8) {
      if (treeData) {
        setChecked(allCarIds(treeData));
        done.current = key;
      }
    } else done.current = key;
  }, [key, mode, code, wantsIds, ids.data, treeData, setChecked, cars]);
}

function Legend() {
  const { t } = useTranslation();
  const items: [string, string][] = [
    ['moving', VEHICLE_PALETTE.moving],
    ['resting', VEHICLE_PALETTE.resting],
    ['offline', VEHICLE_PALETTE.offline],
    ['abnormal', VEHICLE_PALETTE.abnormal],
  ];
  return (
    <div className="tw-map-legend" data-testid="map-legend">
      {items.map(([k, c]) => (
        <span key={k}>
          <span className="tw-dot" style={{ background: c }} />
          {t(`monitor.status.${k}`)}
        </span>
      ))}
    </div>
  );
}

/** Real-time monitoring (monitoring, monitoring2 with ?code&title, monitoring-all): full screen. */
export default function MonitoringPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const mode = modeOfPath(location.pathname);
  const code = mode === 'monitoring2' ? toCountCode(params.get('code')) : null;
  const title = (mode === 'monitoring2' && params.get('title')) || t(`menu.${mode}`);
  const source = useServerTileSource();

  const reset = useMonitorStore((s) => s.reset);
  const resetView = useMonitorStore((s) => s.resetView);
  const setHeaderCode = useMonitorStore((s) => s.setHeaderCode);
  // Another of the three routes (or another code) keeps the page mounted: start its choices afresh,
  // keep the live data (the stream stays connected).
  useEffect(() => {
    resetView();
    setHeaderCode(code === 8 ? null : code);
  }, [mode, code, resetView, setHeaderCode]);
  useEffect(() => () => reset(), [reset]);

  const tree = useQuery({ queryKey: ['monitor', 'groupCarTree'], queryFn: () => groupCarTree(), staleTime: 30_000 });
  const { httpError, retry } = useLiveCars();
  const carsValue = mode === 'monitoring2' ? params.get('cars') : null;
  const pickedCars = useMemo(() => carsParam(carsValue), [carsValue]);
  useInitialChecks(mode, code, tree.data, pickedCars);

  const cars = useMonitorStore((s) => s.cars);
  const loaded = useMonitorStore((s) => s.loaded);
  const liveState = useMonitorStore((s) => s.liveState);
  const checked = useMonitorStore((s) => s.checkedCarIds);
  const detailCarId = useMonitorStore((s) => s.detailCarId);
  const follow = useMonitorStore((s) => s.follow);
  const selectCar = useMonitorStore((s) => s.selectCar);
  const checkCar = useMonitorStore((s) => s.checkCar);
  const setFollow = useMonitorStore((s) => s.setFollow);

  const searchedIds = useMonitorStore((s) => s.searchedCarIds);
  // a plate search in the tree narrows the map too: the operator looking for one truck sees that truck
  const shown = useMemo(() => {
    const out: MapCar[] = [];
    for (const id of shownCarIds(checked, searchedIds)) {
      const c = cars.get(id);
      if (c) out.push(c);
    }
    return out;
  }, [cars, checked, searchedIds]);
  const located = useMemo(() => shown.reduce((n, c) => n + (isValidCoords(c.lng, c.lat) ? 1 : 0), 0), [shown]);

  const [map, setMap] = useState<L.Map | null>(null);
  const stationLayer = useStationLayer();

  // Fit the checked cars when they first appear (again after everything was unchecked).
  const fitted = useRef(false);
  useEffect(() => {
    if (checked.size === 0) fitted.current = false;
    if (!map || fitted.current || located === 0) return;
    fitted.current = fitMapToCoords(map, source, shown);
  }, [map, source, shown, located, checked.size]);

  const fitAll = () => {
    if (map) fitMapToCoords(map, source, shown);
  };

  const zoomTo = useCallback(
    (car: MapCar | undefined) => {
      if (!map || !car) return;
      const p = toMapLatLng(car.lng, car.lat, source);
      if (p) map.setView(p, Math.max(map.getZoom(), MAP_ZOOM));
    },
    [map, source],
  );

  const pick = useCallback(
    (id: number) => {
      selectCar(id);
      checkCar(id, true);
      zoomTo(useMonitorStore.getState().cars.get(id));
    },
    [selectCar, checkCar, zoomTo],
  );

  // Follow: keep the selected car in the middle as it moves; dragging the map stops following.
  const selected = detailCarId != null ? cars.get(detailCarId) : undefined;
  useEffect(() => {
    if (!follow || !map || !selected) return;
    const p = toMapLatLng(selected.lng, selected.lat, source);
    if (p) map.panTo(p, { animate: true });
  }, [follow, map, source, selected?.lng, selected?.lat]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!map) return;
    const stop = () => useMonitorStore.getState().setFollow(false);
    map.on('dragstart', stop);
    return () => {
      map.off('dragstart', stop);
    };
  }, [map]);

  let overlay: React.ReactNode = null;
  if (!loaded && httpError && liveState !== 'open')
    overlay = (
      <Alert
        type="error"
        showIcon
        message={t('monitor.loadFailed')}
        action={
          <Button size="small" icon={<ReloadOutlined />} onClick={retry}>
            {t('common.refresh')}
          </Button>
        }
      />
    );
  else if (!loaded) overlay = <Spin tip={t('common.loading')} size="small"><span className="tw-spin-pad" /></Spin>;
  else if (checked.size === 0) overlay = <Alert type="info" showIcon message={t('monitor.checkToShow')} />;
  else if (located === 0) overlay = <Alert type="warning" showIcon message={t('monitor.noneLocated', { n: shown.length })} />;

  return (
    <div className="tw-monitor" data-testid="monitoring-page" data-mode={mode}>
      <MonitorHeader
        title={title}
        tools={
          <StationToggle
            shown={stationLayer.shown}
            onChange={stationLayer.setShown}
            count={stationLayer.stations.length}
            loading={stationLayer.loading}
            error={stationLayer.error}
          />
        }
      />
      <div className="tw-monitor-body">
        <aside className="tw-monitor-side">
          <Tabs
            key={`${mode}:${code ?? ''}`}
            size="small"
            className="tw-monitor-tabs"
            items={[
              {
                key: 'vehicles',
                label: t('monitor.tabVehicles'),
                children: <VehicleTreePanel source={tree.data} loading={tree.isPending} error={tree.isError} onRetry={() => void tree.refetch()} onPick={pick} />,
              },
              { key: 'channels', label: t('monitor.tabChannels'), children: <ChannelTreePanel source={tree.data} loading={tree.isPending} /> },
            ]}
          />
        </aside>
        <main className="tw-monitor-map">
          <MapView onMapReady={setMap} testId="monitor-map">
            {stationLayer.shown && <StationLayer stations={stationLayer.stations} />}
            <VehicleLayer cars={shown} selectedId={detailCarId} onSelect={pick} />
          </MapView>
          <div className="tw-map-toolbar">
            <span className="tw-map-count" data-testid="map-count">
              {t('monitor.onMap', { n: located, total: shown.length })}
            </span>
            <Tooltip title={t('monitor.fitAllHint')}>
              <Button size="small" icon={<ExpandOutlined />} onClick={fitAll} disabled={located === 0} data-testid="map-fit-all">
                {t('monitor.fitAll')}
              </Button>
            </Tooltip>
          </div>
          {overlay && <div className="tw-map-overlay" data-testid="map-overlay">{overlay}</div>}
          <Legend />
          {detailCarId != null && (
            <CarDetailPanel
              key={detailCarId}
              carId={detailCarId}
              live={selected}
              follow={follow}
              onFollow={(v) => {
                setFollow(v);
                if (v) zoomTo(selected);
              }}
              onLocate={() => zoomTo(selected)}
              onClose={() => {
                selectCar(null);
                setFollow(false);
              }}
            />
          )}
        </main>
      </div>
    </div>
  );
}
