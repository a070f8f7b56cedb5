import { App, Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import type { Customer } from '../customer/api';
import { addCustomerCar, PLATE_RE, updateCustomerCar, type CustomerCar, type CustomerCarInput } from './api';

export interface CarFormValues {
  customerId: number;
  plate: string;
  carType?: string;
  capacityL?: number | null;
  compartments?: number | null;
  driverName?: string;
  driverPhone?: string;
  remark?: string;
}

export function toCarBody(v: CarFormValues): CustomerCarInput {
  const s = (x?: string) => (x ?? '').trim();
  return {
    customerId: v.customerId,
    plate: s(v.plate).toUpperCase(),
    carType: s(v.carType),
    capacityL: v.capacityL ?? 0,
    compartments: v.compartments ?? 1,
    driverName: s(v.driverName),
    driverPhone: s(v.driverPhone),
    remark: s(v.remark),
  };
}

/** Add/edit a customer's car: plate as the car registry checks it, capacity, compartments, driver. */
export function CarForm({ car, customers, onClose, onSaved }: { car: CustomerCar | null; customers: Customer[]; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CarFormValues>();

  useEffect(() => {
    form.setFieldsValue(car ? { ...car } : { compartments: 1, customerId: customers.length === 1 ? customers[0].id : undefined });
  }, [car, form, customers]);

  const save = (v: CarFormValues) => (car ? updateCustomerCar({ ...toCarBody(v), id: car.id }) : addCustomerCar(toCarBody(v)));

  return (
    <FormModal<CarFormValues>
      form={form}
      name="customerCarForm"
      title={t(car ? 'customerCar.editTitle' : 'customerCar.addTitle')}
      isAdd={!car}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      onInvalid={() => void message.warning(t('customerCar.incomplete'))}
      labelWidth={i18n.language.startsWith('en') ? 130 : 110}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="customerId" label={t('customerCar.customer')} rules={[{ required: true, message: t('customerCar.customerRequired') }]}>
            <Select showSearch optionFilterProp="label" options={customers.map((c) => ({ value: c.id, label: `${c.name}（${c.code}）` }))} notFoundContent={t('customerCar.noCustomers')} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="plate"
            label={t('customerCar.plate')}
            validateTrigger="onBlur"
            rules={[
              { required: true, whitespace: true, message: t('customerCar.plateRequired') },
              { validator: (_, v?: string) => (!v || PLATE_RE.test(v.trim().toUpperCase()) ? Promise.resolve() : Promise.reject(new Error(t('customerCar.plateInvalid')))) },
            ]}
          >
            <Input maxLength={16} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="carType" label={t('customerCar.carType')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="capacityL" label={t('customerCar.capacityL')}>
            <InputNumber min={0} max={100000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="compartments" label={t('customerCar.compartments')}>
            <InputNumber min={1} max={8} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="driverName" label={t('customerCar.driverName')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="driverPhone" label={t('customerCar.driverPhone')} rules={[{ pattern: /^1\d{10}$/, message: t('customerCar.phoneInvalid') }]}>
            <Input maxLength={11} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('customerCar.remark')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
