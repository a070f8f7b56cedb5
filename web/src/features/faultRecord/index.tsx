import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FAULT_STATES, faultClose, faultDelete, faultExport, faultPage, faultTechnicians, resolveText, type Fault, type FaultQuery, type FaultState } from '../../api/faults';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { GroupSelect } from '../../components/GroupSelect';
import { ListPage } from '../../components/ListPage';
import { TimeRangePicker, type TimeRangeValue } from '../../components/TimeRangePicker';
import { FaultForm } from './FaultForm';
import { useCodes } from '../../api/useCodes';

type Filters = Omit<FaultQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

export const STATE_COLOURS: Record<FaultState, string> = { open: 'red', inProgress: 'processing', waitingParts: 'orange', closed: 'green' };

/** Form values → filters: the period becomes startTime/endTime (reported in it). */
export function toFaultFilters(v: Record<string, unknown>): Filters {
  const { range, ...rest } = v as { range?: TimeRangeValue } & Filters;
  return { ...rest, ...(range?.start ? { startTime: range.start } : {}), ...(range?.end ? { endTime: range.end } : {}) };
}

function CloseModal({ fault, onClose, onDone }: { fault: Fault; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ resolution: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      await faultClose(fault.id, v.resolution.trim());
      void message.success(t('common.operationSuccess'));
      onDone();
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('faults.closeTitle', { plate: fault.plate })} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('faults.closeFault')} cancelText={t('common.cancel')} maskClosable={false} destroyOnHidden>
      <Form form={form} name="faultClose" layout="vertical" initialValues={{ resolution: fault.resolution }}>
        <Form.Item name="resolution" label={t('faults.resolution')} rules={[{ required: true, whitespace: true, message: t('faults.resolutionRequired') }]}>
          <Input.TextArea maxLength={500} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 售后记录 (/faultRecord, module 07): fault reports of the cars and their devices, from report to resolution. */
export default function FaultRecordPage() {
  const { t } = useTranslation();
  const types = useCodes('faultType');
  const techs = useQuery({ queryKey: ['faultTechnicians'], queryFn: faultTechnicians, staleTime: 60_000 });
  const [editing, setEditing] = useState<Fault | null | 'new'>(null);
  const [closing, setClosing] = useState<Fault | null>(null);
  return (
    <ListPage<Fault, Filters>
      queryKey="faultRecord"
      rowKey="id"
      fetch={(q) => faultPage(q as FaultQuery)}
      toFilters={toFaultFilters}
      exportAlways
      exportRequest={faultExport}
      filters={
        <>
          <Form.Item name="plate" label={t('faults.plate')}>
            <Input allowClear style={{ width: 120 }} maxLength={20} />
          </Form.Item>
          <Form.Item name="state" label={t('faults.state')}>
            <Select allowClear style={{ width: 120 }} placeholder={t('common.all')} options={FAULT_STATES.map((s) => ({ value: s, label: t(`faults.stateName.${s}`) }))} />
          </Form.Item>
          <Form.Item name="faultType" label={t('faults.type')}>
            <Select allowClear style={{ width: 130 }} placeholder={t('common.all')} options={types.all()} />
          </Form.Item>
          <Form.Item name="technicianId" label={t('faults.technician')}>
            <Select allowClear showSearch optionFilterProp="label" style={{ width: 130 }} placeholder={t('common.all')} options={(techs.data ?? []).map((u) => ({ value: u.id, label: u.name }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('faults.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="range" label={t('faults.period')}>
            <TimeRangePicker showTime />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('faults.add')}
          </Button>
          {editing && <FaultForm fault={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), reload())} />}
          {closing && <CloseModal fault={closing} onClose={() => setClosing(null)} onDone={() => (setClosing(null), reload())} />}
        </>
      )}
      tableProps={{ scroll: { x: 1600 }, locale: { emptyText: t('faults.empty') } }}
      columns={({ reload }) => [
        { title: t('faults.plate'), dataIndex: 'plate', key: 'plate', sorter: true, width: 110, fixed: 'left' },
        { title: t('faults.state'), dataIndex: 'state', key: 'state', sorter: true, width: 100, render: (s: FaultState) => <Tag color={STATE_COLOURS[s]}>{t(`faults.stateName.${s}`)}</Tag> },
        { title: t('faults.type'), dataIndex: 'faultType', key: 'faultType', sorter: true, width: 110, render: (x: string) => types.label(x) },
        { title: t('faults.device'), dataIndex: 'device', key: 'device', width: 140, ellipsis: true },
        {
          title: t('faults.symptom'),
          dataIndex: 'symptom',
          key: 'symptom',
          width: 240,
          ellipsis: { showTitle: false },
          render: (s: string, f) => (
            <Tooltip title={s}>
              {f.sourceKind && <Tag>{t(`faults.source.${f.sourceKind}`)}</Tag>}
              {s}
            </Tooltip>
          ),
        },
        {
          title: t('faults.reportedBy'),
          dataIndex: 'reportedBy',
          key: 'reportedBy',
          width: 110,
          ellipsis: true,
          render: (v: string, f) =>
            f.bySystem ? (
              <Tooltip title={t('faults.bySystem')}>
                <Tag color="purple" data-testid="by-system">
                  {v}
                </Tag>
              </Tooltip>
            ) : (
              v
            ),
        },
        { title: t('faults.reportedAt'), dataIndex: 'reportedAt', key: 'reportedAt', sorter: true, defaultSortOrder: undefined, width: 165 },
        { title: t('faults.technician'), dataIndex: 'technicianName', key: 'technicianName', sorter: true, width: 110, render: (v: string) => v || '—' },
        {
          title: t('faults.visitsParts'),
          key: 'visits',
          width: 120,
          render: (_, f) => t('faults.visitsPartsText', { v: f.visits.length, p: f.parts.length }),
        },
        {
          title: t('faults.resolve'),
          dataIndex: 'resolveMinutes',
          key: 'resolveMinutes',
          sorter: true,
          width: 130,
          render: (m: number, f) => (f.state === 'closed' ? resolveText(t, m) : <span className="tw-muted">{t('faults.openFor', { d: resolveText(t, m) })}</span>),
        },
        { title: t('faults.resolution'), dataIndex: 'resolution', key: 'resolution', width: 200, ellipsis: true },
        { title: t('faults.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 120, ellipsis: true },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 170,
          render: (_, f) => (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => setEditing(f)}>
                {t('common.edit')}
              </Button>
              {f.state !== 'closed' && (
                <Button type="link" size="small" onClick={() => setClosing(f)}>
                  {t('faults.close')}
                </Button>
              )}
              <ConfirmDelete run={() => faultDelete(f.id)} onDone={reload} />
            </Space>
          ),
        },
      ]}
    />
  );
}
