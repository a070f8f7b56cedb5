import 'leaflet/dist/leaflet.css';
import './map.css';
import L from 'leaflet';
import { Segmented } from 'antd';
import { createContext, useContext, useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { AttributionControl, MapContainer, TileLayer, useMap, ZoomControl } from 'react-leaflet';
import { mapLayerOf, usePrefs } from '../../app/prefs';
import { useAppStore } from '../../app/store';
import { boundsOf, tileSourceOf, toMapLatLng, type MapLatLng, type TileSource } from '../../lib/mapCoords';
import type { CoordValue } from '../../lib/coords';
import { Graticule } from './Graticule';
import { OfflineTileLayer } from './OfflineTileLayer';
import { useQuery } from '@tanstack/react-query';
import { systemPublic } from '../../api/settings';

/** Spec §9: map zoom 14 (zoom to a car), fit-view zoom 14 at most. */
export const MAP_ZOOM = 14;
export const FIT_MAX_ZOOM = 14;
/** Before anything is known: all of China (WGS-84 lng, lat). */
export const DEFAULT_CENTER: [number, number] = [104.5, 35.5];
export const DEFAULT_ZOOM = 4;

const GAODE_URL = 'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}';
/** Gaode's satellite imagery, and its roads and names drawn over it (transparent tiles). */
const GAODE_SATELLITE_URL = 'https://webst0{s}.is.autonavi.com/appmaptile?style=6&x={x}&y={y}&z={z}';
const GAODE_LABELS_URL = 'https://webst0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}';

/** The base layers a Gaode map offers. */
export type MapLayer = 'normal' | 'satellite';
const OSM_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

const LEAFLET_PREFIX = '<a href="https://leafletjs.com" target="_blank" rel="noreferrer">Leaflet</a>';

const TileSourceContext = createContext<TileSource>('none');

/** The tile source of the map around the calling layer (positions must be converted for it). */
export function useTileSource(): TileSource {
  return useContext(TileSourceContext);
}

/** The server's tile setting (platformInfo `mapTiles`); none until it is known. */
export function useServerTileSource(): TileSource {
  return tileSourceOf(useAppStore((s) => s.platform?.mapTiles));
}

/** Fits the map to points (already in the map's datum), at most zoom 14 (spec §9). */
export function fitMapTo(map: L.Map, points: readonly MapLatLng[], maxZoom = FIT_MAX_ZOOM): boolean {
  const b = boundsOf(points);
  if (!b) return false;
  if (points.length === 1) map.setView(points[0], maxZoom);
  else map.fitBounds(b, { maxZoom, padding: [48, 48] });
  return true;
}

/** Fits the map to server points (WGS-84) converted for the tile source. */
export function fitMapToCoords(map: L.Map, source: TileSource, coords: Iterable<{ lng: CoordValue; lat: CoordValue }>, maxZoom = FIT_MAX_ZOOM): boolean {
  const pts: MapLatLng[] = [];
  for (const c of coords) {
    const p = toMapLatLng(c.lng, c.lat, source);
    if (p) pts.push(p);
  }
  return fitMapTo(map, pts, maxZoom);
}

export interface MapViewProps {
  /** Initial centre, WGS-84 [lng, lat]. */
  center?: [number, number];
  zoom?: number;
  /** Tile source; default: the server's setting. */
  tiles?: TileSource;
  /** Layers (react-leaflet children; they read the tile source with useTileSource). */
  children?: ReactNode;
  /** Called once with the Leaflet map. */
  onMapReady?: (map: L.Map) => void;
  className?: string;
  style?: CSSProperties;
  testId?: string;
}

/** 标准 / 卫星: a Leaflet control under the zoom buttons (pages put their own tools top right), holding an antd switch. */
function LayerSwitch({ value, onChange }: { value: MapLayer; onChange: (v: MapLayer) => void }) {
  const map = useMap();
  const { t } = useTranslation();
  const [box, setBox] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const Ctl = L.Control.extend({
      onAdd: () => {
        const div = L.DomUtil.create('div', 'leaflet-control tw-map-layers');
        L.DomEvent.disableClickPropagation(div);
        L.DomEvent.disableScrollPropagation(div);
        return div;
      },
    });
    const ctl = new Ctl({ position: 'topleft' });
    ctl.addTo(map);
    setBox(ctl.getContainer() ?? null);
    return () => {
      ctl.remove();
      setBox(null);
    };
  }, [map]);
  if (!box) return null;
  return createPortal(
    <Segmented<MapLayer>
      size="small"
      data-testid="map-layer-switch"
      value={value}
      onChange={onChange}
      options={[
        { value: 'normal', label: t('map.layer.normal') },
        { value: 'satellite', label: t('map.layer.satellite') },
      ]}
    />,
    box,
  );
}

function Ready({ onMapReady }: { onMapReady?: (map: L.Map) => void }) {
  const map = useMap();
  useEffect(() => {
    onMapReady?.(map);
    // once per map
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map]);
  return null;
}

/**
 * A Leaflet map with the server's tile source: Gaode (GCJ-02, positions shifted with gcoord), OpenStreetMap,
 * or none (a neutral background with a degree grid, for offline installations). The grid is also under
 * the tiles, so a map whose tiles cannot load still shows where things are.
 */
export function MapView({ center = DEFAULT_CENTER, zoom = DEFAULT_ZOOM, tiles, children, onMapReady, className, style, testId = 'map' }: MapViewProps) {
  const server = useServerTileSource();
  const source = tiles ?? server;
  const { t, i18n } = useTranslation();
  const start = toMapLatLng(center[0], center[1], source) ?? [DEFAULT_CENTER[1], DEFAULT_CENTER[0]];
  // Tiles that never load (no network, blocked host): say so; the degree grid under them stays visible.
  const [tileState, setTileState] = useState({ loaded: 0, failed: 0 });
  useEffect(() => setTileState({ loaded: 0, failed: 0 }), [source]);
  const tileEvents = useMemo(
    () => ({
      tileload: () => setTileState((s) => (s.loaded ? s : { ...s, loaded: 1 })),
      tileerror: () => setTileState((s) => (s.failed >= 4 ? s : { ...s, failed: s.failed + 1 })),
    }),
    [],
  );
  const tilesFailed = source !== 'none' && tileState.loaded === 0 && tileState.failed >= 4;
  // Gaode maps offer satellite imagery: the first layer is the user's preference, then the map's own
  const preferred = mapLayerOf(usePrefs());
  const [chosenLayer, setLayer] = useState<MapLayer | null>(null);
  const layer = chosenLayer ?? preferred;
  return (
    <TileSourceContext.Provider value={source}>
      <div className={`tw-map tw-map-${source} ${className ?? ''}`} style={style} data-testid={testId} data-tiles={source} data-layer={source === 'gaode' ? layer : undefined}>
        <MapContainer center={start} zoom={zoom} minZoom={3} maxZoom={18} worldCopyJump zoomControl={false} attributionControl={false} style={{ height: '100%', width: '100%' }}>
          {/* Leaflet's own control titles are English; remounted per language (control options are fixed at creation) */}
          <ZoomControl key={i18n.language} zoomInTitle={t('map.zoomIn')} zoomOutTitle={t('map.zoomOut')} />
          {/* Leaflet's default prefix carries an English title ("A JavaScript library for interactive maps"); the name alone */}
          <AttributionControl prefix={LEAFLET_PREFIX} />
          <Graticule label={source === 'none' ? t('map.noTiles') : ''} />
          {source === 'gaode' && layer === 'normal' && (
            <TileLayer key="gaode" url={GAODE_URL} subdomains="1234" maxZoom={18} zIndex={2} attribution={`&copy; ${t('map.gaode')}`} eventHandlers={tileEvents} />
          )}
          {source === 'gaode' && layer === 'satellite' && (
            <TileLayer key="gaode-satellite" url={GAODE_SATELLITE_URL} subdomains="1234" maxZoom={18} zIndex={2} attribution={`&copy; ${t('map.gaode')}`} eventHandlers={tileEvents} />
          )}
          {source === 'gaode' && layer === 'satellite' && <TileLayer key="gaode-labels" url={GAODE_LABELS_URL} subdomains="1234" maxZoom={18} zIndex={3} />}
          {source === 'gaode' && <LayerSwitch value={layer} onChange={setLayer} />}
          {source === 'offline' && <OfflineTiles onLoad={tileEvents.tileload} onError={tileEvents.tileerror} label={t('settings.map.offline')} />}
          {source === 'osm' && (
            <TileLayer
              key="osm"
              url={OSM_URL}
              maxZoom={19}
              zIndex={2}
              attribution='&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noreferrer">OpenStreetMap</a>'
              eventHandlers={tileEvents}
            />
          )}
          <Ready onMapReady={onMapReady} />
          {children}
        </MapContainer>
        {tilesFailed && (
          <div className="tw-map-notice" data-testid="map-tiles-failed">
            {t('map.tilesFailed')}
          </div>
        )}
      </div>
    </TileSourceContext.Provider>
  );
}

/** The offline MBTiles layer with the file's zoom range (system/public), native tiles scaled beyond it. */
function OfflineTiles({ onLoad, onError, label }: { onLoad: () => void; onError: () => void; label: string }) {
  const q = useQuery({ queryKey: ['systemPublic'], queryFn: systemPublic, staleTime: 60_000 });
  const meta = q.data?.tiles;
  if (!meta) return null;
  return <OfflineTileLayer minZoom={meta.minZoom} maxZoom={meta.maxZoom} attribution={label} onLoad={onLoad} onError={onError} />;
}

export default MapView;
