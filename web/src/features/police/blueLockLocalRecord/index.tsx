import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { lockRecordPage, type AlarmFilters, type AlarmRecord } from '../../../api/alarm';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { LevelTag, StateTag } from '../common/alarmUi';
import { ALARM_DEFAULTS, alarmInitial, toAlarmFilters } from '../common/filters';

/** 蓝牙锁本地记录: locks opened at the vehicle that no platform unlock explains (the 非授权开锁 alarms). */
export default function BlueLockLocalRecordPage() {
  const { t } = useTranslation();
  return (
    <ListPage<AlarmRecord, AlarmFilters>
      queryKey="blueLockLocalRecord"
      rowKey="id"
      fetch={lockRecordPage}
      initialFilters={alarmInitial() as Partial<AlarmFilters>}
      toFilters={toAlarmFilters}
      title={<Alert type="info" showIcon message={t('lockRecord.localHint')} />}
      filters={
        <>
          <Form.Item name="groupId" label={t('alarm.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="carNumber" label={t('alarm.plate')}>
            <Input allowClear style={{ width: 140 }} placeholder={t('common.all')} />
          </Form.Item>
          <Form.Item name="range" label={t('alarm.range')}>
            <TimeRangePicker showTime defaults={ALARM_DEFAULTS} />
          </Form.Item>
        </>
      }
      columns={[
        { title: t('alarm.start'), dataIndex: 'startTime', key: 'startTime', width: 170 },
        { title: t('alarm.plate'), dataIndex: 'carNumber', key: 'carNumber', width: 120 },
        { title: t('lockRecord.compartments'), dataIndex: 'detail', key: 'detail', width: 200 },
        { title: t('alarm.level'), dataIndex: 'level', key: 'level', width: 90, render: (l: number) => <LevelTag level={l} /> },
        { title: t('alarm.stateLabel'), dataIndex: 'state', key: 'state', width: 130, render: (s: AlarmRecord['state']) => <StateTag state={s} /> },
        { title: t('alarm.remark'), dataIndex: 'remark', key: 'remark', ellipsis: true },
      ]}
    />
  );
}
