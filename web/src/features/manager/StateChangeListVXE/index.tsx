import { Form, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHANGE_KINDS, stateChangeExport, stateChangePage, type ChangeKind, type StateChange, type StateChangeQuery } from '../../../api/history';
import type { Page } from '../../../api/types';
import { ListPage } from '../../../components/ListPage';
import { historyListProps, keyed, type Keyed, type TargetFilters } from '../history/filters';
import { coordText } from '../history/format';
import { AddressCell, HistoryFields } from '../history/HistoryFields';
import { changeColor } from './changes';

type ChangeFilters = TargetFilters & { kind?: ChangeKind };
type KeyedChange = Keyed<StateChange>;

async function fetchChanges(q: StateChangeQuery): Promise<Page<KeyedChange>> {
  return keyed(await stateChangePage(q), (_, i) => String((q.pageNum - 1) * q.pageSize + i));
}

/** 基础清洗数据: what changed on a vehicle and when — ACC, positioning, load, alarms, covers, valves, locks, seal. */
export default function StateChangePage() {
  const { t } = useTranslation();
  return (
    <ListPage<KeyedChange, ChangeFilters>
      queryKey="StateChangeListVXE"
      rowKey="_key"
      fetch={(q) => fetchChanges(q as StateChangeQuery)}
      {...historyListProps<ChangeFilters>(t('history.pickVehicle'))}
      exportRequest={stateChangeExport}
      filters={
        <>
          <HistoryFields />
          <Form.Item name="kind" label={t('stateChange.kind')}>
            <Select allowClear style={{ width: 140 }} placeholder={t('common.all')} data-testid="kind-select" options={CHANGE_KINDS.map((k) => ({ value: k, label: t(`stateChange.kinds.${k}`) }))} />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1100 } }}
      columns={[
        { title: t('stateChange.time'), dataIndex: 'time', key: 'time', width: 170 },
        { title: t('history.plate'), dataIndex: 'plate', key: 'plate', width: 120, render: (v: string) => v || '—' },
        { title: t('stateChange.kind'), dataIndex: 'kind', key: 'kind', width: 110, render: (k: ChangeKind) => t(`stateChange.kinds.${k}`) },
        {
          title: t('stateChange.change'),
          dataIndex: 'text',
          key: 'text',
          render: (text: string, e) => (
            <Tag color={changeColor(e)} data-testid="change-text">
              {text}
            </Tag>
          ),
        },
        { title: t('stateChange.position'), key: 'position', width: 200, render: (_, e) => coordText(e.lng, e.lat) || t('common.notLocated') },
        { title: t('stateChange.address'), key: 'address', width: 260, ellipsis: true, render: (_, e) => <AddressCell lng={e.lng} lat={e.lat} /> },
      ]}
    />
  );
}
