import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { GroupSelect } from '../../../components/GroupSelect';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { ALARM_DEFAULTS } from './filters';

/** The filters every alarm-side record list starts with: group, plate and time range (toAlarmFilters reads them). */
export function BaseFilters() {
  const { t } = useTranslation();
  return (
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
  );
}
