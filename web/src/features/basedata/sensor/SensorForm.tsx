import { App, Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { addSensor, DECODERS, updateSensor, type Decoder, type Sensor, type SensorInput } from '../../../api/sensor';
import { FormModal } from '../../../components/FormModal';

export interface SensorFormValues {
  name: string;
  length?: number | null;
  identification?: string;
  decoder: Decoder;
  remark?: string;
}

/** The form's modes; anything else (e.g. an edit without a record) is refused with 请重新操作. */
export type SensorFormMode = 'add' | 'edit';

export function toSensorBody(v: SensorFormValues): SensorInput {
  return {
    name: v.name.trim(),
    length: v.length ?? 0,
    identification: (v.identification ?? '').trim().toUpperCase(),
    decoder: v.decoder,
    remark: v.remark?.trim() ?? '',
  };
}

/** Add/Edit sensor modal (spec §2: name, message length, peripheral identification ID; plus the decoder). */
export function SensorForm({ mode, sensor, onClose, onSaved }: { mode: SensorFormMode; sensor: Sensor | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SensorFormValues>();
  // English labels ("Peripheral identification ID") need about twice the width of the Chinese ones.
  const english = i18n.language.startsWith('en');

  useEffect(() => {
    form.setFieldsValue(
      sensor
        ? { name: sensor.name, length: sensor.length, identification: sensor.identification, decoder: sensor.decoder, remark: sensor.remark }
        : { length: 0, decoder: 'level' },
    );
  }, [sensor, form]);

  const save = async (v: SensorFormValues) => {
    const body = toSensorBody(v);
    if (mode === 'add') return addSensor(body);
    if (mode === 'edit' && sensor) return updateSensor({ ...body, id: sensor.id, groupId: sensor.groupId });
    void message.warning(t('sensor.retry'));
    throw new Error('unknown sensor form mode');
  };

  return (
    <FormModal<SensorFormValues>
      form={form}
      name="sensorForm"
      title={t(mode === 'add' ? 'sensor.addTitle' : 'sensor.editTitle')}
      isAdd={mode === 'add'}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      onInvalid={() => void message.warning(t('sensor.incomplete'))}
      width={english ? 720 : 640}
      labelWidth={english ? 200 : 120}
    >
      <Row gutter={24}>
        <Col span={24}>
          <Form.Item name="name" label={t('sensor.name')} validateTrigger="onBlur" rules={[{ required: true, whitespace: true, message: t('sensor.nameRequired') }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="length" label={t('sensor.length')} extra={t('sensor.lengthHint')}>
            <InputNumber min={0} max={1024} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="identification" label={t('sensor.identification')} extra={t('sensor.identificationHint')}>
            <Input maxLength={8} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="decoder" label={t('sensor.decoder')} rules={[{ required: true, message: t('sensor.incomplete') }]}>
            <Select options={DECODERS.map((d) => ({ value: d, label: t(`sensor.${d}`) }))} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('sensor.remark')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
