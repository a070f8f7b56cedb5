import { ApiOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Table, Tabs, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  lockCommandPage,
  lockEventExport,
  lockEventPage,
  type LockCommand,
  type LockCommandQuery,
  type LockEvent,
  type LockEventCounts,
} from '../../../api/lockEvents';
import { AuthButton } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { initialRange } from '../../../lib/presets';
import { CommandModal } from './CommandModal';
import { EVENT_COLORS, EVENTS, isAlarming, METHODS, placeOf, STATUS_COLORS, STATUSES, toTimeFilters, type EventFilters } from './model';

type CommandFilters = Omit<LockCommandQuery, 'pageNum' | 'pageSize'>;
const RANGE_DEFAULTS = { last_7_days: true } as const;
// times come as 'YYYY-MM-DD HH:mm:ss' (GMT+8, httpx.Time)
const at = (v?: string) => v ?? '';

/** The filters both tabs share: the period (whole days), the vehicle and the group. */
function CarAndTime({ rangeLabel }: { rangeLabel: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="range" label={rangeLabel}>
        <TimeRangePicker includeOptional />
      </Form.Item>
      <Form.Item name="carId" label={t('lockEvents.plate')}>
        <VehiclePicker placeholder={t('common.all')} />
      </Form.Item>
      <Form.Item name="groupId" label={t('lockEvents.group')}>
        <GroupSelect allowClear placeholder={t('common.all')} style={{ width: 170 }} />
      </Form.Item>
    </>
  );
}

function Counts({ c }: { c?: LockEventCounts }) {
  const { t } = useTranslation();
  if (!c) return null;
  return (
    <Space wrap data-testid="lock-counts">
      <Tag color="blue">{t('lockEvents.countOpened', { n: c.opened })}</Tag>
      <Tag color="green">{t('lockEvents.countClosed', { n: c.closed })}</Tag>
      <Tag color="purple">{t('lockEvents.countRemote', { n: c.remote })}</Tag>
      <Tag color={c.outside ? 'volcano' : 'default'}>{t('lockEvents.countOutside', { n: c.outside })}</Tag>
      <Tag color={c.tampered ? 'red' : 'default'}>{t('lockEvents.countTampered', { n: c.tampered })}</Tag>
    </Space>
  );
}

/** The columns of an event list (the events tab, and a command's events). */
function useEventColumns() {
  const { t } = useTranslation();
  return [
    { title: t('lockEvents.time'), dataIndex: 'time', key: 'time', width: 165, sorter: true, render: (v: string) => at(v) },
    { title: t('lockEvents.plate'), dataIndex: 'plate', key: 'plate', width: 110, sorter: true },
    { title: t('lockEvents.group'), dataIndex: 'groupName', key: 'groupName', width: 120, sorter: true },
    {
      title: t('lockEvents.serial'),
      dataIndex: 'serial',
      key: 'serial',
      width: 190,
      sorter: true,
      render: (s: string, r: LockEvent) => (r.lockId ? s : <Tooltip title={t('lockEvents.unregistered')}><span style={{ whiteSpace: 'nowrap' }}>{s} <Tag>{t('lockEvents.unregisteredShort')}</Tag></span></Tooltip>),
    },
    {
      title: t('lockEvents.where'),
      key: 'compartment',
      width: 130,
      render: (_: unknown, r: LockEvent) => t('lockEvents.compartmentDevice', { c: r.compartment, device: t(`lockEvents.device.${r.device}`) }),
    },
    { title: t('lockEvents.eventLabel'), dataIndex: 'event', key: 'event', width: 100, sorter: true, render: (v: number) => <Tag color={EVENT_COLORS[v]}>{t(`lockEvents.event.${v}`)}</Tag> },
    { title: t('lockEvents.methodLabel'), dataIndex: 'method', key: 'method', width: 120, sorter: true, render: (v: number) => (v ? t(`lockEvents.method.${v}`) : '—') },
    { title: t('lockEvents.battery'), dataIndex: 'batteryPct', key: 'batteryPct', width: 80, align: 'right' as const, sorter: true, render: (v: number) => (v < 0 ? '—' : `${v}%`) },
    {
      title: t('lockEvents.place'),
      key: 'stationName',
      width: 260,
      sorter: true,
      render: (_: unknown, r: LockEvent) => (
        <Space size={4}>
          <Tag color={r.stationId ? 'green' : isAlarming(r) ? 'red' : 'default'}>{t(r.stationId ? 'lockEvents.inFence' : 'lockEvents.outFence')}</Tag>
          <span>{placeOf(r, t)}</span>
        </Space>
      ),
    },
    {
      title: t('lockEvents.waybill'),
      dataIndex: 'waybillNo',
      key: 'waybillNo',
      width: 190,
      sorter: true,
      render: (no: string, r: LockEvent) => (r.waybillId ? <Link to={`/manager/oilTransportProcess?waybillId=${r.waybillId}`}>{no}</Link> : '—'),
    },
    { title: t('lockEvents.command'), dataIndex: 'commandId', key: 'commandId', width: 90, render: (v: number) => (v ? `#${v}` : '—') },
  ];
}

function Events() {
  const { t } = useTranslation();
  const [counts, setCounts] = useState<LockEventCounts>();
  const columns = useEventColumns();
  return (
    <ListPage<LockEvent, EventFilters>
      queryKey="lockEvents"
      rowKey="id"
      fetch={async (q) => {
        const p = await lockEventPage(q);
        setCounts(p.counts);
        return p;
      }}
      toFilters={(v) => toTimeFilters<EventFilters>(v)}
      initialFilters={{ range: initialRange(RANGE_DEFAULTS, false) } as Partial<EventFilters>}
      exportCode="export"
      exportRequest={lockEventExport}
      title={<Counts c={counts} />}
      filters={
        <>
          <CarAndTime rangeLabel={t('lockEvents.time')} />
          <Form.Item name="event" label={t('lockEvents.eventLabel')}>
            <Select data-testid="lock-event-filter" allowClear placeholder={t('common.all')} style={{ width: 120 }} options={EVENTS.map((e) => ({ value: e, label: t(`lockEvents.event.${e}`) }))} />
          </Form.Item>
          <Form.Item name="method" label={t('lockEvents.methodLabel')}>
            <Select allowClear placeholder={t('common.all')} style={{ width: 140 }} options={METHODS.map((m) => ({ value: m, label: t(`lockEvents.method.${m}`) }))} />
          </Form.Item>
          <Form.Item name="fence" label={t('lockEvents.fence')}>
            <Select
              allowClear
              placeholder={t('common.all')}
              style={{ width: 130 }}
              options={[
                { value: 'in', label: t('lockEvents.inFence') },
                { value: 'out', label: t('lockEvents.outFence') },
              ]}
            />
          </Form.Item>
          <Form.Item name="serial" label={t('lockEvents.serial')}>
            <Input allowClear style={{ width: 150 }} placeholder={t('common.all')} />
          </Form.Item>
        </>
      }
      tableProps={{ size: 'small', locale: { emptyText: t('lockEvents.empty') }, onRow: (r) => ({ style: isAlarming(r) ? { background: '#fff1f0' } : undefined }) }}
      columns={columns}
    />
  );
}

/** The lock events a command caused (its row's expansion). */
function CommandEvents({ id }: { id: number }) {
  const { t } = useTranslation();
  const columns = useEventColumns().filter((c) => c.key !== 'commandId' && c.key !== 'groupName');
  const q = useQuery({ queryKey: ['lockEvents', 'command', id], queryFn: () => lockEventPage({ pageNum: 1, pageSize: 50, commandId: id }) });
  return (
    <Table<LockEvent>
      size="small"
      rowKey="id"
      loading={q.isLoading}
      pagination={false}
      dataSource={q.data?.list ?? []}
      columns={columns.map((c) => ({ ...c, sorter: false }))}
      locale={{ emptyText: t('lockEvents.noCausedEvents') }}
    />
  );
}

function Commands() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <ListPage<LockCommand, CommandFilters>
      queryKey="lockCommands"
      rowKey="id"
      fetch={(q) => lockCommandPage(q)}
      toFilters={(v) => toTimeFilters<CommandFilters>(v)}
      initialFilters={{ range: initialRange(RANGE_DEFAULTS, false) } as Partial<CommandFilters>}
      filters={
        <>
          <CarAndTime rangeLabel={t('lockEvents.sentAt')} />
          <Form.Item name="status" label={t('lockEvents.statusLabel')}>
            <Select allowClear placeholder={t('common.all')} style={{ width: 140 }} options={STATUSES.map((s) => ({ value: s, label: t(`lockEvents.status.${s}`) }))} />
          </Form.Item>
        </>
      }
      toolbar={(ctx) => (
        <>
          <AuthButton code="command">
            <Button type="primary" icon={<ApiOutlined />} onClick={() => setOpen(true)} data-testid="lock-command">
              {t('lockEvents.remote')}
            </Button>
          </AuthButton>
          {open && (
            <CommandModal
              onClose={() => setOpen(false)}
              onSent={() => {
                setOpen(false);
                ctx.reload();
              }}
            />
          )}
        </>
      )}
      tableProps={{ size: 'small', locale: { emptyText: t('lockEvents.noCommands') }, expandable: { expandedRowRender: (r) => <CommandEvents id={r.id} /> } }}
      columns={[
        { title: t('lockEvents.sentAt'), dataIndex: 'createdAt', key: 'createdAt', width: 165, sorter: true, render: (v: string) => at(v) },
        { title: t('lockEvents.plate'), dataIndex: 'plate', key: 'plate', width: 110, sorter: true },
        { title: t('lockEvents.action'), dataIndex: 'kind', key: 'kind', width: 90, sorter: true, render: (k: string) => <Tag color={k === 'unlock' ? 'blue' : 'green'}>{t(`lockEvents.${k}`)}</Tag> },
        { title: t('lockEvents.compartments'), dataIndex: 'paramsText', key: 'paramsText', width: 150 },
        { title: t('lockEvents.who'), dataIndex: 'userName', key: 'userName', width: 110, sorter: true },
        {
          title: t('lockEvents.statusLabel'),
          dataIndex: 'status',
          key: 'status',
          width: 130,
          sorter: true,
          render: (s: LockCommand['status']) => <Tag color={STATUS_COLORS[s]}>{t(`lockEvents.status.${s}`)}</Tag>,
        },
        { title: t('lockEvents.reply'), dataIndex: 'reply', key: 'reply', width: 120 },
        { title: t('lockEvents.doneAt'), dataIndex: 'doneAt', key: 'doneAt', width: 165, render: (v?: string) => at(v) || '—' },
        { title: t('lockEvents.caused'), dataIndex: 'events', key: 'events', width: 100, align: 'right', sorter: true },
      ]}
    />
  );
}

/** 蓝牙锁记录 (04-22): what the electronic locks reported — where, how, on which trip — and the remote open / close commands. */
export default function BlueLockRecordPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      className="tw-page"
      destroyOnHidden
      items={[
        { key: 'events', label: t('lockEvents.tabEvents'), children: <Events /> },
        { key: 'commands', label: t('lockEvents.tabCommands'), children: <Commands /> },
      ]}
    />
  );
}
