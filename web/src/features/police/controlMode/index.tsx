import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Col, Empty, Form, Input, InputNumber, Radio, Row, Space, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALARM_GROUPS, deleteControl, getControl, saveControl, type ControlSettings, type ControlTarget, type ControlView } from '../../../api/alarm';
import type { Group } from '../../../api/types';
import { GroupSelect } from '../../../components/GroupSelect';
import { useGroupTree } from '../../access/groupInfo/groupTree';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { useAlarmTypes } from '../common/alarmUi';
import { useAppStore } from '../../../app/store';
import { describeControlChange } from './changes';
import { confirmChanges } from '../../../components/confirmChanges';

type FormValues = Omit<ControlSettings, 'classSpeed'> & { classes: { cls: string; speed: number }[] };

function toForm(s: ControlSettings): FormValues {
  const { classSpeed, ...rest } = s;
  return { ...rest, classes: Object.entries(classSpeed ?? {}).map(([cls, speed]) => ({ cls, speed })) };
}

function fromForm(v: FormValues): ControlSettings {
  const { classes, ...rest } = v;
  const classSpeed: Record<string, number> = {};
  for (const c of classes ?? []) if (c?.cls?.trim()) classSpeed[c.cls.trim()] = c.speed;
  return { ...rest, watched: rest.watched ?? [], classSpeed };
}

function findGroup(groups: readonly Group[] | undefined, id: number): Group | undefined {
  for (const g of groups ?? []) {
    if (g.id === id) return g;
    const c = findGroup(g.children, id);
    if (c) return c;
  }
  return undefined;
}

function SourceNote({ view }: { view: ControlView }) {
  const { t } = useTranslation();
  const groups = useGroupTree();
  if (view.own) return <Tag color="blue">{t('controlMode.sourceOwn')}</Tag>;
  if (view.source === 'group') return <Tag>{t('controlMode.sourceGroup', { name: findGroup(groups.data, view.sourceId)?.name ?? view.sourceId })}</Tag>;
  if (view.source === 'car') return <Tag>{t('controlMode.sourceCar')}</Tag>;
  return <Tag>{t('controlMode.sourceDefault')}</Tag>;
}

/** Control mode (menu controlMode): which alarm types are watched and the thresholds, per group (for its subtree) or per vehicle. */
export default function ControlModePage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const types = useAlarmTypes();
  const [kind, setKind] = useState<'group' | 'car'>('group');
  // opens on the operator's own group: what their whole scope watches, one click from changing it
  const [groupId, setGroupId] = useState<number | undefined>(() => useAppStore.getState().session?.groupId || undefined);
  const [carId, setCarId] = useState<number>();
  const target: ControlTarget | null = kind === 'group' ? (groupId ? { groupId } : null) : carId ? { carId } : null;
  const view = useQuery({ queryKey: ['controlMode', target], queryFn: () => getControl(target!), enabled: target != null });
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const byGroup = useMemo(() => ALARM_GROUPS.map((g) => ({ g, list: (types.data ?? []).filter((ty) => ty.group === g) })), [types.data]);

  const done = async (v: ControlView) => {
    client.setQueryData(['controlMode', target], v);
    void message.success(t('common.operationSuccess'));
  };
  const groups = useGroupTree();
  const targetName = kind === 'group' ? (findGroup(groups.data, groupId ?? 0)?.name ?? String(groupId ?? '')) : '';
  const store = async (next: ControlSettings) => {
    setSaving(true);
    try {
      await done(await saveControl(target!, next));
    } catch {
      // the client showed the server's message
    } finally {
      setSaving(false);
    }
  };
  // the settings apply to a whole subtree (or a car): the confirmation names each change and where it applies
  const submit = async () => {
    const next = fromForm(await form.validateFields());
    const before = view.data?.own ?? view.data?.effective;
    if (!before) return; // not loaded yet: nothing to compare the change with
    const name = (code: string) => types.data?.find((ty) => ty.code === code)?.name ?? code;
    confirmChanges(modal, {
      title: t('controlMode.confirmTitle'),
      lead: kind === 'group' ? t('controlMode.appliesToGroup', { name: targetName }) : t('controlMode.appliesToCar'),
      lines: describeControlChange(before, next, name, t),
      empty: t('controlMode.noChange'),
      testId: 'control-change',
      onOk: () => store(next),
    });
  };
  const inherit = () =>
    modal.confirm({
      title: t('common.prompt'),
      content: t('controlMode.confirmInherit'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => done(await deleteControl(target!)),
    });

  return (
    <div className="tw-page">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap>
          <Radio.Group value={kind} onChange={(e) => setKind(e.target.value)} optionType="button">
            <Radio value="group">{t('controlMode.byGroup')}</Radio>
            <Radio value="car">{t('controlMode.byCar')}</Radio>
          </Radio.Group>
          {kind === 'group' ? (
            <GroupSelect value={groupId} onChange={setGroupId} style={{ width: 240 }} data-testid="control-group" />
          ) : (
            <VehiclePicker value={carId} onChange={(v) => setCarId(v)} />
          )}
          <Typography.Text type="secondary">{t('controlMode.hint')}</Typography.Text>
        </Space>
      </Card>
      {!target && <Empty description={t('controlMode.pickTarget')} />}
      {target && view.isLoading && <Spin />}
      {target && view.isError && <Alert type="error" showIcon message={t('common.requestFailed')} />}
      {target && view.data && (
        <Card
          size="small"
          title={
            <Space>
              {t('controlMode.settings')}
              <SourceNote view={view.data} />
            </Space>
          }
          extra={
            <Space>
              {view.data.own && <Button onClick={inherit}>{t('controlMode.inherit')}</Button>}
              <Button type="primary" loading={saving} onClick={() => void submit().catch(() => undefined)}>
                {t('common.save')}
              </Button>
            </Space>
          }
        >
          <Form form={form} layout="vertical" key={view.dataUpdatedAt} initialValues={toForm(view.data.own ?? view.data.effective)}>
            <Row gutter={16}>
              <Col xs={24} md={6}>
                <Form.Item name="speedLimit" label={t('controlMode.speedLimit')} rules={[{ required: true, message: t('controlMode.required') }]}>
                  <InputNumber min={1} max={300} addonAfter="km/h" style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={6}>
                <Form.Item name="parkingMinutes" label={t('controlMode.parkingMinutes')} rules={[{ required: true, message: t('controlMode.required') }]}>
                  <InputNumber min={1} max={10080} addonAfter={t('controlMode.min')} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={6}>
                <Form.Item name="offlineMinutes" label={t('controlMode.offlineMinutes')} rules={[{ required: true, message: t('controlMode.required') }]}>
                  <InputNumber min={1} max={10080} addonAfter={t('controlMode.min')} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={6}>
                <Form.Item name="levelDropLitres" label={t('controlMode.levelDropLitres')} rules={[{ required: true, message: t('controlMode.required') }]}>
                  <InputNumber min={1} max={100000} addonAfter="L" style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
            <Typography.Text strong>{t('controlMode.classSpeed')}</Typography.Text>
            <Form.List name="classes">
              {(fields, { add, remove }) => (
                <div style={{ margin: '8px 0 16px' }}>
                  {fields.map((f) => (
                    <Space key={f.key} align="baseline">
                      <Form.Item name={[f.name, 'cls']} rules={[{ required: true, message: t('controlMode.required') }]}>
                        <Input placeholder={t('controlMode.vehicleClass')} style={{ width: 200 }} />
                      </Form.Item>
                      <Form.Item name={[f.name, 'speed']} rules={[{ required: true, message: t('controlMode.required') }]}>
                        <InputNumber min={1} max={300} addonAfter="km/h" />
                      </Form.Item>
                      <MinusCircleOutlined aria-label={t('common.delete')} onClick={() => remove(f.name)} />
                    </Space>
                  ))}
                  <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add({ cls: '', speed: 60 })}>
                    {t('controlMode.addClass')}
                  </Button>
                </div>
              )}
            </Form.List>
            <Form.Item name="watched" label={t('controlMode.watched')}>
              <Checkbox.Group style={{ width: '100%' }}>
                {byGroup.map(({ g, list }) =>
                  list.length ? (
                    <div key={g} style={{ marginBottom: 8, width: '100%' }}>
                      <Typography.Text type="secondary">{t(`alarm.groupName.${g}`)}</Typography.Text>
                      <Row>
                        {list.map((ty) => (
                          <Col key={ty.code} xs={24} sm={12} md={8} lg={6}>
                            <Checkbox value={ty.code}>{ty.name}</Checkbox>
                          </Col>
                        ))}
                      </Row>
                    </div>
                  ) : null,
                )}
              </Checkbox.Group>
            </Form.Item>
          </Form>
        </Card>
      )}
    </div>
  );
}
