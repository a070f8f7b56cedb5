import { Form, Input, Select, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { pageOperationLog, type OperationLogQuery } from '../../../api/log';
import type { OperationLogEntry } from '../../../api/types';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';

export type LogFilters = Omit<OperationLogQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** Module and action codes the server records (internal/audit). */
export const MODULES = ['auth', 'user', 'role', 'group', 'car', 'sim', 'terminal', 'alarm', 'help', 'carPassword', 'station', 'suspectedStation', 'sensor'] as const;
export const ACTIONS = [
  'login',
  'logout',
  'passwordUpdate',
  'insert',
  'update',
  'delete',
  'resetPassword',
  'status',
  'logo',
  'settings',
  'move',
  'bind',
  'channels',
  'deal',
  'helpDeal',
  'carPasswordSet',
  'carPasswordResend',
  'carPasswordAutoResend',
] as const;

const ACTION_COLOR: Record<string, string> = { insert: 'green', update: 'blue', delete: 'red', resetPassword: 'orange', status: 'gold', logo: 'purple', login: 'cyan', logout: 'default' };

/** Form values → request filters: the time range becomes startTime/endTime (`YYYY-MM-DD HH:mm:ss`). */
export function toLogFilters(values: Record<string, unknown>): LogFilters {
  const { time, ...rest } = values as LogFilters & { time?: TimeRangeValue };
  const out: LogFilters = { ...rest };
  if (time?.start) out.startTime = time.start;
  if (time?.end) out.endTime = time.end;
  return out;
}

const muted = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? <span className="tw-muted">—</span> : v);

export function logColumns(t: TFunction): ColumnsType<OperationLogEntry> {
  return [
    { title: t('operationLog.time'), dataIndex: 'createdAt', key: 'createdAt', width: 170 },
    { title: t('operationLog.userName'), dataIndex: 'userName', key: 'userName', width: 130, ellipsis: true },
    { title: t('operationLog.module'), dataIndex: 'module', key: 'module', width: 120, render: (m: string, r) => r.moduleName || t(`operationLog.modules.${m}`, { defaultValue: m }) },
    {
      title: t('operationLog.action'),
      dataIndex: 'action',
      key: 'action',
      width: 120,
      render: (a: string, r) => <Tag color={ACTION_COLOR[a] ?? 'default'}>{r.actionName || t(`operationLog.actions.${a}`, { defaultValue: a })}</Tag>,
    },
    { title: t('operationLog.target'), dataIndex: 'target', key: 'target', width: 160, ellipsis: true, render: (v: string, r) => muted(r.targetText ?? v) },
    { title: t('operationLog.targetId'), dataIndex: 'targetId', key: 'targetId', width: 100, align: 'right', render: muted },
    {
      title: t('operationLog.detail'),
      dataIndex: 'detail',
      key: 'detail',
      ellipsis: { showTitle: false },
      render: (stored: string, r) => {
        // the server's rendering in the caller's language; the stored text only from an older server
        const d = r.detailText ?? stored;
        return d ? (
          <Tooltip title={d} placement="topLeft" overlayStyle={{ maxWidth: 480 }}>
            {d}
          </Tooltip>
        ) : (
          muted(d)
        );
      },
    },
    { title: t('operationLog.ip'), dataIndex: 'ip', key: 'ip', width: 140, render: muted },
  ];
}

/** 操作日志: filter by user, module, action, target and time; export to xlsx. */
export default function OperationLogPage() {
  const { t } = useTranslation();
  return (
    <ListPage<OperationLogEntry, LogFilters>
      queryKey="operationLog"
      rowKey="id"
      fetch={pageOperationLog}
      toFilters={toLogFilters}
      exportRequest={(f) => ({ url: '/authority-app/operationLog/export', method: 'POST', data: f, fallbackName: 'operation-log.xlsx' })}
      tableProps={{ scroll: { x: 1200 } }}
      filters={
        <>
          <Form.Item name="userName" label={t('operationLog.userName')}>
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="module" label={t('operationLog.module')}>
            <Select allowClear style={{ width: 130 }} placeholder={t('operationLog.all')} options={MODULES.map((m) => ({ value: m, label: t(`operationLog.modules.${m}`) }))} />
          </Form.Item>
          <Form.Item name="action" label={t('operationLog.action')}>
            <Select allowClear style={{ width: 130 }} placeholder={t('operationLog.all')} popupMatchSelectWidth={false} options={ACTIONS.map((a) => ({ value: a, label: t(`operationLog.actions.${a}`) }))} />
          </Form.Item>
          <Form.Item name="target" label={t('operationLog.target')}>
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="time" label={t('operationLog.time')}>
            <TimeRangePicker showTime />
          </Form.Item>
        </>
      }
      columns={logColumns(t)}
    />
  );
}
