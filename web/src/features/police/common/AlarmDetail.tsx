import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Modal, Spin, Tooltip, Typography } from 'antd';
import { CircleMarker } from 'react-leaflet';
import { useTranslation } from 'react-i18next';
import type { AlarmRecord } from '../../../api/alarm';
import { getAddress } from '../../../api/geocode';
import { MapView, useTileSource } from '../../../components/map/MapView';
import { toMapLatLng } from '../../../lib/mapCoords';
import { LevelTag, StateTag } from './alarmUi';

function Spot({ a }: { a: AlarmRecord }) {
  const source = useTileSource();
  const p = toMapLatLng(a.lng ?? 0, a.lat ?? 0, source);
  if (!p) return null;
  return <CircleMarker center={p} radius={9} pathOptions={{ color: '#fff', weight: 2, fillColor: '#dc2626', fillOpacity: 1 }} />;
}

/** Where the alarm happened, as an address (reverse geocoded in the console language); the coordinates in its tooltip. */
function AlarmAddress({ lng, lat }: { lng: number; lat: number }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: ['address', lng, lat, i18n.language], queryFn: () => getAddress(lng, lat), staleTime: Infinity, retry: false });
  const coords = `${lng.toFixed(6)}, ${lat.toFixed(6)}`;
  if (q.isLoading) return <Spin size="small" />;
  const text = q.data || t('alarm.addressFailed');
  return (
    <Tooltip title={coords}>
      <span data-testid="alarm-address">{q.data ? text : <Typography.Text type="secondary">{text}</Typography.Text>}</span>
    </Tooltip>
  );
}

/**
 * One alarm: its fields, the address where it happened and, when the car was located, its position on
 * the map; 处理 opens the processing flow (onDeal) for it.
 */
export function AlarmDetail({ alarm, onClose, onDeal }: { alarm: AlarmRecord | null; onClose: () => void; onDeal?: (a: AlarmRecord) => void }) {
  const { t } = useTranslation();
  const a = alarm;
  const located = a != null && a.lng != null && a.lat != null;
  const footer =
    a == null
      ? null
      : [
          <Button key="close" onClick={onClose}>
            {t('alarm.close')}
          </Button>,
          onDeal && (
            <Button key="deal" type="primary" onClick={() => onDeal(a)} data-testid="alarm-detail-deal">
              {t('alarm.deal')}
            </Button>
          ),
        ];
  return (
    <Modal open={a != null} onCancel={onClose} footer={footer} width={760} title={t('alarm.detailTitle')} destroyOnHidden>
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
            <Descriptions.Item label={t('alarm.address')}>{located ? <AlarmAddress lng={a.lng!} lat={a.lat!} /> : t('common.notLocated')}</Descriptions.Item>
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
