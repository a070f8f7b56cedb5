import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Descriptions, Form, Input, InputNumber, Row, Select, Space, Spin, Switch, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { platformInfo } from '../../../api/auth';
import { MAP_PROVIDERS, systemDetail, systemEdit, uploadTiles, type SystemDetail, type SystemInput } from '../../../api/settings';
import { useAppStore } from '../../../app/store';
import { AuthButton, useAuth } from '../../../components/AuthButton';
import { setPlatformZone, zoneOptions } from '../../../lib/zone';

/** Only the fields that changed (the AMap key only when typed: the console never has it). */
export function changedSettings(d: SystemDetail, v: SystemInput & { amapKey?: string }): SystemInput {
  const out: SystemInput = {};
  for (const k of ['timeZone', 'offlineMinutes', 'parkingMinutes', 'rawRetentionDays', 'positionRetentionDays', 'mapProvider', 'offlineTiles', 'faultSilentHours', 'faultSensor'] as const) {
    if (v[k] !== undefined && v[k] !== d[k]) (out as Record<string, unknown>)[k] = v[k];
  }
  if (v.amapKey) out.amapKey = v.amapKey.trim();
  return out;
}

function fmtTime(ms: number): string {
  return ms ? new Date(ms).toLocaleString() : '—';
}

/** The platform settings: each validated on the server, logged, and in force at once. */
export function SettingsForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SystemInput>();
  const setPlatform = useAppStore((s) => s.setPlatform);
  const canEdit = useAuth('edit');
  const q = useQuery({ queryKey: ['systemDetail'], queryFn: systemDetail });
  const [saving, setSaving] = useState(false);
  const provider = Form.useWatch('mapProvider', form);
  // filled once: a refetch (after an upload or a save) must not undo what the user is typing
  const filled = useRef(false);
  useEffect(() => {
    if (q.data && !filled.current) {
      filled.current = true;
      form.setFieldsValue({ ...q.data, amapKey: '' });
    }
  }, [q.data, form]);
  if (!q.data) return <Spin spinning style={{ display: 'block', padding: 48 }} />;
  const d = q.data;
  const save = async () => {
    const v = await form.validateFields();
    const body = changedSettings(d, v);
    if (Object.keys(body).length === 0) {
      void message.info(t('settings.system.nothingChanged'));
      return;
    }
    setSaving(true);
    try {
      await systemEdit(body);
      void message.success(t('settings.system.saved'));
      await q.refetch();
      const info = await platformInfo();
      setPlatform(info);
      if (info.timeZone) setPlatformZone(info.timeZone);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form form={form} layout="vertical" disabled={!canEdit} data-testid="system-form">
      {!canEdit && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('settings.system.readOnly')} />}
      <Row gutter={16}>
        <Col span={12}>
          <Card size="small" title={t('settings.system.timeAndThresholds')}>
            <Form.Item name="timeZone" label={t('settings.system.timeZone')} extra={t('settings.system.timeZoneHint')} rules={[{ required: true }]}>
              <Select showSearch options={zoneOptions().map((z) => ({ value: z, label: z }))} data-testid="timeZone" />
            </Form.Item>
            <Form.Item name="offlineMinutes" label={t('settings.system.offlineMinutes')} extra={t('settings.system.offlineHint')} rules={[{ required: true, type: 'number', min: 1, max: 1440, message: t('settings.system.range', { min: 1, max: 1440 }) }]}>
              <InputNumber min={1} max={1440} precision={0} addonAfter={t('settings.system.minutes')} style={{ width: 220 }} data-testid="offlineMinutes" />
            </Form.Item>
            <Form.Item name="parkingMinutes" label={t('settings.system.parkingMinutes')} extra={t('settings.system.parkingHint')} rules={[{ required: true, type: 'number', min: 5, max: 10080, message: t('settings.system.range', { min: 5, max: 10080 }) }]}>
              <InputNumber min={5} max={10080} precision={0} addonAfter={t('settings.system.minutes')} style={{ width: 220 }} />
            </Form.Item>
          </Card>
          <Card size="small" title={t('settings.system.retention')} style={{ marginTop: 16 }}>
            <Form.Item name="rawRetentionDays" label={t('settings.system.rawDays')} extra={t('settings.system.zeroForever')} rules={[{ required: true, type: 'number', min: 0, max: 3650, message: t('settings.system.range', { min: 0, max: 3650 }) }]}>
              <InputNumber min={0} max={3650} precision={0} addonAfter={t('settings.system.days')} style={{ width: 220 }} />
            </Form.Item>
            <Form.Item name="positionRetentionDays" label={t('settings.system.posDays')} extra={t('settings.system.posHint')} rules={[{ required: true, type: 'number', min: 0, max: 3650, message: t('settings.system.range', { min: 0, max: 3650 }) }]}>
              <InputNumber min={0} max={3650} precision={0} addonAfter={t('settings.system.days')} style={{ width: 220 }} />
            </Form.Item>
            <Descriptions size="small" column={1} bordered>
              <Descriptions.Item label={t('settings.system.purgeEvery')}>{t('settings.system.purgeEveryValue', { n: d.retention.everyMinutes })}</Descriptions.Item>
              <Descriptions.Item label={t('settings.system.purgeLast')}>
                {d.retention.last ? t('settings.system.purgeLastValue', { at: fmtTime(d.retention.last.at), raw: d.retention.last.rawFrames, pos: d.retention.last.positions }) : t('settings.system.purgeNever')}
              </Descriptions.Item>
              <Descriptions.Item label={t('settings.system.purgeNext')}>{fmtTime(d.retention.nextAt)}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col span={12}>
          <Card size="small" title={t('settings.system.map')}>
            <Form.Item name="mapProvider" label={t('settings.system.mapProvider')} extra={t('settings.system.mapProviderHint', { flag: d.defaults.mapProvider })}>
              <Select options={MAP_PROVIDERS.map((p) => ({ value: p, label: t(`settings.system.provider.${p}`) }))} data-testid="mapProvider" />
            </Form.Item>
            <Form.Item name="amapKey" label={t('settings.system.amapKey')} extra={d.amapKeySet ? t('settings.system.amapKeySet', { masked: d.amapKeyMasked }) : t('settings.system.amapKeyUnset')}
              rules={[{ pattern: /^[0-9A-Za-z]{8,64}$/, message: t('settings.system.amapKeyHint') }]}>
              <Input.Password autoComplete="new-password" placeholder={d.amapKeySet ? d.amapKeyMasked : ''} style={{ width: 320 }} />
            </Form.Item>
            <Form.Item
              name="offlineTiles"
              label={t('settings.system.offlineTiles')}
              extra={t('settings.system.offlineTilesHint')}
              rules={[{ required: provider === 'offline', message: t('settings.system.offlineNeedsFile') }]}
            >
              <Select
                allowClear
                style={{ width: 320 }}
                data-testid="offlineTiles"
                placeholder={t('settings.system.noFile')}
                notFoundContent={t('settings.system.noFiles')}
                options={d.tileFiles.map((f) => ({ value: f.name, label: t('settings.system.tileFileLabel', { name: f.name, kb: (f.size / 1024).toFixed(0), n: f.tiles }) }))}
              />
            </Form.Item>
            <AuthButton code="edit">
              <Upload
                accept=".mbtiles"
                showUploadList={false}
                customRequest={({ file, onSuccess, onError }) => {
                  uploadTiles(file as File)
                    .then((meta) => {
                      void message.success(t('settings.system.uploaded', { n: meta.tiles, min: meta.minZoom, max: meta.maxZoom }));
                      onSuccess?.(meta);
                      void q.refetch().then(() => form.setFieldValue('offlineTiles', (file as File).name));
                    })
                    .catch((e: unknown) => onError?.(e as Error));
                }}
              >
                <Button icon={<UploadOutlined />} data-testid="uploadTiles">
                  {t('settings.system.upload')}
                </Button>
              </Upload>
            </AuthButton>
            {d.tiles && (
              <Descriptions size="small" column={2} bordered style={{ marginTop: 12 }}>
                <Descriptions.Item label={t('settings.system.tilesName')}>{d.tiles.name || d.offlineTiles}</Descriptions.Item>
                <Descriptions.Item label={t('settings.system.tilesFormat')}>{d.tiles.format}</Descriptions.Item>
                <Descriptions.Item label={t('settings.system.tilesZoom')}>{`${d.tiles.minZoom}–${d.tiles.maxZoom}`}</Descriptions.Item>
                <Descriptions.Item label={t('settings.system.tilesCount')}>{d.tiles.tiles}</Descriptions.Item>
              </Descriptions>
            )}
          </Card>
          <Card size="small" title={t('settings.system.autoFaults')} style={{ marginTop: 16 }} data-testid="autoFaults">
            <Form.Item name="faultSilentHours" label={t('settings.system.faultSilentHours')} extra={t('settings.system.faultSilentHint')} rules={[{ required: true, type: 'number', min: 0, max: 720, message: t('settings.system.range', { min: 0, max: 720 }) }]}>
              <InputNumber min={0} max={720} precision={0} addonAfter={t('settings.system.hours')} style={{ width: 220 }} data-testid="faultSilentHours" />
            </Form.Item>
            <Form.Item name="faultSensor" label={t('settings.system.faultSensor')} extra={t('settings.system.faultSensorHint')} valuePropName="checked">
              <Switch data-testid="faultSensor" />
            </Form.Item>
          </Card>
        </Col>
      </Row>
      <AuthButton code="edit">
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="system-save">
            {t('settings.system.save')}
          </Button>
          <Button onClick={() => form.setFieldsValue({ ...d, amapKey: '' })}>{t('settings.system.reset')}</Button>
        </Space>
      </AuthButton>
    </Form>
  );
}
