import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage } from '../../../components/ListPage';
import { listCustomers } from '../customer/api';
import { deleteCustomerCar, pageCustomerCars, type CustomerCar, type CustomerCarQuery } from './api';
import { CarForm } from './CarForm';

type Filters = Omit<CustomerCarQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** 客户车辆 (access/customerCar): the customers' own cars. */
export default function CustomerCarPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ car: CustomerCar | null } | null>(null);
  const customers = useQuery({ queryKey: ['customerList'], queryFn: listCustomers });
  const customerOptions = (customers.data ?? []).map((c) => ({ value: c.id, label: c.name }));

  return (
    <ListPage<CustomerCar, Filters>
      queryKey="customerCar"
      rowKey="id"
      fetch={pageCustomerCars}
      filters={
        <>
          <Form.Item name="customerId" label={t('customerCar.customer')}>
            <Select allowClear showSearch optionFilterProp="label" style={{ width: 200 }} placeholder={t('common.all')} options={customerOptions} loading={customers.isLoading} />
          </Form.Item>
          <Form.Item name="plate" label={t('customerCar.plate')}>
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="driverName" label={t('customerCar.driverName')}>
            <Input allowClear style={{ width: 130 }} />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ car: null })}>
              {t('customerCar.addTitle')}
            </Button>
          </AuthButton>
          {editing && (
            <CarForm
              car={editing.car}
              customers={customers.data ?? []}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                reload();
              }}
            />
          )}
        </>
      )}
      columns={({ reload }) => [
        { title: t('customerCar.plate'), dataIndex: 'plate', key: 'plate', sorter: true, width: 130 },
        { title: t('customerCar.customer'), dataIndex: 'customerName', key: 'customerName', sorter: true, width: 180, ellipsis: true },
        { title: t('customerCar.carType'), dataIndex: 'carType', key: 'carType', sorter: true, width: 110 },
        { title: t('customerCar.capacityL'), dataIndex: 'capacityL', key: 'capacityL', sorter: true, width: 140, render: (v: number) => (v ? v.toLocaleString() : '—') },
        { title: t('customerCar.compartments'), dataIndex: 'compartments', key: 'compartments', sorter: true, width: 90 },
        { title: t('customerCar.driverName'), dataIndex: 'driverName', key: 'driverName', sorter: true, width: 100 },
        { title: t('customerCar.driverPhone'), dataIndex: 'driverPhone', key: 'driverPhone', width: 130 },
        { title: t('customerCar.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 130,
          render: (_, c) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ car: c })}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => deleteCustomerCar(c.id)} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
