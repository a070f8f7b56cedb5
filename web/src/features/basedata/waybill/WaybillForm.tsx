import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { CrewInput } from './CrewInput';
import { addWaybill, formOptions, updateWaybill, type Compartment, type WaybillDetail, type WaybillInput } from './api';

interface FormValues {
  carId: number;
  depotId: number;
  stationIds: number[];
  customerId?: number;
  salesGroupId?: number;
  plannedLoadAt: Dayjs;
  plannedArriveAt: Dayjs;
  driverName?: string;
  driverPhone?: string;
  escortName?: string;
  escortPhone?: string;
  remark?: string;
  compartments: Compartment[];
}

const PHONE = /^\+?[0-9][0-9 -]{4,19}$/;

/** The waybill's values for the server (times as Unix ms, empty optionals as 0). */
export function toInput(v: FormValues, id?: number): WaybillInput {
  return {
    id,
    carId: v.carId,
    depotId: v.depotId,
    stationIds: v.stationIds ?? [],
    customerId: v.customerId ?? 0,
    salesGroupId: v.salesGroupId ?? 0,
    plannedLoadAt: v.plannedLoadAt?.valueOf() ?? 0,
    plannedArriveAt: v.plannedArriveAt?.valueOf() ?? 0,
    driverName: v.driverName ?? '',
    driverPhone: v.driverPhone ?? '',
    escortName: v.escortName ?? '',
    escortPhone: v.escortPhone ?? '',
    remark: v.remark ?? '',
    compartments: (v.compartments ?? []).map((c) => ({ no: c.no, productId: c.productId, plannedL: c.plannedL, destSeq: c.destSeq || 1 })),
  };
}

/** Add or edit a PLANNED waybill: car, depot, ordered destinations, compartments, times, driver and escort. */
export function WaybillForm({ editing, onClose, onSaved }: { editing: WaybillDetail | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const opts = useQuery({ queryKey: ['waybillOptions'], queryFn: formOptions });
  const o = opts.data;
  const carId = Form.useWatch('carId', form);
  const stationIds = Form.useWatch('stationIds', form) ?? [];
  const car = o?.cars.find((c) => c.id === carId);
  const maxComp = car?.compartments ?? 8;
  const noOptions = (list?: unknown[]) => (opts.isSuccess && list && list.length === 0 ? t('waybillBills.form.noOptions') : undefined);

  const initial: Partial<FormValues> = editing
    ? {
        carId: editing.carId,
        depotId: editing.depotId,
        stationIds: editing.destinations.map((d) => d.stationId),
        customerId: editing.customerId || undefined,
        salesGroupId: editing.salesGroupId || undefined,
        plannedLoadAt: dayjs(editing.plannedLoadAt),
        plannedArriveAt: dayjs(editing.plannedArriveAt),
        driverName: editing.driverName,
        driverPhone: editing.driverPhone,
        escortName: editing.escortName,
        escortPhone: editing.escortPhone,
        remark: editing.remark,
        compartments: editing.compartments,
      }
    : { compartments: [{ no: 1, productId: undefined as unknown as number, plannedL: undefined as unknown as number, destSeq: 1 }] };

  useEffect(() => {
    form.setFieldsValue(initial as FormValues);
    // once, when the dialog opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <FormModal<FormValues>
      form={form}
      name="waybill"
      title={editing ? t('waybillBills.form.editTitle', { no: editing.no }) : t('waybillBills.form.addTitle')}
      isAdd={!editing}
      width={920}
      labelWidth={110}
      onClose={onClose}
      onSaved={onSaved}
      save={(v) => (editing ? updateWaybill(toInput(v, editing.id)) : addWaybill(toInput(v)))}
    >
      {opts.isError && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={t('waybillBills.form.optionsFailed')} />}
      <div data-testid="waybill-form">
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="carId" label={t('waybillBills.car')} rules={[{ required: true, message: t('waybillBills.form.required', { field: t('waybillBills.car') }) }]} extra={noOptions(o?.cars)}>
              <Select
                showSearch
                optionFilterProp="label"
                loading={opts.isLoading}
                data-testid="wb-car"
                options={o?.cars.map((c) => ({ value: c.id, label: c.name }))}
                onChange={(id: number) => {
                  const c = o?.cars.find((x) => x.id === id);
                  if (c && !form.getFieldValue('driverName') && !form.getFieldValue('driverPhone')) {
                    form.setFieldsValue({ driverName: c.driverName, driverPhone: c.driverPhone });
                  }
                }}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="depotId" label={t('waybillBills.depot')} rules={[{ required: true, message: t('waybillBills.form.required', { field: t('waybillBills.depot') }) }]} extra={noOptions(o?.depots)}>
              <Select showSearch optionFilterProp="label" data-testid="wb-depot" options={o?.depots.map((c) => ({ value: c.id, label: c.name }))} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="stationIds"
          label={t('waybillBills.destinations')}
          extra={noOptions(o?.stations) ?? t('waybillBills.form.destOrder')}
          rules={[{ required: true, message: t('waybillBills.form.required', { field: t('waybillBills.destinations') }) }]}
        >
          <Select mode="multiple" showSearch optionFilterProp="label" maxCount={8} data-testid="wb-stations" options={o?.stations.map((c) => ({ value: c.id, label: c.name }))} />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="plannedLoadAt" label={t('waybillBills.plannedLoadAt')} rules={[{ required: true, message: t('waybillBills.form.required', { field: t('waybillBills.plannedLoadAt') }) }]}>
              <DatePicker showTime format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} data-testid="wb-load" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="plannedArriveAt"
              label={t('waybillBills.plannedArriveAt')}
              dependencies={['plannedLoadAt']}
              rules={[
                { required: true, message: t('waybillBills.form.required', { field: t('waybillBills.plannedArriveAt') }) },
                ({ getFieldValue }) => ({
                  validator: (_, v?: Dayjs) => {
                    const load = getFieldValue('plannedLoadAt') as Dayjs | undefined;
                    return !v || !load || v.isAfter(load) ? Promise.resolve() : Promise.reject(new Error(t('waybillBills.form.arriveAfterLoad')));
                  },
                }),
              ]}
            >
              <DatePicker showTime format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} data-testid="wb-arrive" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="driverName" label={t('waybillBills.driverName')} rules={[{ max: 32 }]}>
              <CrewInput form={form} role={1} nameField="driverName" phoneField="driverPhone" data-testid="wb-driver" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="driverPhone" label={t('waybillBills.driverPhone')} rules={[{ pattern: PHONE, message: t('waybillBills.form.badPhone') }]}>
              <Input allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="escortName" label={t('waybillBills.escortName')} rules={[{ max: 32 }]}>
              <CrewInput form={form} role={2} nameField="escortName" phoneField="escortPhone" data-testid="wb-escort" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="escortPhone" label={t('waybillBills.escortPhone')} rules={[{ pattern: PHONE, message: t('waybillBills.form.badPhone') }]}>
              <Input allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="customerId" label={t('waybillBills.customer')} extra={noOptions(o?.customers)}>
              <Select allowClear showSearch optionFilterProp="label" options={o?.customers.map((c) => ({ value: c.id, label: c.name }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="salesGroupId" label={t('waybillBills.salesGroup')} extra={noOptions(o?.sales)}>
              <Select allowClear showSearch optionFilterProp="label" options={o?.sales.map((c) => ({ value: c.id, label: c.name }))} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label={t('waybillBills.compartments')} required extra={noOptions(o?.products)}>
          <Form.List name="compartments">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline" style={{ display: 'flex', marginBottom: 4 }}>
                    <Form.Item name={[f.name, 'no']} rules={[{ required: true, message: t('waybillBills.form.required', { field: t('waybillBills.compNo') }) }]}>
                      <Select style={{ width: 110 }} placeholder={t('waybillBills.compNo')} options={Array.from({ length: maxComp }, (_, i) => ({ value: i + 1, label: t('waybillBills.compN', { n: i + 1 }) }))} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'productId']} rules={[{ required: true, message: t('waybillBills.form.required', { field: t('waybillBills.product') }) }]}>
                      <Select style={{ width: 200 }} showSearch optionFilterProp="label" placeholder={t('waybillBills.product')} data-testid="wb-product" options={o?.products.map((c) => ({ value: c.id, label: c.name }))} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'plannedL']} rules={[{ required: true, message: t('waybillBills.form.required', { field: t('waybillBills.plannedL') }) }]}>
                      <InputNumber min={1} max={60000} style={{ width: 150 }} placeholder={t('waybillBills.plannedL')} data-testid="wb-volume" />
                    </Form.Item>
                    <Form.Item name={[f.name, 'destSeq']}>
                      <Select
                        style={{ width: 200 }}
                        placeholder={t('waybillBills.destSeq')}
                        options={stationIds.map((id, i) => ({ value: i + 1, label: `${i + 1}. ${o?.stations.find((s) => s.id === id)?.name ?? id}` }))}
                      />
                    </Form.Item>
                    {fields.length > 1 && <MinusCircleOutlined aria-label={t('common.delete')} onClick={() => remove(f.name)} />}
                  </Space>
                ))}
                {fields.length < maxComp && (
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ no: nextNo(form.getFieldValue('compartments') as Compartment[]), destSeq: 1 })}>
                    {t('waybillBills.form.addComp')}
                  </Button>
                )}
              </>
            )}
          </Form.List>
        </Form.Item>
        <Form.Item name="remark" label={t('waybillBills.remark')} rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </div>
    </FormModal>
  );
}

function nextNo(list: Compartment[] | undefined): number {
  const used = new Set((list ?? []).map((c) => c?.no));
  for (let i = 1; i <= 8; i++) if (!used.has(i)) return i;
  return 8;
}
