import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Descriptions, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { loadSave, type LoadDetail, type LoadInput, type LoadOptions, type LoadProduct } from '../../../api/waybillLoads';
import { FormModal } from '../../../components/FormModal';
import { computeV20 } from '../../../lib/v20';

interface ItemValues {
  compartment?: number;
  productId?: number;
  vtL?: number;
  tempC?: number;
  density20?: number;
  sealNo?: string;
}

interface Values {
  waybillId: number;
  ticketNo?: string;
  loadedAt: Dayjs;
  remark?: string;
  items: ItemValues[];
}

export function toLoadInput(v: Values): LoadInput {
  return {
    waybillId: v.waybillId,
    ticketNo: v.ticketNo?.trim(),
    loadedAt: v.loadedAt.valueOf(),
    remark: v.remark?.trim(),
    items: (v.items ?? []).map((i) => ({ compartment: i.compartment!, productId: i.productId, vtL: i.vtL!, tempC: i.tempC!, density20: i.density20 || 0, sealNo: i.sealNo?.trim() })),
  };
}

/** The live figures of the entered compartments (those with a product, volume and temperature). */
export function liveFigures(items: ItemValues[] | undefined, products: LoadProduct[]) {
  const rows = (items ?? []).map((i) => {
    const p = products.find((x) => x.id === i.productId);
    if (!p || i.vtL == null || i.tempC == null) return null;
    return computeV20(p, i.vtL, i.tempC, i.density20 ?? 0);
  });
  const total = rows.reduce((s, r) => ({ v20L: s.v20L + (r?.v20L ?? 0), massT: s.massT + (r?.massT ?? 0) }), { v20L: 0, massT: 0 });
  return { rows, v20L: Math.round(total.v20L * 10) / 10, massT: Math.round(total.massT * 1000) / 1000 };
}

export function RecordForm({ record, options, onClose, onSaved }: { record?: LoadDetail; options?: LoadOptions; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const items = Form.useWatch('items', form);
  const products = options?.products ?? [];
  const figures = liveFigures(items, products);
  const waybills = options?.waybills ?? [];
  const initial: Partial<Values> = record
    ? {
        waybillId: record.waybillId,
        ticketNo: record.ticketNo,
        loadedAt: dayjs(record.loadedAt),
        remark: record.remark,
        items: record.itemList.map((i) => ({ compartment: i.compartment, productId: i.productId, vtL: i.vtL, tempC: i.tempC, density20: i.density20, sealNo: i.sealNo })),
      }
    : { loadedAt: dayjs(), items: [] };
  const pick = (id: number) => {
    const w = waybills.find((x) => x.id === id);
    if (!w || record) return;
    const comps = w.compartments.length > 0 ? w.compartments : Array.from({ length: w.carCompartments }, (_, i) => ({ no: i + 1, productId: 0, plannedL: 0 }));
    form.setFieldValue(
      'items',
      comps.map((c) => ({ compartment: c.no, productId: c.productId || undefined, vtL: c.plannedL || undefined, tempC: undefined, sealNo: '' })),
    );
  };
  const required = (key: string) => [{ required: true, message: t('loadRecord.required', { field: t(key) }) }];
  const waybillOptions = waybills.map((w) => ({ value: w.id, label: `${w.no} · ${w.plate} · ${t(`waybillCommon.state.${w.state}`)}` }));
  if (record && !waybills.some((w) => w.id === record.waybillId)) waybillOptions.unshift({ value: record.waybillId, label: `${record.waybillNo} · ${record.plate}` });
  return (
    <FormModal<Values>
      form={form}
      name="loadRecord"
      title={t(record ? 'loadRecord.editTitle' : 'loadRecord.addTitle')}
      isAdd={!record}
      width={1160}
      labelWidth={110}
      save={(v) => loadSave(toLoadInput(v))}
      onClose={onClose}
      onSaved={onSaved}
    >
      <Form.Item name="waybillId" label={t('loadRecord.waybill')} rules={required('loadRecord.waybill')} initialValue={initial.waybillId} extra={t('loadRecord.waybillHint')}>
        <Select data-testid="load-waybill" showSearch optionFilterProp="label" options={waybillOptions} onChange={pick} disabled={!!record} placeholder={t('loadRecord.waybillPick')} />
      </Form.Item>
      <Space wrap size={[16, 0]}>
        <Form.Item name="ticketNo" label={t('loadRecord.ticketNo')} initialValue={initial.ticketNo}>
          <Input maxLength={64} placeholder={t('loadRecord.ticketAuto')} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="loadedAt" label={t('loadRecord.loadedAt')} rules={required('loadRecord.loadedAt')} initialValue={initial.loadedAt}>
          <DatePicker showTime allowClear={false} />
        </Form.Item>
      </Space>
      <div style={{ marginBottom: 4 }}>
        <Typography.Text strong>{t('loadRecord.items')}</Typography.Text>
      </div>
      <Form.List name="items" initialValue={initial.items}>
        {(fields, { add, remove }) => (
          <div style={{ marginTop: 8 }}>
            {fields.map((f, idx) => {
              const fig = figures.rows[idx];
              return (
                <Space key={f.key} align="baseline" size={6} data-testid="load-item">
                  <Form.Item name={[f.name, 'compartment']} rules={required('loadRecord.compartment')}>
                    <InputNumber min={1} max={8} precision={0} addonBefore={t('loadRecord.compartmentShort')} style={{ width: 100 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'productId']} rules={required('loadRecord.product')}>
                    <Select options={products.map((p) => ({ value: p.id, label: p.name }))} placeholder={t('loadRecord.product')} style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'vtL']} rules={required('loadRecord.vt')}>
                    <InputNumber data-testid="load-vt" min={0.1} max={60000} placeholder={t('loadRecord.vt')} style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'tempC']} rules={required('loadRecord.temp')}>
                    <InputNumber data-testid="load-temp" min={-40} max={80} placeholder={t('loadRecord.temp')} style={{ width: 100 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'density20']}>
                    <InputNumber min={500} max={1100} placeholder={t('loadRecord.density')} style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'sealNo']}>
                    <Input data-testid="load-seal" maxLength={32} placeholder={t('loadRecord.sealNo')} style={{ width: 120 }} />
                  </Form.Item>
                  <Typography.Text type="secondary" data-testid="load-live" style={{ display: 'inline-block', minWidth: 190 }}>
                    {fig ? t('loadRecord.live', { v20: fig.v20L.toFixed(1), mass: fig.massT.toFixed(3), vcf: fig.vcf20.toFixed(5) }) : '—'}
                  </Typography.Text>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} onClick={() => remove(f.name)} />
                </Space>
              );
            })}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} block>
              {t('loadRecord.addItem')}
            </Button>
          </div>
        )}
      </Form.List>
      <Descriptions size="small" column={2} style={{ marginTop: 12 }} data-testid="load-total">
        <Descriptions.Item label={t('loadRecord.totalV20')}>{figures.v20L.toFixed(1)} L</Descriptions.Item>
        <Descriptions.Item label={t('loadRecord.totalMass')}>{figures.massT.toFixed(3)} t</Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('loadRecord.formula')}
      </Typography.Paragraph>
      <Form.Item name="remark" label={t('loadRecord.remark')} initialValue={initial.remark}>
        <Input maxLength={200} />
      </Form.Item>
    </FormModal>
  );
}
