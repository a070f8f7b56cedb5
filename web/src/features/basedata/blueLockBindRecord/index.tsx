import { Form, Input, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { bindExport, bindPage, type BindQuery, type BindRecord } from '../blueLock/api';

type Filters = Omit<BindQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** Form values → request filters: the time range becomes startTime/endTime. */
export function toBindFilters(values: Record<string, unknown>): Filters {
  const { time, ...rest } = values as Filters & { time?: TimeRangeValue };
  const out: Filters = { ...rest };
  if (time?.start) out.startTime = time.start;
  if (time?.end) out.endTime = time.end;
  return out;
}

/** 蓝牙锁绑定记录 (basedata/blueLockBindRecord, 03-06): every bind and unbind, who, when and why; `?serial=` (a lock's history from the blueLock page) starts filtered. */
export default function BlueLockBindRecordPage() {
  const { t } = useTranslation();
  const serial = useSearchParams()[0].get('serial') ?? '';
  return (
    <ListPage<BindRecord, Filters>
      key={serial}
      initialFilters={serial ? { serial } : undefined}
      queryKey="blueLockBindRecord"
      rowKey="id"
      fetch={(q) => bindPage(q as BindQuery)}
      toFilters={toBindFilters}
      exportCode="export"
      exportRequest={bindExport}
      filters={
        <>
          <Form.Item name="time" label={t('locks.time')}>
            <TimeRangePicker showTime />
          </Form.Item>
          <Form.Item name="serial" label={t('locks.serial')}>
            <Input allowClear style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="plate" label={t('locks.plate')}>
            <Input allowClear style={{ width: 130 }} />
          </Form.Item>
          <Form.Item name="action" label={t('locks.action')}>
            <Select
              allowClear
              style={{ width: 110 }}
              placeholder={t('common.all')}
              options={[1, 2].map((a) => ({ value: a, label: t(`locks.actionName.${a}`) }))}
            />
          </Form.Item>
          <Form.Item name="groupId" label={t('locks.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1400 }, locale: { emptyText: t('locks.bindEmpty') } }}
      columns={[
        { title: t('locks.time'), dataIndex: 't', key: 't', sorter: true, width: 170 },
        { title: t('locks.serial'), dataIndex: 'serial', key: 'serial', sorter: true, width: 170 },
        { title: t('locks.kind'), dataIndex: 'kind', key: 'kind', width: 120, render: (k: number) => t(`locks.kindName.${k}`) },
        { title: t('locks.action'), dataIndex: 'action', key: 'action', sorter: true, width: 90, render: (a: number) => <Tag color={a === 1 ? 'blue' : 'orange'}>{t(`locks.actionName.${a}`)}</Tag> },
        { title: t('locks.plate'), dataIndex: 'plate', key: 'plate', sorter: true, width: 120 },
        { title: t('locks.compartment'), dataIndex: 'compartment', key: 'compartment', width: 80, align: 'right' },
        { title: t('locks.device'), dataIndex: 'device', key: 'device', width: 130, render: (d: number) => t(`locks.deviceName.${d}`) },
        { title: t('locks.userName'), dataIndex: 'userName', key: 'userName', sorter: true, width: 110, render: (v: string) => v || '—' },
        { title: t('locks.reason'), dataIndex: 'reason', key: 'reason', width: 220, ellipsis: true, render: (v: string) => v || '—' },
        { title: t('locks.group'), dataIndex: 'groupName', key: 'groupName', width: 120, ellipsis: true },
      ]}
    />
  );
}
