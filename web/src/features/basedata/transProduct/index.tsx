import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { deleteProduct, pageProducts, PRODUCTS, type Product, type ProductQuery } from './api';
import { ProductForm } from './ProductForm';

type Filters = Omit<ProductQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** 油品管理 (basedata/transProduct): the products waybills, plans and load records name. */
export default function TransProductPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ product: Product | null } | null>(null);
  const fmtK = (v: number | null) => (v == null ? null : v.toFixed(4));

  return (
    <ListPage<Product, Filters>
      queryKey="transProduct"
      rowKey="id"
      fetch={pageProducts}
      filters={
        <>
          <Form.Item name="name" label={t('transProduct.search')}>
            <Input allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="product" label={t('transProduct.product')}>
            <Select allowClear style={{ width: 150 }} placeholder={t('common.all')} options={PRODUCTS.map((p) => ({ value: p, label: t(`transProduct.productName.${p}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('transProduct.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ product: null })}>
              {t('transProduct.addTitle')}
            </Button>
          </AuthButton>
          {editing && (
            <ProductForm
              product={editing.product}
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
        { title: t('transProduct.code'), dataIndex: 'code', key: 'code', sorter: true, width: 110 },
        { title: t('transProduct.name'), dataIndex: 'name', key: 'name', sorter: true, width: 150, ellipsis: true },
        { title: t('transProduct.grade'), dataIndex: 'grade', key: 'grade', sorter: true, width: 100 },
        { title: t('transProduct.product'), dataIndex: 'product', key: 'product', sorter: true, width: 120, render: (v: number) => t(`transProduct.productName.${v}`) },
        { title: t('transProduct.family'), dataIndex: 'family', key: 'family', sorter: true, width: 140, render: (v: number) => t(`transProduct.familyName.${v}`) },
        { title: t('transProduct.density20'), dataIndex: 'density20', key: 'density20', sorter: true, width: 170, render: (v: number) => (v ? v.toFixed(1) : '—') },
        {
          title: 'K0 / K1',
          key: 'k',
          width: 170,
          render: (_, p) => (p.k0 == null ? <Tag>{t('transProduct.kDefault')}</Tag> : <Tag color="blue">{`${fmtK(p.k0)} / ${fmtK(p.k1)}`}</Tag>),
        },
        { title: t('transProduct.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 140, ellipsis: true },
        { title: t('transProduct.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 130,
          render: (_, p) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ product: p })}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => deleteProduct(p.id)} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
