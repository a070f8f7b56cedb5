import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { CircleMarker } from 'react-leaflet';
import { positionAt } from '../../../api/trend';
import { MapView, MAP_ZOOM, useTileSource } from '../../../components/map/MapView';
import { formatServerTime } from '../../../lib/playback';
import { toMapLatLng } from '../../../lib/mapCoords';

function Here({ lng, lat }: { lng: number; lat: number }) {
  const p = toMapLatLng(lng, lat, useTileSource());
  if (!p) return null;
  return <CircleMarker center={p} radius={9} pathOptions={{ color: '#fff', weight: 3, fillColor: '#dc2626', fillOpacity: 1 }} className="tw-trend-here" />;
}

/** The car's position nearest a clicked moment: a small map with a marker, the fix time, speed and address. */
export function PositionCard({ carId, t }: { carId: number; t: number | null }) {
  const { t: tr } = useTranslation();
  const pos = useQuery({ queryKey: ['trend', 'positionAt', carId, t], queryFn: () => positionAt(carId, t!), enabled: t !== null });
  return (
    <Card size="small" title={tr('trend.position')} className="tw-trend-pos" data-testid="trend-position">
      {t === null && <div className="tw-trend-muted">{tr('trend.clickHint')}</div>}
      {t !== null && pos.isLoading && <Spin />}
      {t !== null && pos.isSuccess && !pos.data && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tr('trend.noPosition')} />}
      {t !== null && pos.data && (
        <>
          <MapView key={`${pos.data.t}`} center={[pos.data.lon, pos.data.lat]} zoom={MAP_ZOOM} style={{ height: 220 }} testId="trend-map">
            <Here lng={pos.data.lon} lat={pos.data.lat} />
          </MapView>
          <Descriptions size="small" column={1} style={{ marginTop: 8 }}>
            <Descriptions.Item label={tr('trend.posTime')}>{formatServerTime(pos.data.t)}</Descriptions.Item>
            <Descriptions.Item label={tr('trend.posSpeed')}>{pos.data.speed} km/h</Descriptions.Item>
            <Descriptions.Item label={tr('trend.posAddress')}>{pos.data.address || '—'}</Descriptions.Item>
          </Descriptions>
        </>
      )}
    </Card>
  );
}
