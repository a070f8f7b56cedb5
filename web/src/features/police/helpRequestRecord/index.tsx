import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HELP_STATUSES, helpExport, pageHelpRecords, type HelpQuery, type HelpRecord, type HelpStatus } from '../../../api/help';
import { AuthButton } from '../../../components/AuthButton';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { initialRange } from '../../../lib/presets';
import { HelpRequestView } from './HelpRequestView';

type HelpFilters = Omit<HelpQuery, 'pageNum' | 'pageSize'>;

const STATUS_COLOR: Record<HelpStatus, string> = { pending: 'red', sending: 'processing', done: 'green', failed: 'orange', ignored: 'default' };
const DEFAULTS = { last_7_days: true } as const;

function toFilters(v: Record<string, unknown>): HelpFilters {
  const { range, carNumber, ...rest } = v as { range?: TimeRangeValue; carNumber?: string } & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (typeof carNumber === 'string' && carNumber.trim()) out.carNumber = carNumber.trim();
  if (range?.start) out.startTime = range.start;
  if (range?.end) out.endTime = range.end;
  return out as HelpFilters;
}

/** 求助记录: drivers' unlock / lock requests of the caller's scope and how they were answered. */
export default function HelpRequestRecordPage() {
  const { t } = useTranslation();
  const [dealing, setDealing] = useState<HelpRecord | null>(null);
  const client = useQueryClient();
  const typeText = (n: number) => (n === 1 ? t('help.type.unlock') : t('help.type.lock'));
  return (
    <>
      <ListPage<HelpRecord, HelpFilters>
        queryKey="helpRequestRecord"
        rowKey="id"
        fetch={(q) => pageHelpRecords(q as HelpQuery)}
        initialFilters={{ range: initialRange(DEFAULTS, true) } as Partial<HelpFilters>}
        toFilters={toFilters}
        exportRequest={helpExport}
        filters={
          <>
            <Form.Item name="carNumber" label={t('help.carNumber')}>
              <Input allowClear placeholder={t('helpRecord.platePlaceholder')} style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="requestType" label={t('help.requestType')}>
              <Select
                allowClear
                placeholder={t('helpRecord.all')}
                style={{ width: 120 }}
                options={[
                  { value: 1, label: t('help.type.unlock') },
                  { value: 2, label: t('help.type.lock') },
                ]}
              />
            </Form.Item>
            <Form.Item name="status" label={t('helpRecord.status')}>
              <Select
                allowClear
                placeholder={t('helpRecord.all')}
                style={{ width: 130 }}
                options={HELP_STATUSES.map((s) => ({ value: s, label: t(`helpRecord.statuses.${s}`) }))}
              />
            </Form.Item>
            <Form.Item name="range" label={t('help.requestTime')}>
              <TimeRangePicker showTime defaults={DEFAULTS} />
            </Form.Item>
          </>
        }
        tableProps={{ scroll: { x: 1750 } }}
        columns={[
          { title: t('help.carNumber'), dataIndex: 'carNumber', key: 'carNumber', width: 120, sorter: true },
          { title: t('helpRecord.group'), dataIndex: 'groupName', key: 'groupName', width: 130, ellipsis: true },
          {
            title: t('help.requestType'),
            dataIndex: 'requestType',
            key: 'requestType',
            width: 100,
            render: (n: number) => <Tag color={n === 1 ? 'orange' : 'blue'}>{typeText(n)}</Tag>,
          },
          { title: t('help.requestTime'), dataIndex: 'requestTime', key: 'requestTime', width: 170, sorter: true },
          { title: t('help.speed'), dataIndex: 'speed', key: 'speed', width: 100, render: (v: number) => t('help.kmh', { v }) },
          {
            title: t('help.address'),
            dataIndex: 'address',
            key: 'address',
            width: 260,
            ellipsis: true,
            render: (a: string) => a || <Typography.Text type="secondary">{t('common.notLocated')}</Typography.Text>,
          },
          { title: t('helpRecord.station'), dataIndex: 'stationName', key: 'stationName', width: 120, ellipsis: true },
          {
            title: t('helpRecord.status'),
            dataIndex: 'status',
            key: 'status',
            width: 110,
            render: (s: HelpStatus) => (
              <Tag color={STATUS_COLOR[s]} data-testid="help-status">
                {t(`helpRecord.statuses.${s}`)}
              </Tag>
            ),
          },
          {
            title: t('helpRecord.dealType'),
            dataIndex: 'dealType',
            key: 'dealType',
            width: 100,
            render: (n: number) => (n ? t(`helpRecord.deals.${n}`) : ''),
          },
          { title: t('helpRecord.dealtBy'), dataIndex: 'dealtBy', key: 'dealtBy', width: 110 },
          { title: t('helpRecord.dealtAt'), dataIndex: 'dealtAt', key: 'dealtAt', width: 170 },
          { title: t('helpRecord.result'), dataIndex: 'result', key: 'result', width: 160, ellipsis: true },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 90,
            fixed: 'right',
            render: (_, r) =>
              r.status === 'pending' || r.status === 'failed' ? (
                <AuthButton code="deal">
                  <Button type="link" size="small" onClick={() => setDealing(r)}>
                    {t('helpRecord.deal')}
                  </Button>
                </AuthButton>
              ) : null,
          },
        ]}
      />
      <DealModal record={dealing} onClose={() => setDealing(null)} onDealt={() => void client.invalidateQueries({ queryKey: ['helpRequestRecord'] })} />
    </>
  );
}

function DealModal({ record, onClose, onDealt }: { record: HelpRecord | null; onClose: () => void; onDealt: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={record !== null} title={t('help.title')} width={700} footer={null} onCancel={onClose} destroyOnHidden>
      {record && <HelpRequestView request={record} onClose={onClose} onDealt={onDealt} />}
    </Modal>
  );
}
