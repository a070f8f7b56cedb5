import { useQuery } from '@tanstack/react-query';
import { Alert, App, Col, DatePicker, Form, Input, Radio, Row, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { carFunctions, deviceSave, DEFAULT_KIND, modelOptions, STATES, type Device } from '../../../api/equipment';
import { carChannels, saveCarChannels } from '../../../api/fleet';
import { useCodes } from '../../../api/useCodes';
import { useAuth } from '../../../components/AuthButton';
import { FormModal } from '../../../components/FormModal';
import { channelsToOffer } from '../../../lib/carFunctions';
import { isMirrored, SERIAL_RE, toDeviceBody, toFormValues, type DeviceFormValues } from './model';
import { PlaceSelect } from './PlaceSelect';

/**
 * Add or edit a device. A registered terminal, lock or gauge keeps its serial and place (its register's);
 * only the model, dates, state and notes are edited here. After a car's device gets a model with video,
 * the car's video channels are offered from the model.
 */
export function DeviceForm({ device, onClose, onSaved }: { device: Device | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<DeviceFormValues>();
  const canChannels = useAuth('groupCar-channels');
  const kinds = useCodes('equipmentKind');
  useEffect(() => form.setFieldsValue(toFormValues(device)), [device, form]);
  const kind = Form.useWatch('kind', form) ?? device?.kind ?? DEFAULT_KIND;
  const placeKind = Form.useWatch('placeKind', form);
  const mirror = isMirrored(kind);
  const models = useQuery({ queryKey: ['equipment', 'modelOptions', kind], queryFn: () => modelOptions(kind), staleTime: 30_000 });

  // the model's channels, when they differ from the car's, are offered once the device is saved
  const offerChannels = async (saved: Device) => {
    if (!saved.carId || saved.videoChannels <= 0 || !canChannels) return;
    const [f, current] = await Promise.all([carFunctions(saved.carId), carChannels(saved.carId)]);
    const want = channelsToOffer(f, current);
    if (!want) return;
    const names = want.map((c) => c.name || t('equipment.channelNo', { n: c.channelNo })).join(t('common.listSeparator'));
    modal.confirm({
      title: t('equipment.offerTitle'),
      content: t('equipment.offerText', { plate: saved.plate, n: want.length, names, models: f.models.join(t('common.listSeparator')) }),
      okText: t('equipment.offerOk'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await saveCarChannels(saved.carId!, want);
        void message.success(t('equipment.offerDone'));
      },
    });
  };

  return (
    <FormModal<DeviceFormValues>
      form={form}
      name="deviceForm"
      title={t(device ? 'equipment.editTitle' : 'equipment.addTitle')}
      isAdd={!device}
      save={async (v) => {
        const saved = await deviceSave(toDeviceBody(v, device));
        void offerChannels(saved).catch(() => undefined);
        return saved;
      }}
      onClose={onClose}
      onSaved={onSaved}
      labelWidth={100}
    >
      {device?.mirror && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t(`equipment.mirrorHint.${device.kind}`)} />}
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="kind" label={t('equipment.kind')} rules={[{ required: true, message: t('equipment.kindRequired') }]}>
            <Select
              disabled={!!device}
              onChange={() => form.setFieldValue('modelId', null)}
              // the enabled kinds (and the one an edited device holds); register kinds are added on their own pages
              options={kinds.options(device?.kind).map((o) => ({ ...o, disabled: !device && isMirrored(o.value) }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="serial"
            label={t('equipment.serial')}
            rules={[
              { required: true, whitespace: true, message: t('equipment.serialRequired') },
              { pattern: SERIAL_RE, message: t('equipment.serialHint') },
            ]}
          >
            <Input maxLength={64} autoComplete="off" disabled={!!device?.mirror} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="modelId" label={t('equipment.model')} extra={models.data?.length === 0 ? t('equipment.noModels') : undefined}>
            <Select
              allowClear
              loading={models.isFetching}
              placeholder={device?.mirror && !device.modelId && device.modelName ? device.modelName : t('equipment.modelNone')}
              options={(models.data ?? []).map((m) => ({ value: m.id, label: m.manufacturer ? `${m.name} · ${m.manufacturer}` : m.name }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="manufacturer" label={t('equipment.manufacturer')}>
            <Input maxLength={64} autoComplete="off" placeholder={t('equipment.manufacturerHint')} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="installDate" label={t('equipment.installDate')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="warrantyEnd"
            label={t('equipment.warrantyEnd')}
            dependencies={['installDate']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, v) => {
                  const from = getFieldValue('installDate');
                  return v && from && v.isBefore(from, 'day') ? Promise.reject(new Error(t('equipment.dateOrder'))) : Promise.resolve();
                },
              }),
            ]}
          >
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="state" label={t('equipment.state')}>
            <Select options={STATES.map((s) => ({ value: s, label: t(`equipment.stateName.${s}`) }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          {mirror ? (
            <Form.Item label={t('equipment.place')}>
              <span>{device ? device.plate || device.stationName || t('equipment.placeNone') : '—'}</span>
            </Form.Item>
          ) : (
            <Form.Item name="placeKind" label={t('equipment.place')}>
              <Radio.Group
                options={(['car', 'station', 'none'] as const).map((p) => ({ value: p, label: t(`equipment.placeKind.${p}`) }))}
                optionType="button"
                size="small"
              />
            </Form.Item>
          )}
        </Col>
        {!mirror && placeKind === 'car' && (
          <Col span={12}>
            <Form.Item name="carId" label={t('equipment.car')} rules={[{ required: true, message: t('equipment.pickCar') }]}>
              <PlaceSelect which="cars" current={device?.carId ? { id: device.carId, name: device.plate, groupName: device.groupName } : undefined} />
            </Form.Item>
          </Col>
        )}
        {!mirror && placeKind === 'station' && (
          <Col span={12}>
            <Form.Item name="stationId" label={t('equipment.station')} rules={[{ required: true, message: t('equipment.pickStation') }]}>
              <PlaceSelect
                which="stations"
                current={device?.stationId ? { id: device.stationId, name: device.stationName, groupName: device.groupName } : undefined}
              />
            </Form.Item>
          </Col>
        )}
        <Col span={24}>
          <Form.Item name="notes" label={t('equipment.notes')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
