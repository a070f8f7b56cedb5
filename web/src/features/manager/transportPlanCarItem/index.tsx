import { DatePicker, Form, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { itemExport, itemPage, planOptions, type ItemQuery, type PlanItem } from '../../../api/waybillLoads';
import { ListPage } from '../../../components/ListPage';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { toPlanFilters, WaybillState } from '../transportPlan';
import { STATE_COLOR } from '../transportPlan/progress';

type Filters = Omit<ItemQuery, 'pageNum' | 'pageSize'>;

/** The car items of every plan in scope with their waybill's number and state (04-27). */
export default function TransportPlanCarItemPage() {
  const { t } = useTranslation();
  const options = useQuery({ queryKey: ['planOptions'], queryFn: planOptions, staleTime: 60_000 });
  const states = [{ value: 'NONE', label: t('transportPlan.noWaybill') }, ...Object.keys(STATE_COLOR).map((s) => ({ value: s, label: t(`waybillCommon.state.${s}`) }))];
  return (
    <ListPage<PlanItem, Filters>
      queryKey="transportPlanCarItem"
      rowKey="id"
      fetch={(q) => itemPage(q as ItemQuery)}
      toFilters={(v) => toPlanFilters(v) as Filters}
      exportCode="export"
      exportRequest={itemExport}
      filters={
        <>
          <Form.Item name="range" label={t('transportPlan.planDate')}>
            <DatePicker.RangePicker />
          </Form.Item>
          <Form.Item name="carId" label={t('transportPlan.car')}>
            <VehiclePicker placeholder={t('common.all')} />
          </Form.Item>
          <Form.Item name="customerId" label={t('transportPlan.customer')}>
            <Select allowClear placeholder={t('common.all')} options={(options.data?.customers ?? []).map((c) => ({ value: c.id, label: c.name }))} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="state" label={t('transportPlan.state')}>
            <Select allowClear placeholder={t('common.all')} options={states} style={{ width: 140 }} />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1400 }, locale: { emptyText: t('transportPlanCarItem.empty') } }}
      columns={[
        { title: t('transportPlan.planDate'), dataIndex: 'planDate', key: 'planDate', width: 110, sorter: true },
        { title: t('transportPlan.no'), dataIndex: 'planNo', key: 'planNo', width: 200, sorter: true },
        { title: t('transportPlan.customer'), dataIndex: 'customerName', key: 'customerName', width: 130, render: (v: string) => v || '—' },
        { title: t('transportPlan.depot'), dataIndex: 'depotName', key: 'depotName', width: 180 },
        { title: t('transportPlan.car'), dataIndex: 'plate', key: 'plate', width: 120, sorter: true },
        { title: t('transportPlan.station'), dataIndex: 'stationName', key: 'stationName', width: 180, sorter: true },
        { title: t('transportPlan.product'), dataIndex: 'productName', key: 'productName', width: 110 },
        { title: t('transportPlan.plannedL'), dataIndex: 'plannedL', key: 'plannedL', width: 110, align: 'right', sorter: true, render: (v: number) => v.toLocaleString() },
        { title: t('transportPlan.waybillNo'), dataIndex: 'waybillNo', key: 'waybillNo', width: 200, sorter: true, render: (v: string) => v || '—' },
        { title: t('transportPlan.state'), dataIndex: 'waybillState', key: 'waybillState', width: 110, render: (s: string) => <WaybillState state={s} /> },
      ]}
    />
  );
}
