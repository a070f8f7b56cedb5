import { PlusOutlined } from '@ant-design/icons';
import { App, Button, DatePicker, Form, Input, Modal, Select, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { BLACK_STATES, blackAdd, blackColour, blackExport, blackLift, blackPage, type BlackEntry, type BlackInput, type BlackQuery } from '../blueLock/api';

type Filters = Omit<BlackQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;
const F = 'YYYY-MM-DD HH:mm:ss';

interface AddValues {
  carId: number;
  reason: string;
  period: [Dayjs | null, Dayjs | null] | null;
}

/** The add dialog's values as the request: the start ('' = now) and the end ('' = until lifted). */
export function toBlackBody(v: AddValues): BlackInput {
  const [start, end] = v.period ?? [null, null];
  return { carId: v.carId, reason: v.reason.trim(), ...(start ? { startAt: start.format(F) } : {}), ...(end ? { endAt: end.format(F) } : {}) };
}

/** A dialog that runs one call on OK and says 操作成功; the client showed any refusal and the dialog stays. */
function ActionModal<V>({ title, name, onClose, onDone, run, danger, children }: { title: string; name: string; onClose: () => void; onDone: () => void; run: (v: V) => Promise<unknown>; danger?: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<V>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      await run(v);
      void message.success(t('common.operationSuccess'));
      onDone();
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={title} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('common.ok')} cancelText={t('common.cancel')} okButtonProps={{ danger }} maskClosable={false} destroyOnHidden width={560}>
      <Form<V> form={form} name={name} layout="vertical">
        {children}
      </Form>
    </Modal>
  );
}

/** 车辆黑名单 (basedata/carBlacklistRecord, 03-07): cars barred from loading — a barred car gets no new waybill. */
export default function CarBlacklistPage() {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const [lifting, setLifting] = useState<BlackEntry | null>(null);
  return (
    <ListPage<BlackEntry, Filters>
      queryKey="carBlacklist"
      rowKey="id"
      fetch={(q) => blackPage(q as BlackQuery)}
      exportCode="export"
      exportRequest={blackExport}
      filters={
        <>
          <Form.Item name="plate" label={t('locks.plate')}>
            <Input allowClear style={{ width: 130 }} />
          </Form.Item>
          <Form.Item name="state" label={t('locks.blackState')}>
            <Select allowClear style={{ width: 120 }} placeholder={t('common.all')} options={BLACK_STATES.map((s) => ({ value: s, label: t(`locks.blackStateName.${s}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('locks.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" danger icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              {t('locks.blackAdd')}
            </Button>
          </AuthButton>
          {adding && (
            <ActionModal<AddValues> title={t('locks.blackAdd')} name="blackForm" onClose={() => setAdding(false)} onDone={() => (setAdding(false), reload())} run={(v) => blackAdd(toBlackBody(v))}>
              <Form.Item name="carId" label={t('locks.car')} rules={[{ required: true, message: t('locks.carRequired') }]}>
                <VehiclePicker placeholder={t('locks.carPlaceholder')} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item name="reason" label={t('locks.blackReason')} rules={[{ required: true, whitespace: true, message: t('locks.blackReasonRequired') }]}>
                <Input.TextArea maxLength={255} rows={2} />
              </Form.Item>
              <Form.Item name="period" label={t('locks.blackPeriod')} extra={t('locks.blackPeriodHint')}>
                <DatePicker.RangePicker showTime allowEmpty={[true, true]} style={{ width: '100%' }} placeholder={[t('locks.blackStartNow'), t('locks.untilLifted')]} />
              </Form.Item>
            </ActionModal>
          )}
          {lifting && (
            <ActionModal<{ reason: string }>
              title={t('locks.liftTitle', { plate: lifting.plate })}
              name="liftForm"
              danger
              onClose={() => setLifting(null)}
              onDone={() => (setLifting(null), reload())}
              run={(v) => blackLift(lifting.id, v.reason.trim())}
            >
              <Form.Item name="reason" label={t('locks.liftReason')} rules={[{ required: true, whitespace: true, message: t('locks.reasonRequired') }]}>
                <Input.TextArea maxLength={255} rows={2} />
              </Form.Item>
            </ActionModal>
          )}
        </>
      )}
      tableProps={{ scroll: { x: 1320 }, locale: { emptyText: t('locks.blackEmpty') } }}
      columns={[
        { title: t('locks.plate'), dataIndex: 'plate', key: 'plate', sorter: true, width: 120, fixed: 'left' },
        { title: t('locks.blackState'), dataIndex: 'state', key: 'state', width: 90, render: (s: BlackEntry['state']) => <Tag color={blackColour(s)}>{t(`locks.blackStateName.${s}`)}</Tag> },
        { title: t('locks.blackReason'), dataIndex: 'reason', key: 'reason', width: 220, ellipsis: true },
        { title: t('locks.blackStart'), dataIndex: 'startAt', key: 'startAt', sorter: true, width: 165 },
        { title: t('locks.blackEnd'), dataIndex: 'endAt', key: 'endAt', sorter: true, width: 165, render: (v: string) => v || t('locks.untilLifted') },
        { title: t('locks.decidedBy'), dataIndex: 'decidedBy', key: 'decidedBy', width: 100 },
        {
          title: t('locks.lifted'),
          key: 'liftedAt',
          sorter: true,
          width: 230,
          render: (_, e) =>
            e.liftedAt ? (
              <div data-testid="lifted">
                <div>{e.liftedAt}</div>
                <div className="tw-muted">{`${e.liftedBy} · ${e.liftReason}`}</div>
              </div>
            ) : (
              '—'
            ),
        },
        { title: t('locks.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 120, ellipsis: true },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 90,
          render: (_, e) =>
            e.state === 'active' || e.state === 'scheduled' ? (
              <AuthButton code="lift">
                <Button type="link" size="small" onClick={() => setLifting(e)}>
                  {t('locks.lift')}
                </Button>
              </AuthButton>
            ) : null,
        },
      ]}
    />
  );
}
