import { Checkbox, Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { modelSave, type DeviceModel } from '../../../api/equipment';
import { useCodes } from '../../../api/useCodes';
import { FormModal } from '../../../components/FormModal';
import { parseChannelNames, toModelBody, toModelValues, type ModelFormValues } from './model';

/** Add or edit a device model and its functions. */
export function ModelForm({ model, onClose, onSaved }: { model: DeviceModel | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ModelFormValues>();
  const kinds = useCodes('equipmentKind');
  useEffect(() => form.setFieldsValue(toModelValues(model)), [model, form]);
  const channels = Form.useWatch('videoChannels', form) ?? 0;
  return (
    <FormModal<ModelFormValues>
      form={form}
      name="modelForm"
      title={t(model ? 'equipment.fun.editTitle' : 'equipment.fun.addTitle')}
      isAdd={!model}
      save={(v) => modelSave(toModelBody(v, model?.id))}
      onClose={onClose}
      onSaved={onSaved}
      labelWidth={120}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="name" label={t('equipment.fun.name')} rules={[{ required: true, whitespace: true, message: t('equipment.fun.nameRequired') }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="kind"
            label={t('equipment.kind')}
            rules={[{ required: true, message: t('equipment.kindRequired') }]}
            extra={model && model.devices > 0 ? t('equipment.fun.kindLocked', { n: model.devices }) : undefined}
          >
            <Select disabled={!!model && model.devices > 0} options={kinds.options(model?.kind)} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="manufacturer" label={t('equipment.manufacturer')}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="videoChannels" label={t('equipment.fun.videoChannels')}>
            <InputNumber min={0} max={32} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item
            name="channelNames"
            label={t('equipment.fun.channelNames')}
            extra={t('equipment.fun.channelNamesHint')}
            dependencies={['videoChannels']}
            rules={[
              {
                validator: (_, v: string | undefined) =>
                  parseChannelNames(v).length > (form.getFieldValue('videoChannels') ?? 0)
                    ? Promise.reject(new Error(t('equipment.fun.tooManyNames', { n: form.getFieldValue('videoChannels') ?? 0 })))
                    : Promise.resolve(),
              },
            ]}
          >
            <Input.TextArea rows={2} disabled={channels === 0} placeholder={t('equipment.fun.channelNamesPlaceholder')} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="probes" label={t('equipment.fun.probes')}>
            <InputNumber min={0} max={8} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="valveSensors" label={t('equipment.fun.valveSensors')}>
            <InputNumber min={0} max={32} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="locks" label={t('equipment.fun.locks')}>
            <Checkbox.Group
              options={[
                { value: 'ble', label: t('equipment.fun.lockBle') },
                { value: '4g', label: t('equipment.fun.lock4g') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="can" label={t('equipment.fun.can')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('equipment.notes')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
