import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { makeWaybills, planDelete, planOptions, planPage, type Plan, type PlanItem, type PlanQuery } from '../../../api/waybillLoads';
import { AuthButton, useAuth } from '../../../components/AuthButton';
import { confirmDelete } from '../../../components/confirmDelete';
import { ListPage } from '../../../components/ListPage';
import { PlanForm } from './PlanForm';
import { progressPct, STATE_COLOR } from './progress';

type Filters = Omit<PlanQuery, 'pageNum' | 'pageSize'>;

/** Form values → filters: the date range as YYYY-MM-DD. */
export function toPlanFilters(v: Record<string, unknown>): Filters {
  const { range, ...rest } = v as { range?: [Dayjs, Dayjs] } & Filters;
  return { ...rest, ...(range ? { startDate: range[0].format('YYYY-MM-DD'), endDate: range[1].format('YYYY-MM-DD') } : {}) };
}

export function WaybillState({ state }: { state: string }) {
  const { t } = useTranslation();
  if (!state) return <Typography.Text type="secondary">{t('transportPlan.noWaybill')}</Typography.Text>;
  return <Tag color={STATE_COLOR[state] ?? 'default'}>{t(`waybillCommon.state.${state}`)}</Tag>;
}

function Items({ plan }: { plan: Plan }) {
  const { t } = useTranslation();
  return (
    <Table<PlanItem>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={plan.items}
      data-testid="plan-items"
      columns={[
        { title: t('transportPlan.car'), dataIndex: 'plate', width: 120 },
        { title: t('transportPlan.station'), dataIndex: 'stationName' },
        { title: t('transportPlan.product'), dataIndex: 'productName', width: 120 },
        { title: t('transportPlan.plannedL'), dataIndex: 'plannedL', width: 120, align: 'right', render: (v: number) => v.toLocaleString() },
        { title: t('transportPlan.waybillNo'), dataIndex: 'waybillNo', width: 200, render: (v: string) => v || '—' },
        { title: t('transportPlan.state'), dataIndex: 'waybillState', width: 120, render: (s: string) => <WaybillState state={s} /> },
        { title: t('transportPlan.remark'), dataIndex: 'remark' },
      ]}
    />
  );
}

export default function TransportPlanPage() {
  const { t } = useTranslation();
  const app = App.useApp();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const [making, setMaking] = useState(0);
  const options = useQuery({ queryKey: ['planOptions'], queryFn: planOptions, staleTime: 60_000 });
  const canEdit = useAuth('edit');
  const canDelete = useAuth('delete');
  const canMake = useAuth('makeWaybills');
  const opts = (list: { id: number; name: string }[] = []) => list.map((o) => ({ value: o.id, label: o.name }));

  const make = async (plan: Plan, reload: () => void) => {
    setMaking(plan.id);
    try {
      await makeWaybills(plan.id);
      void app.message.success(t('transportPlan.made'));
      reload();
    } catch {
      // the server's message was shown by the client (e.g. the waybill service is not available yet)
    } finally {
      setMaking(0);
    }
  };

  return (
    <>
      <ListPage<Plan, Filters>
        queryKey="transportPlan"
        rowKey="id"
        fetch={(q) => planPage(q as PlanQuery)}
        toFilters={toPlanFilters}
        filters={
          <>
            <Form.Item name="range" label={t('transportPlan.planDate')}>
              <DatePicker.RangePicker />
            </Form.Item>
            <Form.Item name="depotId" label={t('transportPlan.depot')}>
              <Select allowClear placeholder={t('common.all')} options={opts(options.data?.depots)} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="customerId" label={t('transportPlan.customer')}>
              <Select allowClear placeholder={t('common.all')} options={opts(options.data?.customers)} style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="keyword" label={t('transportPlan.keyword')}>
              <Input allowClear placeholder={t('transportPlan.keywordHint')} style={{ width: 180 }} />
            </Form.Item>
          </>
        }
        toolbar={() => (
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('common.add')}
            </Button>
          </AuthButton>
        )}
        tableProps={{
          expandable: { expandedRowRender: (p) => <Items plan={p} />, rowExpandable: (p) => p.items.length > 0 },
          locale: { emptyText: t('transportPlan.empty') },
          scroll: { x: 1200 },
        }}
        columns={(ctx) => [
          { title: t('transportPlan.no'), dataIndex: 'no', key: 'no', width: 190, sorter: true },
          { title: t('transportPlan.planDate'), dataIndex: 'planDate', key: 'planDate', width: 105, sorter: true },
          { title: t('transportPlan.depot'), dataIndex: 'depotName', key: 'depotName', width: 170 },
          { title: t('transportPlan.customer'), dataIndex: 'customerName', key: 'customerName', width: 100, render: (v: string) => v || '—' },
          { title: t('transportPlan.title'), dataIndex: 'title', key: 'title', width: 130 },
          {
            title: t('transportPlan.itemCount'),
            key: 'items',
            width: 150,
            render: (_: unknown, p: Plan) => t('transportPlan.itemSummary', { n: p.total, w: p.withWaybill, l: p.plannedL.toLocaleString() }),
          },
          {
            title: t('transportPlan.progress'),
            key: 'progress',
            width: 160,
            render: (_: unknown, p: Plan) => (
              <Space direction="vertical" size={0} style={{ width: '100%' }} data-testid="plan-progress">
                <Progress percent={progressPct(p.delivered, p.total)} size="small" format={() => `${p.delivered}/${p.total}`} />
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 190,
            fixed: 'right',
            render: (_: unknown, p: Plan) => (
              <Space size={4}>
                {canEdit && (
                  <Button type="link" size="small" onClick={() => setEditing(p)}>
                    {t('common.edit')}
                  </Button>
                )}
                {canMake && (
                  <Button type="link" size="small" loading={making === p.id} disabled={p.withWaybill >= p.total} onClick={() => void make(p, ctx.reload)}>
                    {t('transportPlan.makeWaybills')}
                  </Button>
                )}
                {canDelete && (
                  <Button type="link" size="small" danger onClick={() => confirmDelete(app, { run: () => planDelete(p.id), onDone: ctx.reload })}>
                    {t('common.delete')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <PlanForm
          plan={editing === 'new' ? undefined : editing}
          options={options.data}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void client.invalidateQueries({ queryKey: ['transportPlan'] });
          }}
        />
      )}
    </>
  );
}
