import L from 'leaflet';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, Marker, Polyline, Tooltip, useMap } from 'react-leaflet';
import { fitMapTo, useTileSource } from '../../../components/map/MapView';
import { boundsOf, toMapLatLng, type MapLatLng } from '../../../lib/mapCoords';
import type { WaybillCar, WaybillExhibition } from './api';
import { stateColor } from './model';

const canvas = L.canvas({ padding: 0.5 });

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A car: an arrow in its state's colour with a label "plate · state" (never colour alone). */
function carIcon(c: WaybillCar, stateText: string, selected: boolean, late: string): L.DivIcon {
  const color = stateColor(c.state);
  return L.divIcon({
    className: `tw-wbmap-car${selected ? ' selected' : ''}`,
    iconSize: [0, 0],
    iconAnchor: [0, 0],
    html:
      `<span class="tw-wbmap-arrow" style="--c:${color}"><svg viewBox="0 0 24 24" width="24" height="24" style="transform:rotate(${c.direction}deg)">` +
      `<path d="M12 2 L19 21 L12 16 L5 21 Z" fill="${color}" stroke="#fff" stroke-width="1.5"/></svg></span>` +
      `<span class="tw-wbmap-label" style="--c:${color}"><b>${esc(c.plate)}</b><i>${esc(stateText)}</i>${late ? `<em>${esc(late)}</em>` : ''}</span>`,
  });
}

export function CarMarkers({ cars, selectedId, onSelect }: { cars: readonly WaybillCar[]; selectedId: number | null; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  const source = useTileSource();
  return (
    <>
      {cars.map((c) => {
        const p = toMapLatLng(c.lng, c.lat, source);
        if (!p) return null;
        return (
          <Marker
            key={c.carId}
            position={p}
            icon={carIcon(c, t(`waybillCommon.state.${c.state}`), c.carId === selectedId, c.late ? t('monitoringWaybill.late') : '')}
            zIndexOffset={c.carId === selectedId ? 1000 : 0}
            title={`${c.plate} ${c.waybillNo}`}
            eventHandlers={{ click: () => onSelect(c.carId) }}
          />
        );
      })}
    </>
  );
}

/** Fits the cars once when they first arrive. */
export function FitOnce({ cars }: { cars: readonly WaybillCar[] }) {
  const map = useMap();
  const source = useTileSource();
  const done = useMemo(() => ({ v: false }), []);
  useEffect(() => {
    if (done.v) return;
    const pts = cars.map((c) => toMapLatLng(c.lng, c.lat, source)).filter((p): p is MapLatLng => !!p);
    if (pts.length) done.v = fitMapTo(map, pts, 12);
  }, [cars, map, source, done]);
  return null;
}

/** The selected waybill's route (depot → destinations, straight legs), its stations and the track since departure. */
export function RouteLayer({ ex, fit }: { ex: WaybillExhibition; fit: boolean }) {
  const { t } = useTranslation();
  const map = useMap();
  const source = useTileSource();
  const stops = useMemo(() => [ex.depot, ...ex.destinations].map((s) => ({ s, p: toMapLatLng(s.lng, s.lat, source) })), [ex, source]);
  const route = stops.map((x) => x.p).filter((p): p is MapLatLng => !!p);
  const track = useMemo(() => ex.track.map((p) => toMapLatLng(p.lng, p.lat, source)).filter((p): p is MapLatLng => !!p), [ex.track, source]);
  const key = ex.waybillId;
  const here = toMapLatLng(ex.lng, ex.lat, source);
  useEffect(() => {
    // the card covers the right of the map: keep the route clear of it
    const b = fit ? boundsOf([...route, ...track, ...(here ? [here] : [])]) : null;
    if (b) map.fitBounds(b, { maxZoom: 13, paddingTopLeft: [48, 48], paddingBottomRight: [400, 48] });
    // once per waybill
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, map]);
  return (
    <>
      <Polyline positions={route} pathOptions={{ color: '#0f172a', weight: 3, dashArray: '8 8', opacity: 0.7, renderer: canvas }} />
      {track.length > 1 && <Polyline positions={track} pathOptions={{ color: stateColor(ex.state), weight: 5, opacity: 0.9, renderer: canvas }} />}
      {stops.map(({ s, p }) =>
        p ? (
          <CircleMarker
            key={`${s.seq}-${s.stationId}`}
            center={p}
            radius={9}
            pathOptions={{ color: '#fff', weight: 2, fillColor: s.seq === 0 ? '#0f172a' : s.state > 0 ? '#16a34a' : '#dc2626', fillOpacity: 1, renderer: canvas }}
          >
            <Tooltip permanent direction="top" offset={[0, -9]} className="tw-wbmap-stop">
              {s.seq === 0 ? t('monitoringWaybill.depot') : t('monitoringWaybill.destN', { n: s.seq })} · {s.name}
            </Tooltip>
          </CircleMarker>
        ) : null,
      )}
    </>
  );
}
