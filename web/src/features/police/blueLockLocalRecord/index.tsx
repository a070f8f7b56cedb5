import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { lockRecordPage, type AlarmFilters, type AlarmRecord } from '../../../api/alarm';
import { ListPage } from '../../../components/ListPage';
import { LevelTag, StateTag } from '../common/alarmUi';
import { BaseFilters } from '../common/BaseFilters';
import { alarmInitial, toAlarmFilters } from '../common/filters';

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
      filters={<BaseFilters />}
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
