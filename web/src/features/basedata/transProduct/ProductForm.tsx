import { App, Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { useAppStore } from '../../../app/store';
import { addProduct, defaultDensity, FAMILIES, familyOf, PRODUCTS, updateProduct, type Product, type ProductInput } from './api';

export interface ProductFormValues {
  groupId?: number;
  code: string;
  name: string;
  grade?: string;
  product: number;
  family: number;
  density20?: number | null;
  k0?: number | null;
  k1?: number | null;
  remark?: string;
}

export function toProductBody(v: ProductFormValues): ProductInput {
  return {
    groupId: v.groupId,
    code: v.code.trim(),
    name: v.name.trim(),
    grade: (v.grade ?? '').trim(),
    product: v.product,
    family: v.family,
    density20: v.density20 ?? 0,
    k0: v.k0 ?? null,
    k1: v.k1 ?? null,
    remark: (v.remark ?? '').trim(),
  };
}

/** Add/edit a product: fuel type sets the family and typical density, which can be changed; K0/K1 both or neither. */
export function ProductForm({ product, onClose, onSaved }: { product: Product | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ProductFormValues>();
  const session = useAppStore((s) => s.session);
  const english = i18n.language.startsWith('en');

  useEffect(() => {
    form.setFieldsValue(
      product
        ? { ...product, k0: product.k0, k1: product.k1 }
        : { groupId: session?.groupId, product: 0, family: familyOf(0), density20: defaultDensity(0) },
    );
  }, [product, form, session]);

  const save = (v: ProductFormValues) => (product ? updateProduct({ ...toProductBody(v), id: product.id }) : addProduct(toProductBody(v)));

  const kRule = ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
    validator: () => {
      const a = getFieldValue('k0');
      const b = getFieldValue('k1');
      return (a == null) === (b == null) ? Promise.resolve() : Promise.reject(new Error(t('transProduct.kPair')));
    },
  });

  return (
    <FormModal<ProductFormValues>
      form={form}
      name="productForm"
      title={t(product ? 'transProduct.editTitle' : 'transProduct.addTitle')}
      isAdd={!product}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      onInvalid={() => void message.warning(t('transProduct.incomplete'))}
      labelWidth={english ? 150 : 130}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="name" label={t('transProduct.name')} rules={[{ required: true, whitespace: true, message: t('transProduct.nameRequired') }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="code"
            label={t('transProduct.code')}
            extra={t('transProduct.codeHint')}
            rules={[
              { required: true, whitespace: true, message: t('transProduct.codeRequired') },
              { pattern: /^[A-Za-z0-9#_.-]{1,32}$/, message: t('transProduct.codeHint') },
            ]}
          >
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="product" label={t('transProduct.product')} rules={[{ required: true, message: t('transProduct.productRequired') }]}>
            <Select
              options={PRODUCTS.map((p) => ({ value: p, label: t(`transProduct.productName.${p}`) }))}
              onChange={(p: number) => form.setFieldsValue({ family: familyOf(p), density20: defaultDensity(p) || null })}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="grade" label={t('transProduct.grade')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="family" label={t('transProduct.family')} rules={[{ required: true }]}>
            <Select options={FAMILIES.map((f) => ({ value: f, label: t(`transProduct.familyName.${f}`) }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="density20" label={t('transProduct.density20')} extra={t('transProduct.densityHint')}>
            <InputNumber min={500} max={1100} step={0.1} precision={1} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="k0" label={t('transProduct.k0')} extra={t('transProduct.kHint')} dependencies={['k1']} rules={[kRule]}>
            <InputNumber min={0.0001} max={2000} step={0.0001} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="k1" label={t('transProduct.k1')} dependencies={['k0']} rules={[kRule]}>
            <InputNumber min={0} max={10} step={0.0001} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('transProduct.group')}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('transProduct.remark')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
