import { useQuery } from '@tanstack/react-query';
import { App, Col, Form, Input, Row, Space, Tag, TreeSelect } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Group } from '../../../api/types';
import { FormModal } from '../../../components/FormModal';
import { toGroupOptions, useGroupTree } from './groupTree';
import { addSalesCompany, bindCarriers, findSalesPairs } from './salesApi';

/** The carriers bound to a sales company (tags), or a muted "none". */
export function CarrierTags({ salesGroupId }: { salesGroupId: number }) {
  const { t } = useTranslation();
  const pairs = useQuery({ queryKey: ['salesPairs', salesGroupId], queryFn: () => findSalesPairs({ salesGroupId }) });
  if (pairs.isLoading) return <span className="tw-muted">{t('common.loading')}</span>;
  if (pairs.isError) return <span className="tw-muted">{t('common.requestFailed')}</span>;
  const list = pairs.data ?? [];
  if (!list.length) return <span className="tw-muted">{t('salesCompany.none')}</span>;
  return (
    <Space size={[0, 4]} wrap>
      {list.map((p) => (
        <Tag key={p.transGroupId}>{p.transGroupName}</Tag>
      ))}
    </Space>
  );
}

interface SalesValues {
  name: string;
  code?: string;
  contact?: string;
  phone?: string;
  address?: string;
  carriers?: number[];
}

/** Creates a sales company under `parent` and binds its carriers. */
export function SalesCompanyForm({ parent, onClose, onSaved }: { parent: Group; onClose: () => void; onSaved: (g: Group) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SalesValues>();
  const groups = useGroupTree();
  const save = async (v: SalesValues) => {
    const s = (x?: string) => (x ?? '').trim();
    const g = await addSalesCompany({ parentId: parent.id, name: s(v.name), code: s(v.code), contact: s(v.contact), phone: s(v.phone), address: s(v.address) });
    if (v.carriers?.length) await bindCarriers(g.id, v.carriers);
    return g;
  };
  return (
    <FormModal<SalesValues>
      form={form}
      name="salesCompanyForm"
      title={t('salesCompany.add')}
      isAdd
      save={async (v) => onSaved(await save(v))}
      onClose={onClose}
      onSaved={() => undefined}
      onInvalid={() => void message.warning(t('salesCompany.nameRequired'))}
      width={640}
      labelWidth={120}
    >
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item label={t('salesCompany.parent')}>
            <Input value={parent.name} disabled />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="name" label={t('salesCompany.name')} rules={[{ required: true, whitespace: true, message: t('salesCompany.nameRequired') }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="code" label={t('salesCompany.code')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="contact" label={t('salesCompany.contact')}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label={t('salesCompany.phone')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="address" label={t('salesCompany.address')}>
            <Input maxLength={200} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="carriers" label={t('salesCompany.carriers')}>
            <TreeSelect multiple allowClear treeData={toGroupOptions(groups.data)} treeDefaultExpandAll showSearch treeNodeFilterProp="title" />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}

/** Replaces the carriers of a sales company. */
export function BindCarriersForm({ sales, onClose, onSaved }: { sales: Group; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ carriers: number[] }>();
  const groups = useGroupTree();
  const pairs = useQuery({ queryKey: ['salesPairs', sales.id], queryFn: () => findSalesPairs({ salesGroupId: sales.id }) });
  useEffect(() => {
    if (pairs.data) form.setFieldsValue({ carriers: pairs.data.map((p) => p.transGroupId) });
  }, [pairs.data, form]);
  return (
    <FormModal<{ carriers: number[] }>
      form={form}
      name="bindCarriersForm"
      title={t('salesCompany.bindTitle', { name: sales.name })}
      isAdd={false}
      save={(v) => bindCarriers(sales.id, v.carriers ?? [])}
      onClose={onClose}
      onSaved={onSaved}
      width={600}
      labelWidth={100}
    >
      <Form.Item name="carriers" label={t('salesCompany.carriers')}>
        <TreeSelect multiple allowClear loading={pairs.isLoading} treeData={toGroupOptions(groups.data)} treeDefaultExpandAll showSearch treeNodeFilterProp="title" />
      </Form.Item>
    </FormModal>
  );
}
