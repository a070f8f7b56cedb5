import { Form, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { hbaseTable, tableExport, type TableQuery, type TankStateRow } from '../../../api/history';
import type { Page } from '../../../api/types';
import { ListPage } from '../../../components/ListPage';
import { historyListProps, keyed, timeKey, type Keyed, type TargetFilters } from '../history/filters';
import { levelText } from '../history/format';
import { HistoryFields } from '../history/HistoryFields';
import { TankView } from '../historyRecordVXE/DecodedView';
import { LockSummary, tankOf } from './LockSummary';

type SensorFilters = TargetFilters & { table: 'tankStates'; only?: string };
type KeyedRow = Keyed<TankStateRow>;

const ONLY = ['lockState', 'levels', 'help'] as const;
const SEAL_COLOR: Record<number, string> = { 1: 'green', 2: 'red', 3: 'orange' };

async function fetchStates(q: TableQuery): Promise<Page<KeyedRow>> {
  return keyed(await hbaseTable<TankStateRow>(q), timeKey);
}

/** 传感器记录: a vehicle's tank states over time — locks per compartment, seal, levels, help requests. */
export default function SensorRecordPage() {
  const { t } = useTranslation();
  return (
    <ListPage<KeyedRow, SensorFilters>
      queryKey="sensorRecord"
      rowKey="_key"
      fetch={(q) => fetchStates(q as TableQuery)}
      {...historyListProps<SensorFilters>(t('history.pickVehicle'), { fixed: { table: 'tankStates' } })}
      exportRequest={tableExport}
      filters={
        <>
          <HistoryFields />
          <Form.Item name="only" label={t('sensorRecord.only')}>
            <Select allowClear style={{ width: 150 }} placeholder={t('common.all')} data-testid="only-select" options={ONLY.map((o) => ({ value: o, label: t(`sensorRecord.only_${o}`) }))} />
          </Form.Item>
        </>
      }
      tableProps={{
        scroll: { x: 1100 },
        expandable: {
          rowExpandable: (r) => !!r.lockState,
          expandedRowRender: (r) => <TankView tank={{ ...tankOf(t, r.lockState), lockState: r.lockState }} />,
          columnWidth: 40,
        },
      }}
      columns={[
        { title: t('sensorRecord.time'), dataIndex: 'time', key: 'time', width: 170 },
        { title: t('history.plate'), dataIndex: 'plate', key: 'plate', width: 120, render: (v: string) => v || '—' },
        { title: t('sensorRecord.locks'), dataIndex: 'lockState', key: 'lockState', render: (v: string) => <LockSummary lockState={v} /> },
        {
          title: t('sensorRecord.seal'),
          dataIndex: 'seal',
          key: 'seal',
          width: 110,
          render: (v: number, r) => (r.sealName ? <Tag color={SEAL_COLOR[v]}>{r.sealName}</Tag> : <Typography.Text type="secondary">—</Typography.Text>),
        },
        {
          title: t('sensorRecord.levels'),
          dataIndex: 'levels',
          key: 'levels',
          width: 300,
          render: (v: TankStateRow['levels']) =>
            v.length === 0 ? <Typography.Text type="secondary">—</Typography.Text> : v.map((l) => <div key={l.compartment}>{levelText(t, l)}</div>),
        },
        {
          title: t('sensorRecord.help'),
          dataIndex: 'help',
          key: 'help',
          width: 120,
          render: (v: number, r) => (v ? <Tag color="volcano">{r.helpName}</Tag> : <Typography.Text type="secondary">—</Typography.Text>),
        },
      ]}
    />
  );
}
