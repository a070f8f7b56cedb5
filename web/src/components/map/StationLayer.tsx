import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useMap } from 'react-leaflet';
import { getAddress } from '../../api/geocode';
import type { MapStation } from '../../api/station';
import { useTileSource } from './MapView';
import { buildStationIndex, fenceShape, FENCE_MIN_ZOOM, stationIcon, visibleStations } from './stationIndex';

const PANE = 'tw-stations';
const FENCE_PANE = 'tw-fences';

function ensurePanes(map: L.Map) {
  // Under the vehicle canvas (z-index 450): stations are the background the cars move over.
  if (!map.getPane(FENCE_PANE)) map.createPane(FENCE_PANE).style.zIndex = '405';
  if (!map.getPane(PANE)) map.createPane(PANE).style.zIndex = '420';
}

const icons = {
  depot: L.divIcon({ className: 'tw-station-icon tw-station-depot', html: '<span><i></i></span>', iconSize: [24, 24], iconAnchor: [12, 12] }),
  station: L.divIcon({ className: 'tw-station-icon tw-station-other', html: '<span></span>', iconSize: [20, 20], iconAnchor: [10, 10] }),
};

/**
 * Stations on the map (spec §2 map view): markers clustered with a 60 px grid, the depot (yk) with its
 * own icon, fences as polygons or circles from zoom 12; a click opens a popup with name, type and address.
 */
export function StationLayer({ stations }: { stations: readonly MapStation[] }) {
  const map = useMap();
  const source = useTileSource();
  const { t } = useTranslation();
  const tRef = useRef(t);
  tRef.current = t;
  const idx = useMemo(() => buildStationIndex(stations, source), [stations, source]);

  useEffect(() => {
    ensurePanes(map);
    const markers = L.layerGroup([], { pane: PANE }).addTo(map);
    const fences = L.layerGroup([], { pane: FENCE_PANE }).addTo(map);
    const popup = (s: MapStation) => {
      const el = document.createElement('div');
      el.className = 'tw-station-popup';
      el.dataset.testid = 'station-popup';
      const name = el.appendChild(document.createElement('strong'));
      name.textContent = s.stationName;
      const type = el.appendChild(document.createElement('div'));
      type.textContent = `${tRef.current('stationLayer.type')}: ${tRef.current(`station.type.${s.stationType}`, { defaultValue: s.stationType })}`;
      const addr = el.appendChild(document.createElement('div'));
      const label = `${tRef.current('stationLayer.address')}: `;
      addr.textContent = label + (s.address || tRef.current('common.loading'));
      if (!s.address)
        getAddress(s.lng, s.lat)
          .then((a) => (addr.textContent = label + (a || '—')))
          .catch(() => (addr.textContent = label + '—'));
      return el;
    };
    const draw = () => {
      markers.clearLayers();
      fences.clearLayers();
      const b = map.getBounds();
      const zoom = map.getZoom();
      const items = visibleStations(idx, stations, [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], zoom);
      for (const it of items) {
        if (it.kind === 'cluster') {
          const m = L.marker(it.at, {
            pane: PANE,
            icon: L.divIcon({ className: 'tw-station-cluster', html: `<span>${it.count}</span>`, iconSize: [30, 30], iconAnchor: [15, 15] }),
            title: tRef.current('stationLayer.cluster', { n: it.count }),
          });
          m.on('click', () => map.setView(it.at, it.expansionZoom));
          markers.addLayer(m);
          continue;
        }
        const s = it.station;
        const m = L.marker(it.at, { pane: PANE, icon: icons[stationIcon(s.stationType)], title: s.stationName, alt: s.stationName });
        m.bindPopup(() => popup(s), { offset: [0, -6] });
        markers.addLayer(m);
        if (zoom >= FENCE_MIN_ZOOM) {
          const f = fenceShape(s, source);
          const style = { pane: FENCE_PANE, color: s.stationType === 'yk' ? '#d46b08' : '#1677ff', weight: 2, fillOpacity: 0.12, interactive: false };
          if (f?.kind === 'polygon') fences.addLayer(L.polygon(f.points, style));
          else if (f?.kind === 'circle') fences.addLayer(L.circle(f.center, { ...style, radius: f.radius }));
        }
      }
      map.getContainer().dataset.stations = String(items.length);
    };
    draw();
    map.on('moveend zoomend', draw);
    return () => {
      map.off('moveend zoomend', draw);
      markers.remove();
      fences.remove();
      delete map.getContainer().dataset.stations;
    };
  }, [map, idx, stations, source]);
  return null;
}
