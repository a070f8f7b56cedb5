import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AlarmFilters } from '../../../api/alarm';
import { pageViewingRecords, viewingRecordExport, type ViewingRecord, type ViewingRecordQuery } from '../../../api/carPassword';
import { ListPage } from '../../../components/ListPage';
import { BaseFilters } from '../common/BaseFilters';
import { alarmInitial, toAlarmFilters } from '../common/filters';

type Filters = AlarmFilters & Pick<ViewingRecordQuery, 'userName'>;

/** Password viewing records (menu passwordViewingRecord): who revealed which vehicle's lock password, when, from which address and why. */
export default function PasswordViewingRecordPage() {
  const { t } = useTranslation();
  return (
    <ListPage<ViewingRecord, Filters>
      queryKey="passwordViewingRecord"
      rowKey="id"
      fetch={pageViewingRecords}
      initialFilters={alarmInitial() as Partial<Filters>}
      toFilters={(v) => {
        const f: Filters = toAlarmFilters(v);
        if (typeof f.userName === 'string') f.userName = f.userName.trim() || undefined;
        return f;
      }}
      exportRequest={viewingRecordExport}
      filters={
        <>
          <BaseFilters />
          <Form.Item name="userName" label={t('passwordViewingRecord.userName')}>
            <Input allowClear style={{ width: 140 }} placeholder={t('common.all')} />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1000 } }}
      columns={[
        { title: t('passwordViewingRecord.viewedAt'), dataIndex: 'viewedAt', key: 'viewedAt', width: 170, sorter: true },
        { title: t('alarm.plate'), dataIndex: 'carNumber', key: 'carNumber', width: 130, sorter: true },
        { title: t('passwordViewingRecord.group'), dataIndex: 'groupName', key: 'groupName', width: 150, ellipsis: true },
        { title: t('passwordViewingRecord.userName'), dataIndex: 'userName', key: 'userName', width: 120, sorter: true },
        { title: t('passwordViewingRecord.clientIp'), dataIndex: 'clientIp', key: 'clientIp', width: 140, sorter: true },
        {
          title: t('passwordViewingRecord.reason'),
          dataIndex: 'reason',
          key: 'reason',
          ellipsis: true,
          render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text>,
        },
      ]}
    />
  );
}
