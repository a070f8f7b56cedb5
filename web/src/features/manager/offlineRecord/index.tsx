import { Form, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { offlineExport, offlineRecordPage, type OfflinePeriod, type OfflineQuery } from '../../../api/history';
import type { Page } from '../../../api/types';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { HISTORY_DEFAULTS, historyInitial, keyed, toHistoryFilters, type Keyed } from '../history/filters';
import { coordText, durationText } from '../history/format';
import { AddressCell } from '../history/HistoryFields';
import { RaiseFaultButton, useCanRaiseFault } from '../../faultRecord/RaiseFault';

type OfflineFilters = { groupId?: number; carId?: number; startTime?: string; endTime?: string };
type KeyedPeriod = Keyed<OfflinePeriod>;

async function fetchPeriods(q: OfflineQuery): Promise<Page<KeyedPeriod>> {
  return keyed(await offlineRecordPage(q), (p) => `${p.carId}/${p.start}`);
}

/** 离线记录: every time a vehicle of the group sent nothing for longer than its offline threshold. */
export default function OfflineRecordPage() {
  const { t } = useTranslation();
  const canRaise = useCanRaiseFault();
  return (
    <ListPage<KeyedPeriod, OfflineFilters>
      queryKey="offlineRecord"
      rowKey="_key"
      fetch={(q) => fetchPeriods(q as OfflineQuery)}
      initialFilters={historyInitial() as Partial<OfflineFilters>}
      toFilters={(v) => toHistoryFilters<OfflineFilters>(v)}
      exportAlways
      exportRequest={offlineExport}
      filters={
        <>
          <Form.Item name="groupId" label={t('offlineRecord.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="carId" label={t('history.vehicle')}>
            <VehiclePicker placeholder={t('common.all')} />
          </Form.Item>
          <Form.Item name="range" label={t('history.range')}>
            <TimeRangePicker showTime defaults={HISTORY_DEFAULTS} />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: canRaise ? 1390 : 1300 } }}
      columns={[
        { title: t('history.plate'), dataIndex: 'plate', key: 'plate', width: 120 },
        { title: t('offlineRecord.group'), dataIndex: 'groupName', key: 'groupName', width: 140, ellipsis: true },
        { title: t('offlineRecord.start'), dataIndex: 'start', key: 'start', width: 170 },
        {
          title: t('offlineRecord.end'),
          dataIndex: 'end',
          key: 'end',
          width: 170,
          render: (v: string | null) => v ?? <Tag color="red">{t('offlineRecord.stillOffline')}</Tag>,
        },
        { title: t('offlineRecord.duration'), dataIndex: 'minutes', key: 'minutes', width: 140, render: (m: number) => durationText(t, m) },
        {
          title: t('offlineRecord.threshold'),
          dataIndex: 'offlineMinutes',
          key: 'offlineMinutes',
          width: 110,
          render: (m: number) => <Typography.Text type="secondary">{t('history.minutes', { m })}</Typography.Text>,
        },
        { title: t('offlineRecord.lastPosition'), key: 'position', width: 200, render: (_, p) => coordText(p.lastLng, p.lastLat) || t('common.notLocated') },
        { title: t('offlineRecord.address'), key: 'address', width: 280, ellipsis: true, render: (_, p) => <AddressCell lng={p.lastLng} lat={p.lastLat} /> },
        ...(canRaise
          ? [
              {
                title: t('common.actions'),
                key: 'actions',
                width: 90,
                fixed: 'right' as const,
                render: (_: unknown, p: KeyedPeriod) => (
                  <RaiseFaultButton
                    source={() => ({
                      carId: p.carId,
                      plate: p.plate,
                      kind: 'offline',
                      sourceId: p.carId,
                      sourceAt: p.start,
                      faultType: 'terminal',
                      device: t('faults.typeName.terminal'),
                      symptom: t('faults.offlineSymptom', { start: p.start, duration: durationText(t, p.minutes) }),
                    })}
                  />
                ),
              },
            ]
          : []),
      ]}
    />
  );
}
