import { CircleMarker, Tooltip } from 'react-leaflet';
import { MAP_ZOOM, MapView, useTileSource } from '../../../components/map/MapView';
import { toMapLatLng } from '../../../lib/mapCoords';

function Position({ lng, lat, label }: { lng: number; lat: number; label: string }) {
  const at = toMapLatLng(lng, lat, useTileSource());
  if (!at) return null;
  return (
    <CircleMarker center={at} radius={9} pathOptions={{ color: '#fff', weight: 2, fillColor: '#dc2626', fillOpacity: 1 }}>
      <Tooltip permanent direction="top" offset={[0, -10]}>
        {label}
      </Tooltip>
    </CircleMarker>
  );
}

/** The vehicle's position when it asked for help (loaded only when the view opens: Leaflet is big). */
export default function HelpMap({ lng, lat, label }: { lng: number; lat: number; label: string }) {
  return (
    <MapView center={[lng, lat]} zoom={MAP_ZOOM} testId="help-map" style={{ height: 260 }}>
      <Position lng={lng} lat={lat} label={label} />
    </MapView>
  );
}
