import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { passwordRecordPage, type AlarmFilters, type LockCommand } from '../../../api/alarm';
import { ListPage } from '../../../components/ListPage';
import { BaseFilters } from '../common/BaseFilters';
import { alarmInitial, toAlarmFilters } from '../common/filters';

const STATUS_COLOURS: Record<LockCommand['status'], string> = { ok: 'success', pending: 'processing', failed: 'error', timeout: 'warning', offline: 'default' };

/** "compartments [1 2]" → [1, 2]; "all compartments" → [] (every compartment). */
export function compartmentsOf(params: string): number[] | null {
  if (/^all compartments$/i.test(params.trim())) return [];
  const m = /\[([\d\s,]*)\]/.exec(params);
  return m ? m[1].split(/[\s,]+/).filter(Boolean).map(Number) : null;
}

/** 密码记录: the lock and unlock commands the platform sent to the vehicles — who, when, which compartments, the result. */
export default function PasswordRecordPage() {
  const { t } = useTranslation();
  const compartments = (p: string, r: LockCommand) => {
    const list = compartmentsOf(p);
    if (list == null) return r.paramsText || p;
    return list.length === 0 ? t('lockRecord.allCompartments') : list.map((n) => t('monitor.compartmentNo', { n })).join(t('common.listSeparator'));
  };
  return (
    <ListPage<LockCommand, AlarmFilters>
      queryKey="passwordRecord"
      rowKey="id"
      fetch={passwordRecordPage}
      initialFilters={alarmInitial() as Partial<AlarmFilters>}
      toFilters={toAlarmFilters}
      filters={<BaseFilters />}
      tableProps={{ scroll: { x: 1100 } }}
      columns={[
        { title: t('lockRecord.sentAt'), dataIndex: 'createdAt', key: 'createdAt', width: 170 },
        { title: t('alarm.plate'), dataIndex: 'carNumber', key: 'carNumber', width: 120 },
        { title: t('lockRecord.action'), dataIndex: 'kind', key: 'kind', width: 90, render: (k: string) => <Tag color={k === 'unlock' ? 'orange' : 'blue'}>{t(`lockRecord.kind.${k}`)}</Tag> },
        { title: t('lockRecord.compartments'), dataIndex: 'params', key: 'params', width: 160, render: compartments },
        { title: t('lockRecord.operator'), dataIndex: 'userName', key: 'userName', width: 110 },
        { title: t('lockRecord.result'), dataIndex: 'status', key: 'status', width: 110, render: (s: LockCommand['status']) => <Tag color={STATUS_COLOURS[s]}>{t(`lockRecord.status.${s}`)}</Tag> },
        { title: t('lockRecord.doneAt'), dataIndex: 'doneAt', key: 'doneAt', width: 170, render: (v: string | null) => v ?? '—' },
        { title: t('lockRecord.reply'), dataIndex: 'reply', key: 'reply', ellipsis: true, render: (v: string) => <Typography.Text type="secondary">{v || '—'}</Typography.Text> },
      ]}
    />
  );
}
