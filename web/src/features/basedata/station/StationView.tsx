import { Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Station } from '../../../api/station';
import { MapView } from '../../../components/map/MapView';
import { StationLayer } from '../../../components/map/StationLayer';
import { useResizeFix } from '../../../components/map/useResizeFix';
import { useMap } from 'react-leaflet';
import { FENCE_CIRCLE } from '../../../lib/fence';
import './station.css';

function ResizeFix() {
  useResizeFix(useMap());
  return null;
}

/** A station's details with its fence on the map. */
export function StationView({ station, onClose }: { station: Station; onClose: () => void }) {
  const { t } = useTranslation();
  const fence = station.fenceType === FENCE_CIRCLE ? `${station.fenceCenter}; ${station.raduis} ${t('station.metres')}` : station.fencePoints;
  return (
    <Modal open title={t('station.viewTitle')} width={860} footer={null} onCancel={onClose} destroyOnHidden>
      <Descriptions size="small" column={2} bordered data-testid="station-view">
        <Descriptions.Item label={t('station.stationName')}>{station.stationName}</Descriptions.Item>
        <Descriptions.Item label={t('station.stationType')}>{t(`station.type.${station.stationType}`, { defaultValue: station.stationType })}</Descriptions.Item>
        <Descriptions.Item label={t('station.group')}>{station.groupName}</Descriptions.Item>
        <Descriptions.Item label={t('station.fenceType')}>{t(`station.fenceKind.${station.fenceType}`)}</Descriptions.Item>
        <Descriptions.Item label={t('station.address')}>{station.address || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('station.contact')}>{[station.contact, station.phone].filter(Boolean).join(' ') || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('station.fence')} span={2}>
          <span className="tw-fence-text">{fence}</span>
        </Descriptions.Item>
      </Descriptions>
      <div className="tw-fence-map" style={{ marginTop: 12 }}>
        <MapView center={[station.lng, station.lat]} zoom={15} testId="station-view-map">
          <ResizeFix />
          <StationLayer stations={[station]} />
        </MapView>
      </div>
    </Modal>
  );
}
