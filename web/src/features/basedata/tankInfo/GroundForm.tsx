import { Alert, App, Col, Divider, Form, Input, InputNumber, Modal, Row, Select, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../components/AuthButton';
import { addGround, getGround, PRODUCTS, updateGround, type GroundInput, type GroundTank, type StationOption } from '../../../api/tankInfo';
import { MAX_CAPACITY, MAX_DENSITY, MAX_HEIGHT, MIN_DENSITY, densityOk } from './fields';
import { gaugeProblem } from './gauge';
import { checkRows, fromStrap, toStrap, type EditRow } from './strap';
import { StrapEditor } from './StrapEditor';

export type GroundTarget = { mode: 'add'; stationId?: number } | { mode: 'edit'; id: number };

type Values = Omit<GroundInput, 'strap'>;

const DEFAULTS: Partial<Values> = { product: 0, lowStockPct: 15, coverDaysMin: 2, waterMaxMm: 30, density20: 0 };

/** Add or edit a ground tank: its fields, the strapping table with its curve, the gauge and thresholds. */
export function GroundForm({ target, stations, onClose, onSaved }: { target: GroundTarget; stations: StationOption[]; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [tank, setTank] = useState<GroundTank | null>(null);
  const [rows, setRows] = useState<EditRow[]>([]);
  const [stored, setStored] = useState<EditRow[]>([]);
  const [saving, setSaving] = useState(false);
  const [tableError, setTableError] = useState(false);
  const capacity = Form.useWatch('capacity', form);
  const isAdd = target.mode === 'add';
  const canEdit = useAuth('edit');
  // the parent's callback changes on every render of the list: load once per target, not per render
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    if (target.mode === 'edit') {
      getGround(target.id).then(
        (g) => {
          setTank(g);
          form.setFieldsValue(g);
          setRows(fromStrap(g.strap));
          setStored(fromStrap(g.strap));
        },
        () => closeRef.current(),
      );
    } else {
      form.setFieldsValue({ ...DEFAULTS, stationId: target.stationId });
    }
  }, [target, form]);

  const rowsDirty = useMemo(() => JSON.stringify(rows) !== JSON.stringify(stored), [rows, stored]);
  const close = () => {
    if (!rowsDirty && !form.isFieldsTouched()) return onClose();
    modal.confirm({ title: t('tankInfo.discardTitle'), content: t('tankInfo.discardText'), okText: t('tankInfo.discard'), cancelText: t('common.cancel'), okButtonProps: { danger: true }, onOk: onClose });
  };

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (checkRows(rows).length > 0) {
      setTableError(true);
      return;
    }
    setTableError(false);
    setSaving(true);
    try {
      const body: GroundInput = { ...v, gaugeHost: (v.gaugeHost ?? '').trim(), gaugePort: v.gaugePort ?? 0, gaugeTank: v.gaugeTank ?? 0, name: v.name ?? '', strap: toStrap(rows) };
      if (target.mode === 'edit') await updateGround({ ...body, id: target.id });
      else await addGround(body);
      void message.success(t(isAdd ? 'common.addSuccess' : 'common.modifySuccess'));
      onSaved();
    } catch {
      // shown by the client
    } finally {
      setSaving(false);
    }
  };

  const gaugeRule = {
    validator: () => {
      const p = gaugeProblem(form.getFieldValue('gaugeHost'), form.getFieldValue('gaugePort'), form.getFieldValue('gaugeTank'));
      return p ? Promise.reject(new Error(t(`tankInfo.gauge.${p}`))) : Promise.resolve();
    },
  };
  const range = (min: number, max: number) => ({ type: 'number' as const, min, max, message: t('tankInfo.rangeError', { min, max }) });

  return (
    <Modal
      open
      width={1180}
      title={isAdd ? t('tankInfo.addTank') : t('tankInfo.editTank', { name: tank ? `${tank.stationName} #${tank.tankNo}` : '' })}
      onCancel={close}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ style: canEdit ? undefined : { display: 'none' }, ...({ 'data-testid': 'ground-save' } as object) }}
      maskClosable={false}
      destroyOnHidden
    >
      {!isAdd && !tank ? (
        <div style={{ textAlign: 'center', padding: 48 }}>
          <Spin />
        </div>
      ) : (
        <Form<Values> form={form} layout="vertical" name="groundTank" disabled={!canEdit} className="tw-ground-form" onValuesChange={(c) => ('gaugeHost' in c || 'gaugePort' in c || 'gaugeTank' in c) && void form.validateFields(['gaugeHost', 'gaugePort', 'gaugeTank']).catch(() => undefined)}>
          <Row gutter={12}>
            <Col span={6}>
              <Form.Item name="stationId" label={t('tankInfo.station')} rules={[{ required: true, message: t('tankInfo.required', { field: t('tankInfo.station') }) }]}>
                <Select showSearch optionFilterProp="label" options={stations.map((s) => ({ value: s.id, label: s.stationName }))} data-testid="ground-station" />
              </Form.Item>
            </Col>
            <Col span={3}>
              <Form.Item name="tankNo" label={t('tankInfo.tankNo')} rules={[{ required: true, message: t('tankInfo.required', { field: t('tankInfo.tankNo') }) }, range(1, 99)]}>
                <InputNumber style={{ width: '100%' }} precision={0} data-testid="ground-tankNo" />
              </Form.Item>
            </Col>
            <Col span={5}>
              <Form.Item name="name" label={t('tankInfo.tankName')} rules={[{ max: 64, message: t('tankInfo.tooLong', { n: 64 }) }]}>
                <Input data-testid="ground-name" />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item name="product" label={t('tankInfo.product')} rules={[{ required: true }]}>
                <Select options={PRODUCTS.map((p) => ({ value: p, label: t(`tankInfo.productName.${p}`) }))} />
              </Form.Item>
            </Col>
            <Col span={3}>
              <Form.Item name="capacity" label={t('tankInfo.capacityL')} rules={[range(0, MAX_CAPACITY)]}>
                <InputNumber style={{ width: '100%' }} precision={0} data-testid="ground-capacity" />
              </Form.Item>
            </Col>
            <Col span={3}>
              <Form.Item name="height" label={t('tankInfo.heightMm')} rules={[range(0, MAX_HEIGHT)]}>
                <InputNumber style={{ width: '100%' }} precision={0} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={12}>
            <Col span={4}>
              <Form.Item
                name="density20"
                label={t('tankInfo.density20')}
                tooltip={t('tankInfo.densityTip')}
                rules={[{ validator: (_, v: number | null) => (densityOk(v ?? null) ? Promise.resolve() : Promise.reject(new Error(t('tankInfo.densityError', { min: MIN_DENSITY, max: MAX_DENSITY })))) }]}
              >
                <InputNumber style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={5}>
              <Form.Item name="gaugeHost" label={t('tankInfo.gaugeHost')} tooltip={t('tankInfo.gaugeTip')} rules={[gaugeRule]}>
                <Input placeholder="192.168.1.20" data-testid="ground-gaugeHost" />
              </Form.Item>
            </Col>
            <Col span={3}>
              <Form.Item name="gaugePort" label={t('tankInfo.gaugePort')} rules={[gaugeRule]}>
                <InputNumber style={{ width: '100%' }} precision={0} placeholder="10001" />
              </Form.Item>
            </Col>
            <Col span={3}>
              <Form.Item name="gaugeTank" label={t('tankInfo.gaugeTank')} rules={[gaugeRule]}>
                <InputNumber style={{ width: '100%' }} precision={0} />
              </Form.Item>
            </Col>
            <Col span={3}>
              <Form.Item name="lowStockPct" label={t('tankInfo.lowStockPct')} rules={[range(0, 100)]}>
                <InputNumber style={{ width: '100%' }} precision={0} addonAfter="%" />
              </Form.Item>
            </Col>
            <Col span={3}>
              <Form.Item name="coverDaysMin" label={t('tankInfo.coverDaysMin')} rules={[range(0, 365)]}>
                <InputNumber style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={3}>
              <Form.Item name="waterMaxMm" label={t('tankInfo.waterMaxMm')} rules={[range(0, 2000)]}>
                <InputNumber style={{ width: '100%' }} precision={0} />
              </Form.Item>
            </Col>
          </Row>
          <Divider orientation="left" plain style={{ margin: '4px 0 8px' }}>
            {t('tankInfo.strapTable')}
          </Divider>
          {tableError && <Alert type="error" showIcon style={{ marginBottom: 8 }} message={t('tankInfo.strapHasErrors')} />}
          <StrapEditor rows={rows} onChange={setRows} readOnly={!canEdit} nominal={capacity} exportRef={tank && stored.length > 0 ? { tankId: tank.id } : undefined} dirty={rowsDirty} />
        </Form>
      )}
    </Modal>
  );
}
