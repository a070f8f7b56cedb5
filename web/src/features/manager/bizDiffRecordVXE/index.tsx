import { App, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DIFF_KINDS, diffExport, diffPage, reviewDiff, type DiffQuery, type DiffRecord } from '../../../api/bizDiff';
import { AuthButton } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { historyInitial, toHistoryFilters } from '../history/filters';

type Filters = Omit<DiffQuery, 'pageNum' | 'pageSize'>;

/** Tag colours of the difference kinds: loss (orange), opening on the way (red), seal (magenta), unsealed (gold). */
export const DIFF_COLOR: Record<number, string> = { 1: 'orange', 2: 'red', 3: 'magenta', 4: 'gold' };

/** A percentage with up to four decimals (allowances are 0.01 % steps). */
export function pct(v: number): string {
  return `${Number(v.toFixed(4))}%`;
}

/** Whether a difference's loss figures mean anything (a loss over allowance; the others have none). */
export const hasLoss = (d: Pick<DiffRecord, 'kind'>) => d.kind === 1;

const REASON_MAX = 200;

function ReviewDialog({ diff, onClose, onDone }: { diff: DiffRecord; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    let v: { reason: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await reviewDiff(diff.id, v.reason.trim());
      void message.success(t('bizDiff.reviewDone'));
      onDone();
    } catch {
      // the server's message was shown by the client
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={t('bizDiff.reviewTitle', { no: diff.waybillNo })} onCancel={onClose} onOk={submit} confirmLoading={saving}
      okText={t('bizDiff.reviewOk')} maskClosable={false} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>
          <Tag color={DIFF_COLOR[diff.kind]}>{t(`waybillCommon.diff.${diff.kind}`)}</Tag>
          {diff.plate} · {diff.time}
        </Typography.Text>
        {diff.evidenceText && <Typography.Text type="secondary">{diff.evidenceText}</Typography.Text>}
        {hasLoss(diff) && (
          <Typography.Text type="secondary">
            {t('bizDiff.lossLine', { loss: diff.lossL.toFixed(1), rate: pct(diff.lossRatePct), allowed: pct(diff.allowedPct) })}
          </Typography.Text>
        )}
        <Typography.Text type="secondary">{t('bizDiff.reviewHint')}</Typography.Text>
        <Form form={form} layout="vertical" name="bizDiffReview">
          <Form.Item name="reason" label={t('bizDiff.reason')}
            rules={[{ required: true, whitespace: true, message: t('bizDiff.reasonRequired') }, { max: REASON_MAX, message: t('bizDiff.reasonLong', { n: REASON_MAX }) }]}>
            <Input.TextArea rows={3} maxLength={REASON_MAX} showCount placeholder={t('bizDiff.reasonPlaceholder')} />
          </Form.Item>
        </Form>
      </Space>
    </Modal>
  );
}

/** 业务差异记录: the transport differences the process engine found, their evidence and their review (D45). */
export default function BizDiffRecordPage() {
  const { t } = useTranslation();
  const [reviewing, setReviewing] = useState<{ diff: DiffRecord; reload: () => void } | null>(null);
  return (
    <>
      <ListPage<DiffRecord, Filters>
        queryKey="bizDiffRecord"
        rowKey="id"
        fetch={(q) => diffPage(q as DiffQuery)}
        initialFilters={historyInitial({ status: 0 }) as Partial<Filters>}
        toFilters={(v) => {
          const f = toHistoryFilters<Filters>(v);
          if (typeof f.waybillNo === 'string') f.waybillNo = f.waybillNo.trim() || undefined;
          return f;
        }}
        exportCode="export"
        exportRequest={diffExport}
        filters={
          <>
            <Form.Item name="groupId" label={t('bizDiff.group')}>
              <GroupSelect filter />
            </Form.Item>
            <Form.Item name="carId" label={t('bizDiff.vehicle')}>
              <VehiclePicker placeholder={t('common.all')} />
            </Form.Item>
            <Form.Item name="waybillNo" label={t('bizDiff.waybillNo')}>
              <Input allowClear style={{ width: 200 }} placeholder={t('bizDiff.waybillNoPlaceholder')} />
            </Form.Item>
            <Form.Item name="kind" label={t('bizDiff.kind')}>
              <Select allowClear placeholder={t('common.all')} style={{ width: 150 }}
                options={DIFF_KINDS.map((k) => ({ value: k, label: t(`waybillCommon.diff.${k}`) }))} />
            </Form.Item>
            <Form.Item name="status" label={t('bizDiff.status')}>
              <Select allowClear placeholder={t('common.all')} style={{ width: 110 }}
                options={[0, 1].map((s) => ({ value: s, label: t(`bizDiff.statuses.${s}`) }))} />
            </Form.Item>
            <Form.Item name="range" label={t('bizDiff.range')}>
              <TimeRangePicker showTime defaults={{ last_2_days: true }} />
            </Form.Item>
          </>
        }
        tableProps={{ locale: { emptyText: t('bizDiff.empty') } }}
        columns={({ reload }) => [
          { title: t('bizDiff.waybillNo'), dataIndex: 'waybillNo', key: 'waybillNo', width: 200, sorter: true, fixed: 'left' },
          { title: t('bizDiff.plate'), dataIndex: 'plate', key: 'plate', width: 110, sorter: true },
          {
            title: t('bizDiff.kind'),
            dataIndex: 'kind',
            key: 'kind',
            width: 130,
            sorter: true,
            render: (k: number) => <Tag color={DIFF_COLOR[k]} data-testid="diff-kind">{t(`waybillCommon.diff.${k}`)}</Tag>,
          },
          {
            title: t('bizDiff.evidence'),
            dataIndex: 'evidenceText',
            key: 'evidence',
            width: 320,
            render: (v: string) => (v ? <span data-testid="diff-evidence">{v}</span> : <Typography.Text type="secondary">—</Typography.Text>),
          },
          { title: t('bizDiff.time'), dataIndex: 'time', key: 'time', width: 170, sorter: true },
          {
            title: t('bizDiff.lossL'),
            dataIndex: 'lossL',
            key: 'lossL',
            width: 100,
            sorter: true,
            align: 'right',
            render: (v: number, d) => (hasLoss(d) ? v.toFixed(1) : <Typography.Text type="secondary">—</Typography.Text>),
          },
          {
            title: t('bizDiff.rate'),
            dataIndex: 'lossRatePct',
            key: 'lossRatePct',
            width: 100,
            sorter: true,
            align: 'right',
            render: (v: number, d) => (hasLoss(d) ? <Typography.Text type="danger">{pct(v)}</Typography.Text> : <Typography.Text type="secondary">—</Typography.Text>),
          },
          {
            title: t('bizDiff.allowed'),
            dataIndex: 'allowedPct',
            key: 'allowedPct',
            width: 100,
            align: 'right',
            render: (v: number, d) => (hasLoss(d) ? pct(v) : <Typography.Text type="secondary">—</Typography.Text>),
          },
          {
            title: t('bizDiff.waybillState'),
            dataIndex: 'waybillState',
            key: 'waybillState',
            width: 110,
            render: (s: string) => <Tag color={s === 'DIFF_FLAGGED' ? 'red' : s === 'CLOSED' ? 'green' : 'blue'}>{t(`waybillCommon.state.${s}`)}</Tag>,
          },
          {
            title: t('bizDiff.status'),
            dataIndex: 'status',
            key: 'status',
            width: 220,
            sorter: true,
            render: (s: number, d) =>
              s === 0 ? (
                <Tag color="orange">{t('bizDiff.statuses.0')}</Tag>
              ) : (
                <Space direction="vertical" size={0}>
                  <Tag color="green">{t('bizDiff.statuses.1')}</Tag>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {d.reviewerName} · {d.reviewedAt}
                  </Typography.Text>
                  <Typography.Text style={{ fontSize: 12 }}>{d.reviewReason}</Typography.Text>
                </Space>
              ),
          },
          { title: t('bizDiff.group'), dataIndex: 'groupName', key: 'groupName', width: 120, ellipsis: true },
          {
            title: t('common.actions'),
            key: 'op',
            width: 90,
            fixed: 'right',
            render: (_, d) =>
              d.status === 0 ? (
                <AuthButton code="review">
                  <Typography.Link onClick={() => setReviewing({ diff: d, reload })}>{t('bizDiff.review')}</Typography.Link>
                </AuthButton>
              ) : null,
          },
        ]}
      />
      {reviewing && (
        <ReviewDialog
          diff={reviewing.diff}
          onClose={() => setReviewing(null)}
          onDone={() => {
            reviewing.reload();
            setReviewing(null);
          }}
        />
      )}
    </>
  );
}
