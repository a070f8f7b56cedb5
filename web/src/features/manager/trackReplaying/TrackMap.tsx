import L from 'leaflet';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, Marker, Polyline, Tooltip, useMap } from 'react-leaflet';
import { MapView, fitMapTo, useTileSource } from '../../../components/map/MapView';
import { toMapLatLng, type MapLatLng } from '../../../lib/mapCoords';
import { formatServerTime, type Position } from '../../../lib/playback';
import type { TrackModel } from './model';

/** One canvas for the route, however long: SVG paths with 100,000 points would not stay smooth. */
const canvas = L.canvas({ padding: 0.5 });

/** The played part of the route is redrawn at most this many times over the whole track. */
const PLAYED_STEPS = 400;

function vehicleIcon(direction: number): L.DivIcon {
  return L.divIcon({
    className: 'tw-track-vehicle',
    iconSize: [30, 30],
    iconAnchor: [15, 15],
    html: `<svg viewBox="0 0 30 30" width="30" height="30" style="transform: rotate(${direction}deg)"><circle cx="15" cy="15" r="13" fill="#1677ff" fill-opacity=".18"/><path d="M15 4 L23 24 L15 19 L7 24 Z" fill="#1677ff" stroke="#fff" stroke-width="1.5"/></svg>`,
  });
}

function Layers({ model, pos }: { model: TrackModel; pos: Position | null }) {
  const { t } = useTranslation();
  const map = useMap();
  const source = useTileSource();
  const route = useMemo(() => {
    const out: MapLatLng[] = [];
    for (const p of model.track.points) {
      const m = toMapLatLng(p.lng, p.lat, source);
      if (m) out.push(m);
    }
    return out;
  }, [model, source]);
  const step = Math.max(1, Math.floor(route.length / PLAYED_STEPS));
  const playedTo = pos ? Math.min(route.length, Math.floor((pos.index + 1) / step) * step + 1) : 0;
  const played = useMemo(() => route.slice(0, playedTo), [route, playedTo]);

  // a new track: show all of it
  useEffect(() => {
    fitMapTo(map, route);
  }, [map, route]);

  // keep the vehicle in view while it plays
  const here = pos ? toMapLatLng(pos.lng, pos.lat, source) : null;
  const direction = pos?.direction ?? 0;
  const icon = useMemo(() => vehicleIcon(direction), [direction]);
  useEffect(() => {
    if (here && !map.getBounds().pad(-0.1).contains(here)) map.panTo(here, { animate: false });
  }, [map, here]);

  const start = route[0];
  const end = route[route.length - 1];
  return (
    <>
      <Polyline positions={route} pathOptions={{ color: '#94a3b8', weight: 5, opacity: 0.9, renderer: canvas }} />
      {played.length > 1 && <Polyline positions={played} pathOptions={{ color: '#1677ff', weight: 5, renderer: canvas }} />}
      {model.events.map((e, i) => {
        const p = toMapLatLng(e.lng, e.lat, source);
        if (!p) return null;
        return (
          <CircleMarker
            key={`${e.kind}-${i}`}
            center={p}
            radius={e.kind === 'stop' ? 7 : 6}
            pathOptions={{ color: '#fff', weight: 2, fillColor: e.kind === 'stop' ? '#d97706' : '#dc2626', fillOpacity: 1, renderer: canvas }}
          >
            <Tooltip>
              {e.kind === 'stop' ? t('track.stopFor', { n: e.minutes }) : (e.names ?? []).join(t('common.listSeparator'))} · {formatServerTime(e.t)}
            </Tooltip>
          </CircleMarker>
        );
      })}
      {start && (
        <CircleMarker center={start} radius={8} pathOptions={{ color: '#fff', weight: 2, fillColor: '#16a34a', fillOpacity: 1, renderer: canvas }}>
          <Tooltip permanent direction="top" offset={[0, -8]}>
            {t('track.start')}
          </Tooltip>
        </CircleMarker>
      )}
      {end && route.length > 1 && (
        <CircleMarker center={end} radius={8} pathOptions={{ color: '#fff', weight: 2, fillColor: '#dc2626', fillOpacity: 1, renderer: canvas }}>
          <Tooltip permanent direction="top" offset={[0, -8]}>
            {t('track.end')}
          </Tooltip>
        </CircleMarker>
      )}
      {here && <Marker position={here} icon={icon} zIndexOffset={1000} title={model.plate} />}
    </>
  );
}

/** The track on the map: route, played part, stops and alarms, start and end, and the vehicle; `children`: more layers (historyWaybill's steps). */
export function TrackMap({ model, pos, children }: { model: TrackModel | null; pos: Position | null; children?: ReactNode }) {
  return (
    <MapView testId="track-map">
      {model && model.track.points.length > 0 && <Layers model={model} pos={pos} />}
      {children}
    </MapView>
  );
}
