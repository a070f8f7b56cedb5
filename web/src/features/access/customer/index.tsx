import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { deleteCustomer, pageCustomers, type Customer, type CustomerQuery } from './api';
import { CustomerForm } from './CustomerForm';

type Filters = Omit<CustomerQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** 客户管理 (access/customer): customers and the oil stations they own. */
export default function CustomerPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ customer: Customer | null } | null>(null);

  return (
    <ListPage<Customer, Filters>
      queryKey="customer"
      rowKey="id"
      fetch={pageCustomers}
      filters={
        <>
          <Form.Item name="name" label={t('customer.search')}>
            <Input allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="groupId" label={t('customer.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ customer: null })}>
              {t('customer.addTitle')}
            </Button>
          </AuthButton>
          {editing && (
            <CustomerForm
              customer={editing.customer}
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
        { title: t('customer.code'), dataIndex: 'code', key: 'code', sorter: true, width: 140 },
        { title: t('customer.name'), dataIndex: 'name', key: 'name', sorter: true, width: 180, ellipsis: true },
        {
          title: t('customer.stations'),
          key: 'stations',
          width: 320,
          render: (_, c) => {
            const names = c.stationNames ?? [];
            if (!names.length) return <span className="tw-muted">{t('customer.noStations')}</span>;
            return (
              <Tooltip title={names.join(t('common.listSeparator'))}>
                <Space size={[0, 4]} wrap>
                  {names.slice(0, 2).map((n) => (
                    <Tag key={n}>{n}</Tag>
                  ))}
                  {names.length > 2 && <Tag color="blue">{t('customer.stationsCount', { n: names.length })}</Tag>}
                </Space>
              </Tooltip>
            );
          },
        },
        { title: t('customer.contact'), dataIndex: 'contact', key: 'contact', sorter: true, width: 100 },
        { title: t('customer.phone'), dataIndex: 'phone', key: 'phone', width: 130 },
        { title: t('customer.cars'), dataIndex: 'cars', key: 'cars', sorter: true, width: 100 },
        { title: t('customer.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 130, ellipsis: true },
        { title: t('customer.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 130,
          render: (_, c) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ customer: c })}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => deleteCustomer(c.id)} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
