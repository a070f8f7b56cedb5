import { Alert, Button, Card, Descriptions, Form, InputNumber, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getVtV20, type V20Query, type V20Result } from '../../../api/tankMonitor';
import { PRODUCTS } from '../../../api/tankInfo';


/** The V20 calculator (getVtV20): Vt at a temperature of a product → VCF20, V20 and mass, for a load ticket. */
export function V20Panel({ preset }: { preset?: Partial<V20Query> & { key: number } }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V20Query>();
  const [result, setResult] = useState<V20Result | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!preset) return;
    form.setFieldsValue({ vt: preset.vt, temperature: preset.temperature, product: preset.product });
    setResult(null);
    setError('');
  }, [preset, form]);

  const run = async (v: V20Query) => {
    setBusy(true);
    setError('');
    try {
      setResult(await getVtV20({ vt: v.vt ?? null, temperature: v.temperature ?? null, density20: v.density20 ?? 0, product: v.product ?? null }));
    } catch (e) {
      setResult(null);
      setError((e as Error).message || t('common.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title={t('tankMonitor.v20Title')} data-testid="v20-panel">
      <Form<V20Query> form={form} layout="vertical" onFinish={(v) => void run(v)} initialValues={{ product: 0, density20: 0 }}>
        <Form.Item name="product" label={t('tankMonitor.product')}>
          <Select options={PRODUCTS.map((p) => ({ value: p, label: t(`tankInfo.productName.${p}`) }))} />
        </Form.Item>
        <Form.Item name="vt" label={t('tankMonitor.vt')}>
          <InputNumber style={{ width: '100%' }} addonAfter="L" data-testid="v20-vt" />
        </Form.Item>
        <Form.Item name="temperature" label={t('tankMonitor.temperature')}>
          <InputNumber style={{ width: '100%' }} addonAfter="°C" data-testid="v20-temp" />
        </Form.Item>
        <Form.Item name="density20" label={t('tankMonitor.density20')} extra={t('tankMonitor.density20Hint')}>
          <InputNumber style={{ width: '100%' }} addonAfter="kg/m³" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block data-testid="v20-run">
          {t('tankMonitor.compute')}
        </Button>
      </Form>
      {error && <Alert style={{ marginTop: 12 }} type="warning" showIcon message={error} data-testid="v20-error" />}
      {result && (
        <Descriptions style={{ marginTop: 12 }} size="small" column={1} bordered data-testid="v20-result">
          <Descriptions.Item label="VCF20">{result.vcf20.toFixed(5)}</Descriptions.Item>
          <Descriptions.Item label={t('tankMonitor.v20')}>{result.v20.toLocaleString('en-US')} L</Descriptions.Item>
          <Descriptions.Item label={t('tankMonitor.mass')}>{result.converted ? `${result.massKg.toLocaleString('en-US')} kg` : '—'}</Descriptions.Item>
          <Descriptions.Item label={t('tankMonitor.density20')}>{result.density20 ? `${result.density20} kg/m³` : '—'}</Descriptions.Item>
          {!result.converted && <Descriptions.Item label={t('tankMonitor.note')}>{t('tankMonitor.notConverted')}</Descriptions.Item>}
        </Descriptions>
      )}
    </Card>
  );
}
