import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { parkingPage, type AlarmFilters, type ParkingPeriod } from '../../../api/alarm';
import { ListPage } from '../../../components/ListPage';
import { BaseFilters } from '../../police/common/BaseFilters';
import { alarmInitial, toAlarmFilters } from '../../police/common/filters';
import { coordText, durationText } from '../history/format';
import { AddressCell } from '../history/HistoryFields';

/** 超时停车: stops outside a station longer than the vehicle's overtime-parking threshold (control mode). */
export default function ParkingPage() {
  const { t } = useTranslation();
  return (
    <ListPage<ParkingPeriod, AlarmFilters>
      queryKey="parking"
      rowKey="id"
      fetch={parkingPage}
      initialFilters={alarmInitial() as Partial<AlarmFilters>}
      toFilters={toAlarmFilters}
      filters={<BaseFilters />}
      tableProps={{ scroll: { x: 1100 } }}
      columns={[
        { title: t('alarm.plate'), dataIndex: 'carNumber', key: 'carNumber', width: 120 },
        { title: t('alarm.start'), dataIndex: 'startTime', key: 'startTime', width: 170 },
        { title: t('alarm.end'), dataIndex: 'endTime', key: 'endTime', width: 170, render: (v: string | null) => v ?? <Tag color="orange">{t('parking.stillParked')}</Tag> },
        { title: t('parking.duration'), dataIndex: 'minutes', key: 'minutes', width: 140, render: (m: number) => durationText(t, m) },
        { title: t('parking.threshold'), dataIndex: 'thresholdMinutes', key: 'thresholdMinutes', width: 100, render: (m: number) => t('parking.minutes', { m }) },
        { title: t('alarm.position'), key: 'position', width: 200, render: (_, p) => coordText(p.lng ?? '', p.lat ?? '') || t('common.notLocated') },
        { title: t('offlineRecord.address'), key: 'address', width: 260, ellipsis: true, render: (_, p) => <AddressCell lng={p.lng ?? ''} lat={p.lat ?? ''} /> },
      ]}
    />
  );
}
