import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { planAdd, planUpdate, type Plan, type PlanInput, type PlanOptions } from '../../../api/waybillLoads';
import { FormModal } from '../../../components/FormModal';
import { CarSelect } from './CarSelect';

interface ItemValues {
  id?: number;
  carId?: number;
  stationId?: number;
  productId?: number;
  plannedL?: number;
  remark?: string;
}

interface Values {
  planDate: Dayjs;
  depotId: number;
  customerId?: number;
  title?: string;
  remark?: string;
  items: ItemValues[];
}

/** The values sent: dates as YYYY-MM-DD, items as entered (existing ones keep their id). */
export function toInput(v: Values, id?: number): PlanInput {
  return {
    id,
    planDate: v.planDate.format('YYYY-MM-DD'),
    depotId: v.depotId,
    customerId: v.customerId || undefined,
    title: v.title?.trim(),
    remark: v.remark?.trim(),
    items: (v.items ?? []).map((it) => ({ id: it.id, carId: it.carId!, stationId: it.stationId!, productId: it.productId!, plannedL: it.plannedL!, remark: it.remark })),
  };
}

export function PlanForm({ plan, options, onClose, onSaved }: { plan?: Plan; options?: PlanOptions; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const initial: Partial<Values> = plan
    ? {
        planDate: dayjs(plan.planDate),
        depotId: plan.depotId,
        customerId: plan.customerId || undefined,
        title: plan.title,
        remark: plan.remark,
        items: plan.items.map((i) => ({ id: i.id, carId: i.carId, stationId: i.stationId, productId: i.productId, plannedL: i.plannedL, remark: i.remark })),
      }
    : { planDate: dayjs(), items: [{}] };
  const locked = new Map((plan?.items ?? []).filter((i) => i.waybillId > 0).map((i) => [i.id, i]));
  const plates = new Map((plan?.items ?? []).map((i) => [i.id, { id: i.carId, plate: i.plate }]));
  const opts = (list: { id: number; name: string }[] = []) => list.map((o) => ({ value: o.id, label: o.name }));
  const required = (key: string) => [{ required: true, message: t('transportPlan.required', { field: t(key) }) }];
  return (
    <FormModal<Values>
      form={form}
      name="transportPlan"
      title={t(plan ? 'transportPlan.editTitle' : 'transportPlan.addTitle')}
      isAdd={!plan}
      width={980}
      save={(v) => (plan ? planUpdate(toInput(v, plan.id)) : planAdd(toInput(v)))}
      onClose={onClose}
      onSaved={onSaved}
    >
      <Form.Item noStyle>
        <Space wrap size={[16, 0]}>
          <Form.Item name="planDate" label={t('transportPlan.planDate')} rules={required('transportPlan.planDate')} initialValue={initial.planDate}>
            <DatePicker allowClear={false} />
          </Form.Item>
          <Form.Item name="depotId" label={t('transportPlan.depot')} rules={required('transportPlan.depot')} initialValue={initial.depotId}>
            <Select options={opts(options?.depots)} style={{ width: 220 }} showSearch optionFilterProp="label" placeholder={t('transportPlan.depot')} />
          </Form.Item>
          <Form.Item name="customerId" label={t('transportPlan.customer')} initialValue={initial.customerId}>
            <Select allowClear options={opts(options?.customers)} style={{ width: 200 }} placeholder={t('transportPlan.customerNone')} />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item name="title" label={t('transportPlan.title')} initialValue={initial.title}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="remark" label={t('transportPlan.remark')} initialValue={initial.remark}>
        <Input maxLength={200} />
      </Form.Item>
      <Typography.Text strong>{t('transportPlan.items')}</Typography.Text>
      <Form.List name="items" initialValue={initial.items}>
        {(fields, { add, remove }) => (
          <div style={{ marginTop: 8 }}>
            {fields.map((f) => {
              const id = form.getFieldValue(['items', f.name, 'id']) as number | undefined;
              const lockedItem = id ? locked.get(id) : undefined;
              return (
                <Space key={f.key} align="baseline" wrap data-testid="plan-item">
                  <Form.Item name={[f.name, 'id']} hidden>
                    <Input />
                  </Form.Item>
                  <Form.Item name={[f.name, 'carId']} rules={required('transportPlan.car')}>
                    <CarSelect known={id ? plates.get(id) : undefined} disabled={!!lockedItem} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'stationId']} rules={required('transportPlan.station')}>
                    <Select data-testid="plan-station" options={opts(options?.stations)} style={{ width: 200 }} showSearch optionFilterProp="label" placeholder={t('transportPlan.station')} disabled={!!lockedItem} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'productId']} rules={required('transportPlan.product')}>
                    <Select data-testid="plan-product" options={opts(options?.products)} style={{ width: 150 }} placeholder={t('transportPlan.product')} disabled={!!lockedItem} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'plannedL']} rules={required('transportPlan.plannedL')}>
                    <InputNumber data-testid="plan-litres" min={1} max={60000} precision={0} placeholder={t('transportPlan.plannedL')} style={{ width: 130 }} disabled={!!lockedItem} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'remark']}>
                    <Input placeholder={t('transportPlan.remark')} style={{ width: 120 }} maxLength={200} />
                  </Form.Item>
                  {lockedItem ? (
                    <Tag color="blue">{lockedItem.waybillNo}</Tag>
                  ) : (
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} onClick={() => remove(f.name)} />
                  )}
                </Space>
              );
            })}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} block>
              {t('transportPlan.addItem')}
            </Button>
          </div>
        )}
      </Form.List>
    </FormModal>
  );
}
