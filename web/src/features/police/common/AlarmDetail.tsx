import { Descriptions, Modal, Typography } from 'antd';
import { CircleMarker } from 'react-leaflet';
import { useTranslation } from 'react-i18next';
import type { AlarmRecord } from '../../../api/alarm';
import { MapView, useTileSource } from '../../../components/map/MapView';
import { toMapLatLng } from '../../../lib/mapCoords';
import { LevelTag, StateTag } from './alarmUi';

function Spot({ a }: { a: AlarmRecord }) {
  const source = useTileSource();
  const p = toMapLatLng(a.lng ?? 0, a.lat ?? 0, source);
  if (!p) return null;
  return <CircleMarker center={p} radius={9} pathOptions={{ color: '#fff', weight: 2, fillColor: '#dc2626', fillOpacity: 1 }} />;
}

/** One alarm: its fields and, when the car was located, its position on the map. */
export function AlarmDetail({ alarm, onClose }: { alarm: AlarmRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const a = alarm;
  const located = a != null && a.lng != null && a.lat != null;
  return (
    <Modal open={a != null} onCancel={onClose} footer={null} width={760} title={t('alarm.detailTitle')} destroyOnHidden>
      {a && (
        <>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('alarm.plate')}>{a.carNumber}</Descriptions.Item>
            <Descriptions.Item label={t('alarm.type')}>{a.typeName}</Descriptions.Item>
            <Descriptions.Item label={t('alarm.level')}>
              <LevelTag level={a.level} />
            </Descriptions.Item>
            <Descriptions.Item label={t('alarm.stateLabel')}>
              <StateTag state={a.state} />
            </Descriptions.Item>
            <Descriptions.Item label={t('alarm.start')}>{a.startTime}</Descriptions.Item>
            <Descriptions.Item label={t('alarm.end')}>{a.endTime ?? t('alarm.ongoing')}</Descriptions.Item>
            <Descriptions.Item label={t('alarm.speed')}>{a.speed.toFixed(1)}</Descriptions.Item>
            <Descriptions.Item label={t('alarm.position')}>
              {located ? `${a.lng!.toFixed(6)}, ${a.lat!.toFixed(6)}` : t('common.notLocated')}
            </Descriptions.Item>
            <Descriptions.Item label={t('alarm.detail')} span={2}>
              {a.detail || '—'}
            </Descriptions.Item>
            {a.state !== 0 && (
              <Descriptions.Item label={t('alarm.handler')} span={2}>
                {a.handlerName} {a.handledTime} {a.remark && <Typography.Text type="secondary">— {a.remark}</Typography.Text>}
              </Descriptions.Item>
            )}
          </Descriptions>
          {located ? (
            <div style={{ height: 300, marginTop: 12 }}>
              <MapView
                center={[a.lng!, a.lat!]}
                zoom={14}
                testId="alarm-map"
                // the modal opens with an animation: Leaflet measured a box that was still growing
                onMapReady={(m) => window.setTimeout(() => m.invalidateSize(), 400)}
              >
                <Spot a={a} />
              </MapView>
            </div>
          ) : (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              {t('common.notLocated')}
            </Typography.Paragraph>
          )}
        </>
      )}
    </Modal>
  );
}
