import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { hbaseTable, tableExport, type PositionRow, type TableQuery } from '../../../api/history';
import type { Page } from '../../../api/types';
import { ListPage } from '../../../components/ListPage';
import { bearingText } from '../../../lib/bearing';
import { historyListProps, keyed, timeKey, type Keyed, type TargetFilters } from '../history/filters';
import { coordText, loadOf } from '../history/format';
import { AddressCell, HistoryFields } from '../history/HistoryFields';

type CarFilters = TargetFilters & { table: 'positions' };
type KeyedRow = Keyed<PositionRow>;

async function fetchPositions(q: TableQuery): Promise<Page<KeyedRow>> {
  return keyed(await hbaseTable<PositionRow>(q), timeKey);
}

const dash = <Typography.Text type="secondary">—</Typography.Text>;

/** 车辆记录: a vehicle's positions with speed, heading, load, mileage, satellites and the address of each shown row. */
export default function CarRecordPage() {
  const { t } = useTranslation();
  return (
    <ListPage<KeyedRow, CarFilters>
      queryKey="carRecord"
      rowKey="_key"
      fetch={(q) => fetchPositions(q as TableQuery)}
      {...historyListProps<CarFilters>(t('history.pickVehicle'), { fixed: { table: 'positions' } })}
      exportRequest={tableExport}
      filters={<HistoryFields />}
      tableProps={{ scroll: { x: 1750 } }}
      columns={[
        { title: t('carRecord.time'), dataIndex: 'time', key: 'time', width: 170, fixed: 'left' },
        { title: t('history.plate'), dataIndex: 'plate', key: 'plate', width: 110, render: (v: string) => v || '—' },
        { title: t('carRecord.speed'), dataIndex: 'speed', key: 'speed', width: 110, render: (v: number) => v.toFixed(1) },
        {
          title: t('carRecord.direction'),
          dataIndex: 'direction',
          key: 'direction',
          width: 170,
          render: (v: number) => {
            const b = bearingText(v);
            return `${t(b.key, b.args)} (${v}°)`;
          },
        },
        {
          title: t('carRecord.load'),
          dataIndex: 'status',
          key: 'load',
          width: 90,
          render: (s: number) => {
            const load = loadOf(s);
            return load ? t(`carRecord.loads.${load}`) : dash;
          },
        },
        { title: t('carRecord.mileage'), dataIndex: 'mileage', key: 'mileage', width: 120, render: (v: number | null) => (v === null ? dash : v.toFixed(1)) },
        { title: t('carRecord.satellites'), dataIndex: 'satellites', key: 'satellites', width: 80 },
        { title: t('carRecord.blind'), dataIndex: 'blind', key: 'blind', width: 100, render: (v: boolean) => (v ? <Tag color="orange">{t('carRecord.blindYes')}</Tag> : dash) },
        {
          title: t('carRecord.alarms'),
          dataIndex: 'alarms',
          key: 'alarms',
          width: 160,
          ellipsis: true,
          render: (v: string[]) => (v.length ? v.map((a) => <Tag key={a} color="red">{a}</Tag>) : dash),
        },
        { title: t('carRecord.position'), key: 'position', width: 200, render: (_, r) => coordText(r.lng, r.lat) || t('common.notLocated') },
        { title: t('carRecord.address'), key: 'address', width: 280, ellipsis: true, render: (_, r) => <AddressCell lng={r.lng} lat={r.lat} /> },
        { title: t('carRecord.receivedAt'), dataIndex: 'receivedAt', key: 'receivedAt', width: 170 },
      ]}
    />
  );
}
