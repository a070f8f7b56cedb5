import { useQuery } from '@tanstack/react-query';
import { Alert, App, Col, Form, Input, Row, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../app/store';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { addCustomer, customerStations, updateCustomer, type Customer, type CustomerInput } from './api';

export interface CustomerFormValues {
  groupId?: number;
  code?: string;
  name: string;
  contact?: string;
  phone?: string;
  address?: string;
  remark?: string;
  stationIds?: number[];
}

export function toCustomerBody(v: CustomerFormValues): CustomerInput {
  const s = (x?: string) => (x ?? '').trim();
  return {
    groupId: v.groupId,
    code: s(v.code),
    name: s(v.name),
    contact: s(v.contact),
    phone: s(v.phone),
    address: s(v.address),
    remark: s(v.remark),
    stationIds: v.stationIds ?? [],
  };
}

/** Add/edit a customer with the oil stations it owns (a station owned by another customer is shown and disabled). */
export function CustomerForm({ customer, onClose, onSaved }: { customer: Customer | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CustomerFormValues>();
  const session = useAppStore((s) => s.session);
  const stations = useQuery({ queryKey: ['customerStations'], queryFn: customerStations, staleTime: 0 });

  useEffect(() => {
    form.setFieldsValue(customer ? { ...customer } : { groupId: session?.groupId, stationIds: [] });
  }, [customer, form, session]);

  const save = (v: CustomerFormValues) => (customer ? updateCustomer({ ...toCustomerBody(v), id: customer.id }) : addCustomer(toCustomerBody(v)));
  const options = (stations.data ?? []).map((s) => {
    const other = s.customerId != null && s.customerId !== customer?.id;
    return { value: s.id, label: other ? `${s.name}（${t('customer.ownedBy', { name: s.customerName })}）` : s.name, disabled: other };
  });

  return (
    <FormModal<CustomerFormValues>
      form={form}
      name="customerForm"
      title={t(customer ? 'customer.editTitle' : 'customer.addTitle')}
      isAdd={!customer}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      onInvalid={() => void message.warning(t('customer.incomplete'))}
      labelWidth={i18n.language.startsWith('en') ? 130 : 100}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="name" label={t('customer.name')} rules={[{ required: true, whitespace: true, message: t('customer.nameRequired') }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="code" label={t('customer.code')} extra={customer ? undefined : t('customer.codeHint')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="contact" label={t('customer.contact')}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label={t('customer.phone')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('customer.group')}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="address" label={t('customer.address')}>
            <Input maxLength={200} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={24}>
          {stations.isError && <Alert type="error" showIcon message={t('customer.stationsLoadFailed')} style={{ marginBottom: 12 }} />}
          <Form.Item name="stationIds" label={t('customer.stations')}>
            <Select
              mode="multiple"
              allowClear
              showSearch
              optionFilterProp="label"
              loading={stations.isLoading}
              options={options}
              notFoundContent={t('customer.noStations')}
              maxTagCount="responsive"
            />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('customer.remark')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
